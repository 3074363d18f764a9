// The workspace round trip of WorkspaceSync into a container and back through the Docker
// API's archive endpoints (packs/power/docker/DockerArchiveTransfer), on the test's Podman
// service: the copy lives in a volume of a container whose root filesystem is read-only; a
// command there changes it; what comes back follows the conflict rule and the repository
// rules, and a denied file never reaches the container.
#include "DaemonRig.h"
#include "core/workspace/WorkspaceSync.h"
#include "docker/DockerArchiveTransfer.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <poll.h>
#include <unistd.h>

using namespace sandbox;
using sandbox::power::DockerApi;
using sandbox::power::DockerArchiveTransfer;

namespace {

constexpr int timeoutMs = 60000;
const QString remoteRoot = QStringLiteral("/workspace");

bool write(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(data) == data.size();
}

QByteArray read(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
}

} // namespace

class TestDockerArchive final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void roundTripThroughTheArchiveEndpoints();

private:
    // Runs `script` with sh in the container; its multiplexed output.
    QByteArray exec(const QString &script);

    std::optional<DockerApi> m_api;
    QString m_container;
};

void TestDockerArchive::initTestCase()
{
    sandbox::test::DockerRuntime runtime;
    SANDBOX_DOCKER_RUNTIME_OR_SKIP(runtime);
    m_api.emplace(runtime.socket);
    const QJsonObject host{ { QStringLiteral("ReadonlyRootfs"), true },
                            { QStringLiteral("NetworkMode"), QStringLiteral("none") },
                            { QStringLiteral("Mounts"),
                              QJsonArray{ QJsonObject{ { QStringLiteral("Type"), QStringLiteral("volume") },
                                                       { QStringLiteral("Target"), remoteRoot } } } } };
    const Result<DockerApi::Response> created = m_api->post(
        QStringLiteral("/containers/create"),
        QJsonObject{ { QStringLiteral("Image"), runtime.image },
                     { QStringLiteral("Cmd"), QJsonArray{ QStringLiteral("sleep"), QStringLiteral("600") } },
                     { QStringLiteral("HostConfig"), host } },
        timeoutMs);
    QVERIFY2(created.ok() && created.value().status == 201,
             created.ok() ? created.value().body.constData() : qPrintable(created.error().message));
    m_container = created.value().json().value(QStringLiteral("Id")).toString();
    const Result<DockerApi::Response> started
        = m_api->post(QStringLiteral("/containers/%1/start").arg(m_container), {}, timeoutMs);
    QVERIFY(started.ok() && started.value().status == 204);
}

void TestDockerArchive::cleanupTestCase()
{
    if (m_api && !m_container.isEmpty())
        m_api->remove(QStringLiteral("/containers/%1?force=true&v=true").arg(m_container), timeoutMs);
}

QByteArray TestDockerArchive::exec(const QString &script)
{
    const Result<DockerApi::Response> created = m_api->post(
        QStringLiteral("/containers/%1/exec").arg(m_container),
        QJsonObject{ { QStringLiteral("Cmd"), QJsonArray{ QStringLiteral("sh"), QStringLiteral("-c"), script } },
                     { QStringLiteral("AttachStdout"), true },
                     { QStringLiteral("AttachStderr"), true } },
        timeoutMs);
    if (!created.ok() || created.value().status != 201)
        return "<exec not created>";
    const Result<DockerApi::Stream> stream
        = m_api->startExec(created.value().json().value(QStringLiteral("Id")).toString(), timeoutMs);
    if (!stream.ok())
        return "<exec not started>";
    QByteArray output = stream.value().pending;
    char buffer[4096];
    for (;;) {
        pollfd p{ stream.value().fd, POLLIN, 0 };
        if (::poll(&p, 1, timeoutMs) <= 0)
            break;
        const ssize_t n = ::read(stream.value().fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        output.append(buffer, n);
    }
    ::close(stream.value().fd);
    return output;
}

void TestDockerArchive::roundTripThroughTheArchiveEndpoints()
{
    QTemporaryDir host;
    const QString root = host.path();
    QVERIFY(write(root + QStringLiteral("/a.txt"), "host\n"));
    QVERIFY(write(root + QStringLiteral("/b.txt"), "host b\n"));
    QVERIFY(write(root + QStringLiteral("/secret/key"), "never uploaded\n"));
    QVERIFY(write(root + QStringLiteral("/.git/HEAD"), "ref: refs/heads/main\n"));
    QVERIFY(QDir().mkpath(root + QStringLiteral("/.git/objects")));
    Policy policy = Policy::defaults();
    policy.writable = { root };
    policy.denied = { root + QStringLiteral("/secret") };

    DockerArchiveTransfer transfer(*m_api, m_container, remoteRoot);
    WorkspaceSync sync(root, policy, transfer, QStringLiteral("the container"));
    QSignalSpy uploaded(&sync, &WorkspaceSync::uploaded);
    QSignalSpy failed(&sync, &WorkspaceSync::uploadFailed);
    QSignalSpy note(&sync, &WorkspaceSync::note);
    QSignalSpy back(&sync, &WorkspaceSync::broughtBack);
    sync.upload();
    QTRY_COMPARE_WITH_TIMEOUT(uploaded.count() + failed.count(), 1, timeoutMs);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.at(0).at(0).toString()));

    const QByteArray seen = exec(QStringLiteral("cat /workspace/a.txt; ls -a /workspace; ls /workspace/secret 2>&1"));
    QVERIFY2(seen.contains("host\n"), seen.constData());
    QVERIFY2(!seen.contains("key"), seen.constData());
    exec(QStringLiteral("cd /workspace && echo remote > a.txt && echo remote b > b.txt && mkdir -p new && "
                        "echo new > new/c.txt && mkdir -p .git/hooks && echo hook > .git/hooks/pre-commit && "
                        "mkdir -p secret && echo planted > secret/planted"));
    QVERIFY(write(root + QStringLiteral("/b.txt"), "edited on the host meanwhile\n"));

    sync.bringBack(ExitStatus{});
    QTRY_COMPARE_WITH_TIMEOUT(back.count(), 1, timeoutMs);
    QByteArray said;
    for (const QList<QVariant> &arguments : std::as_const(note))
        said += arguments.at(0).toByteArray();
    QCOMPARE(back.at(0).at(0).value<ExitStatus>().exitCode, 0);
    QCOMPARE(read(root + QStringLiteral("/a.txt")), QByteArray("remote\n"));
    QCOMPARE(read(root + QStringLiteral("/new/c.txt")), QByteArray("new\n"));
    QCOMPARE(read(root + QStringLiteral("/b.txt")), QByteArray("edited on the host meanwhile\n"));
    QCOMPARE(read(root + QStringLiteral("/b.txt.sandbox-conflict")), QByteArray("remote b\n"));
    QVERIFY(!QFileInfo::exists(root + QStringLiteral("/.git/hooks/pre-commit")));
    QVERIFY(!QFileInfo::exists(root + QStringLiteral("/secret/planted")));
    QVERIFY2(said.contains("sandbox: b.txt changed on this computer while the command ran"), said.constData());
    QVERIFY2(said.contains("sandbox: not brought back: .git/hooks/pre-commit"), said.constData());
}

QTEST_GUILESS_MAIN(TestDockerArchive)

#include "tst_dockerarchive.moc"
