// The Docker backend's remote shape without an engine: what ContainerSpec::buildRemote()
// refuses (each with the policy field named), the container it asks for (no bind mount, two
// volumes of its own, the network the policy allows and no more; under the allowlist network
// mode only the forwarded proxy socket's remote folder, read-only, with the bridge as the
// container's first process under that socket's owner), the write gate's arguments,
// and the helper's archive as the system's tar reads it (owners, modes, contents).
#include "docker/ContainerSpec.h"
#include "docker/RemoteDockerProcess.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using sandbox::Policy;
using sandbox::PolicyCredential;
using sandbox::PolicySshAgent;
using sandbox::PolicyUpstreamProxy;
using sandbox::power::ContainerSpec;
using sandbox::power::DockerSettings;
using sandbox::power::RemoteDockerProcess;

class TestRemoteContainerSpec final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void refusesWhatNeedsThisComputer_data();
    void refusesWhatNeedsThisComputer();
    void asksForNothingOfThisComputer();
    void allowlistGetsTheForwardedProxyOnly();
    void gateGuardsTheWorkspaceAndTheHelper();
    void helperArchiveIsWhatTarReads();

private:
    Policy policy(Policy::NetworkMode network) const;
    QString m_helper;
    QString m_workspace;
    QTemporaryDir m_dir;
    DockerSettings m_settings;
};

namespace {

const QString endpoint = QStringLiteral("ssh://user@remote.example:2222");

} // namespace

void TestRemoteContainerSpec::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // Any executable serves as the helper here: only its bytes travel.
    m_helper = QStandardPaths::findExecutable(QStringLiteral("true"));
    QVERIFY(!m_helper.isEmpty());
    m_workspace = m_dir.filePath(QStringLiteral("work"));
    QVERIFY(QDir().mkpath(m_workspace));
    m_settings.image = QStringLiteral("localhost/image:latest");
    m_settings.pidsLimit = 256;
}

Policy TestRemoteContainerSpec::policy(Policy::NetworkMode network) const
{
    Policy p;
    p.writable = { QStringLiteral("${workspace}"), QStringLiteral("/tmp"), m_dir.path() };
    p.network = network;
    return p;
}

void TestRemoteContainerSpec::refusesWhatNeedsThisComputer_data()
{
    QTest::addColumn<int>("which");
    QTest::addColumn<QString>("field");
    QTest::newRow("credentials") << 1 << QStringLiteral("policy.credentials");
    QTest::newRow("ssh agent") << 3 << QStringLiteral("policy.sshAgent");
    QTest::newRow("no helper") << 4 << QStringLiteral("sandbox-init");
    QTest::newRow("workspace denied") << 5 << m_workspace;
    // Over TLS there is no way back to this computer for the filtering proxy.
    QTest::newRow("allowlist over tls") << 6 << QStringLiteral("policy.network");
}

void TestRemoteContainerSpec::refusesWhatNeedsThisComputer()
{
    QFETCH(int, which);
    QFETCH(QString, field);
    Policy p = policy(Policy::NetworkMode::None);
    QString helper = m_helper;
    QString at = endpoint;
    if (which >= 6) {
        at = QStringLiteral("tcp://remote.example:2376");
        p = policy(Policy::NetworkMode::Allowlist);
        p.allowedDomains = { QStringLiteral("example.org") };
    }
    if (which == 1) {
        p.credentials = { PolicyCredential{
            QStringLiteral("token"), QStringLiteral("TOKEN"), { QStringLiteral("api.example.org") }, {}, {} } };
    } else if (which == 3) {
        p.sshAgent = PolicySshAgent{};
    } else if (which == 4) {
        helper = m_dir.filePath(QStringLiteral("missing"));
    } else if (which == 5) {
        p.denied = { m_dir.path() };
    }
    const sandbox::Result<ContainerSpec> spec
        = ContainerSpec::buildRemote(m_settings, p, m_workspace, 1234, 1234, helper, at);
    QVERIFY(!spec.ok());
    QCOMPARE(spec.error().where, field);
    if (which <= 3 || which >= 6)
        QVERIFY2(spec.error().message.contains(at), qPrintable(spec.error().message));
}

void TestRemoteContainerSpec::asksForNothingOfThisComputer()
{
    for (const Policy::NetworkMode mode : { Policy::NetworkMode::None, Policy::NetworkMode::Full }) {
        const sandbox::Result<ContainerSpec> spec
            = ContainerSpec::buildRemote(m_settings, policy(mode), m_workspace, 1234, 1234, m_helper, endpoint);
        QVERIFY2(spec.ok(), spec.ok() ? "" : qPrintable(spec.error().message));
        QVERIFY(spec.value().remote());
        const QJsonObject body = spec.value().createBody({});
        const QJsonObject host = body.value(QStringLiteral("HostConfig")).toObject();
        QCOMPARE(host.value(QStringLiteral("Binds")).toArray().size(), 0);
        const QJsonArray mounts = host.value(QStringLiteral("Mounts")).toArray();
        QCOMPARE(mounts.size(), 2);
        QStringList targets;
        for (const QJsonValue &mount : mounts) {
            QCOMPARE(mount.toObject().value(QStringLiteral("Type")).toString(), QStringLiteral("volume"));
            QVERIFY(!mount.toObject().contains(QStringLiteral("Source")));
            targets.append(mount.toObject().value(QStringLiteral("Target")).toString());
        }
        QCOMPARE(targets, QStringList({ m_workspace, QString::fromLatin1(ContainerSpec::remoteFolder) }));
        QVERIFY(host.value(QStringLiteral("ReadonlyRootfs")).toBool());
        QVERIFY(host.value(QStringLiteral("Tmpfs")).toObject().contains(QStringLiteral("/tmp")));
        QCOMPARE(host.value(QStringLiteral("CapDrop")).toArray(), QJsonArray{ QStringLiteral("ALL") });
        QCOMPARE(host.value(QStringLiteral("PidsLimit")).toInteger(), 256);
        const bool full = mode == Policy::NetworkMode::Full;
        QCOMPARE(host.value(QStringLiteral("NetworkMode")).toString(),
                 full ? QStringLiteral("bridge") : QStringLiteral("none"));
        QCOMPARE(body.value(QStringLiteral("NetworkDisabled")).toBool(), !full);
        QCOMPARE(body.value(QStringLiteral("Entrypoint")).toArray(),
                 QJsonArray{ QString::fromLatin1(ContainerSpec::helperTarget) });
        QCOMPARE(body.value(QStringLiteral("User")).toString(), QStringLiteral("1234:1234"));
    }
}

void TestRemoteContainerSpec::allowlistGetsTheForwardedProxyOnly()
{
    Policy p = policy(Policy::NetworkMode::Allowlist);
    p.allowedDomains = { QStringLiteral("example.org") };
    p.deniedDomains = { QStringLiteral("bad.example.org") };
    p.upstreamProxy = PolicyUpstreamProxy{ QStringLiteral("https://proxy.example:3128"), QStringLiteral("corp") };
    p.extraCaCertificates = { m_dir.filePath(QStringLiteral("corp-ca.pem")) };
    const sandbox::Result<ContainerSpec> built
        = ContainerSpec::buildRemote(m_settings, p, m_workspace, 1234, 1234, m_helper, endpoint);
    QVERIFY2(built.ok(), built.ok() ? "" : qPrintable(built.error().message));
    ContainerSpec spec = built.value();
    QVERIFY(spec.proxied());
    QCOMPARE(spec.allowedDomains(), p.allowedDomains);
    QCOMPARE(spec.deniedDomains(), p.deniedDomains);
    // The engine's proxy chains to the upstream one; nothing of it goes to the remote host.
    QVERIFY(spec.upstreamProxy().has_value());
    QCOMPARE(spec.upstreamProxy()->url, p.upstreamProxy->url);
    QCOMPARE(spec.extraCaCertificates(), p.extraCaCertificates);
    spec.setBridgeUser(QStringLiteral("1000:1000"));
    const QString folder = QStringLiteral("/tmp/sandbox-studio-proxy.abc");
    const QJsonObject body = spec.createBody({}, {}, folder, QStringLiteral("proxy.sock"));
    const QJsonObject host = body.value(QStringLiteral("HostConfig")).toObject();
    const QString bind
        = folder + QLatin1Char(':') + QString::fromLatin1(ContainerSpec::proxyTarget) + QStringLiteral(":ro");
    QCOMPARE(host.value(QStringLiteral("Binds")).toArray(), QJsonArray{ bind });
    QCOMPARE(host.value(QStringLiteral("NetworkMode")).toString(), QStringLiteral("none"));
    QVERIFY(body.value(QStringLiteral("NetworkDisabled")).toBool());
    const QString socket = QString::fromLatin1(ContainerSpec::proxyTarget) + QStringLiteral("/proxy.sock");
    QCOMPARE(body.value(QStringLiteral("Cmd")).toArray(),
             QJsonArray({ QStringLiteral("--proxy-bridge"), QString::number(ContainerSpec::proxyPort), socket }));
    // The bridge runs as the socket's owner; the commands (exec) as the caller.
    QCOMPARE(body.value(QStringLiteral("User")).toString(), QStringLiteral("1000:1000"));
    QCOMPARE(spec.user(), QStringLiteral("1234:1234"));
    QVERIFY(spec.proxyEnvironment().contains(QStringLiteral("HTTPS_PROXY=http://127.0.0.1:3128")));
}

void TestRemoteContainerSpec::gateGuardsTheWorkspaceAndTheHelper()
{
    Policy p = policy(Policy::NetworkMode::None);
    p.denied = { QStringLiteral("${workspace}/secret"), QStringLiteral("/etc/shadow") };
    p.readOnly = { QStringLiteral("${workspace}/docs"), QStringLiteral("/usr") };
    const sandbox::Result<ContainerSpec> spec
        = ContainerSpec::buildRemote(m_settings, p, m_workspace, 1234, 1234, m_helper, endpoint);
    QVERIFY(spec.ok());
    const QStringList arguments
        = spec.value().gateArguments({ QStringLiteral("make"), QStringLiteral("all") }, QStringLiteral("s1"), {});
    const QString joined = arguments.join(QLatin1Char(' '));
    QVERIFY2(joined.startsWith(QString::fromLatin1(ContainerSpec::helperTarget)
                               + QStringLiteral(" --gate --status /run/sandbox-studio/status/s1 ")),
             qPrintable(joined));
    QVERIFY2(joined.endsWith(QStringLiteral(" -- make all")), qPrintable(joined));
    // Only the workspace is guarded: no other folder of the host is there.
    QCOMPARE(arguments.count(QStringLiteral("--guard")), 1);
    QVERIFY(joined.contains(QStringLiteral("--guard ") + m_workspace + QLatin1Char(' ')));
    QVERIFY(joined.contains(QStringLiteral("--deny ") + m_workspace + QStringLiteral("/secret ")));
    QVERIFY(!joined.contains(QStringLiteral("/etc/shadow")));
    QVERIFY(joined.contains(QStringLiteral("--read-only ") + m_workspace + QStringLiteral("/docs ")));
    QVERIFY(!joined.contains(QStringLiteral("--read-only /usr ")));
    // The helper and the status files are read-only to the command.
    QVERIFY(joined.contains(QStringLiteral("--read-only /run/sandbox-studio ")));
}

void TestRemoteContainerSpec::helperArchiveIsWhatTarReads()
{
    const sandbox::Result<QByteArray> archive
        = RemoteDockerProcess::helperArchive(m_helper, QStringLiteral("abc123"), 1234, 4321);
    QVERIFY(archive.ok());
    QCOMPARE(archive.value().size() % 512, 0);
    const QString tar = QStandardPaths::findExecutable(QStringLiteral("tar"));
    QVERIFY(!tar.isEmpty());
    QProcess listing;
    listing.start(tar, { QStringLiteral("--numeric-owner"), QStringLiteral("-tvf"), QStringLiteral("-") });
    QVERIFY(listing.waitForStarted());
    listing.write(archive.value());
    listing.closeWriteChannel();
    QVERIFY(listing.waitForFinished(10000));
    QCOMPARE(listing.exitCode(), 0);
    const QStringList lines
        = QString::fromUtf8(listing.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QVERIFY2(lines.value(0).startsWith(QStringLiteral("-r-xr-xr-x 0/0 "))
                 && lines.value(0).endsWith(QStringLiteral(" sandbox-init")),
             qPrintable(lines.value(0)));
    QVERIFY2(lines.value(1).startsWith(QStringLiteral("drwxr-xr-x 0/0 "))
                 && lines.value(1).endsWith(QStringLiteral(" status/")),
             qPrintable(lines.value(1)));
    QVERIFY2(lines.value(2).startsWith(QStringLiteral("-rw------- 1234/4321 "))
                 && lines.value(2).endsWith(QStringLiteral(" status/abc123")),
             qPrintable(lines.value(2)));
    // The helper's bytes, whole.
    QTemporaryDir out;
    QProcess extract;
    extract.setWorkingDirectory(out.path());
    extract.start(tar, { QStringLiteral("-xf"), QStringLiteral("-"), QStringLiteral("--no-same-owner") });
    QVERIFY(extract.waitForStarted());
    extract.write(archive.value());
    extract.closeWriteChannel();
    QVERIFY(extract.waitForFinished(10000));
    QCOMPARE(extract.exitCode(), 0);
    QFile original(m_helper);
    QFile copied(QDir(out.path()).filePath(QStringLiteral("sandbox-init")));
    QVERIFY(original.open(QIODevice::ReadOnly) && copied.open(QIODevice::ReadOnly));
    QCOMPARE(copied.readAll(), original.readAll());
    QCOMPARE(QFileInfo(QDir(out.path()).filePath(QStringLiteral("status/abc123"))).size(), 0);
}

QTEST_GUILESS_MAIN(TestRemoteContainerSpec)

#include "tst_remotecontainerspec.moc"
