// builtin:vm as a user meets it: the real sandboxd and sandboxctl, QEMU booting the real
// guest (TCG here), the guest helpers fetched from a real loopback HTTP server. Boots are
// slow without KVM, so one daemon and its VMs serve the functions in order.
#include "ProgramRun.h"
#include "client/Client.h"
#include "client/LocalSocketTransport.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkDatagram>
#include <QNetworkInterface>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QSysInfo>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QUdpSocket>

#include <algorithm>
#include <csignal>
#include <memory>

namespace {

using sandbox::test::binary;
using sandbox::test::Outcome;
using sandbox::test::readFile;

constexpr int kSlowMs = 300 * 1000; // a boot under TCG on a loaded host

QString sha256Of(const QByteArray &data)
{
    return QString::fromLatin1(QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex());
}

bool isQemu(qint64 pid)
{
    return readFile(QStringLiteral("/proc/%1/cmdline").arg(pid)).contains("qemu-system");
}

bool isSlirp(qint64 pid)
{
    return readFile(QStringLiteral("/proc/%1/cmdline").arg(pid)).contains("slirp4netns");
}

QList<qint64> childrenOf(qint64 parent, bool (*matches)(qint64))
{
    QList<qint64> children;
    for (const QString &entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool numeric = false;
        const qint64 pid = entry.toLongLong(&numeric);
        if (!numeric)
            continue;
        const QByteArray stat = readFile(QStringLiteral("/proc/%1/stat").arg(pid));
        const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1 && fields.at(1).toLongLong() == parent && matches(pid))
            children.append(pid);
    }
    return children;
}

QList<qint64> qemuChildrenOf(qint64 parent)
{
    return childrenOf(parent, isQemu);
}

int stillRunning(const QList<qint64> &pids, bool (*matches)(qint64) = isQemu)
{
    return int(std::count_if(pids.cbegin(), pids.cend(), matches));
}

// The host's own IPv4 addresses but loopback.
QList<QHostAddress> hostAddresses()
{
    QList<QHostAddress> addresses;
    for (const QHostAddress &address : QNetworkInterface::allAddresses()) {
        if (address.protocol() == QAbstractSocket::IPv4Protocol && !address.isLoopback())
            addresses.append(address);
    }
    return addresses;
}

} // namespace

class TestVmDaemon final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();

    void neverSelectingVmFetchesNothing();
    void sourceDownIsAClearError();
    void tamperedHelperIsRefusedAndDeleted();
    void fetchProgressIsLiveAndTamperedForwarderRefused();
    void firstActivationFetchesVerifiesAndBoots();
    void commandsRunInTheGuest();
    void stdinSignalsTimeoutAndKill();
    void concurrentCommands();
    void workspaceSharedDeniedAbsentTmpPrivate();
    void networkNoneHasNoDeviceAndUnusableFullEntriesRefused();
    void seccompRefusalsAreReported();
    void escapesFromTheGuestFail();
    void repositoryFilesAreRefusedAtTheWrite();
    void hotSwitchKeepsRunningCommandsAndReusesHelpers();
    void allowlistReachesOnlyTheProxy();
    void allowlistProxyVariablesOverrideTheRequest();
    void fullNetworkReachesNeitherTheHostNorInternalAddresses();
    void engineKilledWithSigkillTakesItsVmsWithIt();

private:
    // Writes the current policy with network `mode` and these domain lists to a file for --policy.
    QString policyFile(const QString &name, const QString &mode, const QStringList &allowed,
                       const QStringList &denied = {});
    QProcessEnvironment environment(const QString &profile) const;
    void startDaemon(const QString &profile);
    void stopDaemon();
    Outcome ctl(const QStringList &args, const QByteArray &input = {}, int timeoutMs = kSlowMs);
    std::unique_ptr<QProcess> startCtl(const QStringList &args);
    int requests();
    QByteArray daemonLog();
    QJsonArray running(const QString &program);
    QString vmBin(const QString &profile) const;

    std::unique_ptr<QTemporaryDir> m_root;
    std::unique_ptr<QProcess> m_http;
    QByteArray m_httpLog;
    quint16 m_port = 0;
    std::unique_ptr<QProcess> m_daemon;
    QByteArray m_daemonLog;
    QString m_profile;
    QString m_socket;
    QList<qint64> m_vms; // QEMU processes the daemons ran
    QList<qint64> m_slirps; // slirp4netns processes they ran
};

QString TestVmDaemon::policyFile(const QString &name, const QString &mode, const QStringList &allowed,
                                 const QStringList &denied)
{
    QJsonObject policy = QJsonDocument::fromJson(
                             ctl({ QStringLiteral("policy"), QStringLiteral("show"), QStringLiteral("--json") }).out)
                             .object();
    QJsonObject network = policy.value(QStringLiteral("network")).toObject();
    network.insert(QStringLiteral("mode"), mode);
    network.insert(QStringLiteral("allowedDomains"), QJsonArray::fromStringList(allowed));
    network.insert(QStringLiteral("deniedDomains"), QJsonArray::fromStringList(denied));
    policy.insert(QStringLiteral("network"), network);
    const QString file = m_root->filePath(QStringLiteral("policy-%1.json").arg(name));
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly) || out.write(QJsonDocument(policy).toJson()) <= 0)
        return QString();
    return file;
}

QProcessEnvironment TestVmDaemon::environment(const QString &profile) const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SANDBOX_CONFIG_DIR"), m_root->filePath(profile + QStringLiteral("/config")));
    env.insert(QStringLiteral("SANDBOX_STATE_DIR"), m_root->filePath(profile + QStringLiteral("/state")));
    return env;
}

// The server logs each request before it answers it, so what a finished client caused is
// already in the pipe.
int TestVmDaemon::requests()
{
    while (m_http->waitForReadyRead(50)) { }
    m_httpLog += m_http->readAll();
    return int(m_httpLog.count("\"GET /"));
}

QByteArray TestVmDaemon::daemonLog()
{
    if (m_daemon) {
        m_daemon->waitForReadyRead(50);
        m_daemonLog += m_daemon->readAllStandardError();
    }
    return m_daemonLog;
}

QJsonArray TestVmDaemon::running(const QString &program)
{
    QJsonArray matching;
    const QJsonArray all = QJsonDocument::fromJson(ctl({ QStringLiteral("ps"), QStringLiteral("--json") }).out).array();
    for (const QJsonValue &entry : all) {
        const QJsonObject process = entry.toObject();
        if (process.value(QStringLiteral("state")).toString() == QLatin1String("running")
            && process.value(QStringLiteral("argv")).toArray().first().toString() == program)
            matching.append(process);
    }
    return matching;
}

QString TestVmDaemon::vmBin(const QString &profile) const
{
    return m_root->filePath(profile + QStringLiteral("/state/backends/builtin_vm/bin"));
}

void TestVmDaemon::startDaemon(const QString &profile)
{
    stopDaemon();
    m_profile = profile;
    QVERIFY(QDir().mkpath(m_root->filePath(profile + QStringLiteral("/run"))));
    QFile::setPermissions(m_root->filePath(profile + QStringLiteral("/run")),
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    m_socket = m_root->filePath(profile + QStringLiteral("/run/engine.sock"));
    m_daemonLog.clear();
    m_daemon = std::make_unique<QProcess>();
    sandbox::test::startSandboxd(*m_daemon, environment(profile), m_socket, m_daemonLog);
}

void TestVmDaemon::stopDaemon()
{
    if (m_daemon && m_daemon->state() != QProcess::NotRunning) {
        m_vms += qemuChildrenOf(m_daemon->processId());
        m_slirps += childrenOf(m_daemon->processId(), isSlirp);
        sandbox::test::stopGracefully(*m_daemon);
    }
    m_daemon.reset();
}

Outcome TestVmDaemon::ctl(const QStringList &args, const QByteArray &input, int timeoutMs)
{
    const Outcome outcome = sandbox::test::runProgram(
        binary(QStringLiteral("sandboxctl")), QStringList{ QStringLiteral("--socket"), m_socket } + args,
        m_root->filePath(QStringLiteral("work")), input, timeoutMs, environment(m_profile));
    if (outcome.exitCode == 125) // sandboxctl's own error: say which, whatever the test expects
        qWarning("sandboxctl %s: %s", qPrintable(args.join(QLatin1Char(' '))), outcome.err.constData());
    return outcome;
}

std::unique_ptr<QProcess> TestVmDaemon::startCtl(const QStringList &args)
{
    auto process = std::make_unique<QProcess>();
    process->setProcessEnvironment(environment(m_profile));
    process->setWorkingDirectory(m_root->filePath(QStringLiteral("work")));
    process->start(binary(QStringLiteral("sandboxctl")), QStringList{ QStringLiteral("--socket"), m_socket } + args);
    return process;
}

void TestVmDaemon::initTestCase()
{
    QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("qemu-system-x86_64")).isEmpty(),
             "qemu-system-x86_64 is missing: run installer/install-deps.sh test");
    // Outside /tmp: the guest's /tmp is its own, and the host paths under test must be
    // ones the policy shares (or denies).
    m_root = std::make_unique<QTemporaryDir>(QStringLiteral("/var/tmp/tst_vmdaemon-XXXXXX"));
    QVERIFY(m_root->isValid());
    const QDir root(m_root->path());
    QVERIFY(root.mkpath(QStringLiteral("work")));
    QVERIFY(root.mkpath(QStringLiteral("served/good")));
    QVERIFY(root.mkpath(QStringLiteral("served/tampered")));
    QVERIFY(root.mkpath(QStringLiteral("private/inner")));
    QVERIFY(root.mkpath(QStringLiteral("public")));
    QFile secret(m_root->filePath(QStringLiteral("private/inner/key")));
    QVERIFY(secret.open(QIODevice::WriteOnly) && secret.write("secret-bytes") > 0);
    secret.close();
    QFile visible(m_root->filePath(QStringLiteral("public/readme")));
    QVERIFY(visible.open(QIODevice::WriteOnly) && visible.write("public-bytes\n") > 0);
    visible.close();

    // What the release's download location would hold, and a copy someone tampered with.
    const QString bundle = QStringLiteral(SANDBOX_VM_BUNDLE_DIR);
    for (const char *name : { "sandbox-vm-agent", "sandbox-vm-gate", "sandbox-vm-gvforwarder" }) {
        const QString helper = QString::fromLatin1(name);
        QVERIFY2(
            QFile::copy(bundle + QLatin1Char('/') + helper, m_root->filePath(QStringLiteral("served/good/") + helper)),
            name);
        QByteArray content = readFile(bundle + QLatin1Char('/') + helper);
        if (helper == QLatin1String("sandbox-vm-agent"))
            content.append("tampered");
        QFile tampered(m_root->filePath(QStringLiteral("served/tampered/") + helper));
        QVERIFY(tampered.open(QIODevice::WriteOnly) && tampered.write(content) == content.size());
    }

    m_http = std::make_unique<QProcess>();
    m_http->setProcessChannelMode(QProcess::MergedChannels);
    connect(m_http.get(), &QProcess::readyRead, this, [this] { m_httpLog += m_http->readAll(); });
    m_http->start(QStringLiteral("python3"),
                  { QStringLiteral("-u"), QStringLiteral("-m"), QStringLiteral("http.server"), QStringLiteral("--bind"),
                    QStringLiteral("127.0.0.1"), QStringLiteral("--directory"),
                    m_root->filePath(QStringLiteral("served")), QStringLiteral("0") });
    QVERIFY(m_http->waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(m_httpLog.contains("Serving HTTP"), 20000);
    const QRegularExpressionMatch port
        = QRegularExpression(QStringLiteral("port (\\d+)")).match(QString::fromUtf8(m_httpLog));
    QVERIFY(port.hasMatch());
    m_port = quint16(port.captured(1).toUInt());
}

void TestVmDaemon::cleanupTestCase()
{
    stopDaemon();
    if (m_http) {
        m_http->kill();
        m_http->waitForFinished();
    }
    // Every VM ended with its engine.
    QVERIFY(!m_vms.isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(stillRunning(m_vms), 0, 30000);
    // And the network full VM's way out with it.
    QVERIFY(!m_slirps.isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(stillRunning(m_slirps, isSlirp), 0, 30000);
}

void TestVmDaemon::neverSelectingVmFetchesNothing()
{
    startDaemon(QStringLiteral("never"));
    const QString source = QStringLiteral("http://127.0.0.1:%1/good/").arg(m_port);
    QCOMPARE(ctl({ QStringLiteral("settings"), QStringLiteral("set"), QStringLiteral("builtin:vm"),
                   QStringLiteral("helperSource=") + source })
                 .exitCode,
             0);
    QCOMPARE(ctl({ QStringLiteral("activate"), QStringLiteral("builtin:auto") }).exitCode, 0);
    const Outcome run = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("true") });
    QCOMPARE(run.exitCode, 0);
    const Outcome listing = ctl({ QStringLiteral("backends"), QStringLiteral("--json") });
    QCOMPARE(listing.exitCode, 0);
    QVERIFY(listing.out.contains("builtin"));
    stopDaemon();
    QCOMPARE(requests(), 0);
    QVERIFY(!QFileInfo::exists(vmBin(QStringLiteral("never"))));
}

void TestVmDaemon::sourceDownIsAClearError()
{
    startDaemon(QStringLiteral("down"));
    QTcpServer closed;
    QVERIFY(closed.listen(QHostAddress::LocalHost));
    const quint16 deadPort = closed.serverPort();
    closed.close();
    const QString source = QStringLiteral("http://127.0.0.1:%1/good/").arg(deadPort);
    QCOMPARE(ctl({ QStringLiteral("settings"), QStringLiteral("set"), QStringLiteral("builtin:vm"),
                   QStringLiteral("helperSource=") + source })
                 .exitCode,
             0);
    const Outcome activation = ctl({ QStringLiteral("activate"), QStringLiteral("builtin:vm") });
    QCOMPARE(activation.exitCode, 1);
    const QByteArray all = activation.out + activation.err;
    QVERIFY2(all.contains("cannot fetch the helper sandbox-vm-agent from http://127.0.0.1:"), all.constData());
    QVERIFY2(all.contains("Connection refused"), all.constData());
    const Outcome status = ctl({ QStringLiteral("status"), QStringLiteral("--json") });
    QVERIFY2(!status.out.contains("\"builtin:vm\""), status.out.constData());
    QVERIFY(!QFileInfo::exists(vmBin(QStringLiteral("down")) + QStringLiteral("/sandbox-vm-agent")));
}

void TestVmDaemon::tamperedHelperIsRefusedAndDeleted()
{
    startDaemon(QStringLiteral("tampered"));
    const int before = requests();
    const QString source = QStringLiteral("http://127.0.0.1:%1/tampered/").arg(m_port);
    QCOMPARE(ctl({ QStringLiteral("settings"), QStringLiteral("set"), QStringLiteral("builtin:vm"),
                   QStringLiteral("helperSource=") + source })
                 .exitCode,
             0);
    const Outcome activation = ctl({ QStringLiteral("activate"), QStringLiteral("builtin:vm") });
    QCOMPARE(activation.exitCode, 1);
    const QByteArray all = activation.out + activation.err;
    const QByteArray served = readFile(m_root->filePath(QStringLiteral("served/tampered/sandbox-vm-agent")));
    const QByteArray genuine = readFile(m_root->filePath(QStringLiteral("served/good/sandbox-vm-agent")));
    QVERIFY2(all.contains("sandbox-vm-agent"), all.constData());
    QVERIFY2(all.contains(sha256Of(served).toLatin1()), all.constData());
    QVERIFY2(all.contains(sha256Of(genuine).toLatin1()), all.constData());
    QVERIFY(requests() > before);
    QVERIFY(!QFileInfo::exists(vmBin(QStringLiteral("tampered")) + QStringLiteral("/sandbox-vm-agent")));
    QVERIFY(qemuChildrenOf(m_daemon->processId()).isEmpty());
}

void TestVmDaemon::fetchProgressIsLiveAndTamperedForwarderRefused()
{
    startDaemon(QStringLiteral("progress"));
    // A helper server that sends the forwarder's first half, then waits: the progress of
    // that download must reach the client while it is still under way. The rest it then
    // sends is not what the release pins.
    const QString bundle = QStringLiteral(SANDBOX_VM_BUNDLE_DIR);
    const QByteArray genuine = readFile(bundle + QStringLiteral("/sandbox-vm-gvforwarder"));
    QByteArray tampered = genuine;
    tampered[tampered.size() / 2 + 10] = char(tampered.at(tampered.size() / 2 + 10) ^ 0x20);
    QVERIFY(genuine.size() > 1000);
    QTcpServer server;
    QVERIFY(server.listen(QHostAddress::LocalHost));
    QTcpSocket *stalled = nullptr;
    QByteArray rest;
    connect(&server, &QTcpServer::newConnection, this, [&] {
        while (QTcpSocket *socket = server.nextPendingConnection()) {
            auto request = std::make_shared<QByteArray>();
            connect(socket, &QTcpSocket::readyRead, socket, [&, socket, request] {
                *request += socket->readAll();
                if (!request->contains("\r\n\r\n"))
                    return;
                const QByteArray path = request->split(' ').value(1);
                const QByteArray name = path.mid(path.lastIndexOf('/') + 1);
                const bool forwarder = name == "sandbox-vm-gvforwarder";
                const QByteArray body
                    = forwarder ? tampered : readFile(bundle + QLatin1Char('/') + QString::fromLatin1(name));
                socket->write("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: "
                              + QByteArray::number(body.size()) + "\r\n\r\n");
                if (forwarder) {
                    socket->write(body.left(body.size() / 2));
                    rest = body.mid(body.size() / 2);
                    stalled = socket;
                } else {
                    socket->write(body);
                    socket->disconnectFromHost();
                }
            });
        }
    });
    QCOMPARE(ctl({ QStringLiteral("settings"), QStringLiteral("set"), QStringLiteral("builtin:vm"),
                   QStringLiteral("helperSource=http://127.0.0.1:%1/").arg(server.serverPort()) })
                 .exitCode,
             0);
    auto activation = startCtl({ QStringLiteral("activate"), QStringLiteral("builtin:vm") });
    QByteArray out;
    const QRegularExpression partial(
        QStringLiteral("prepare +started: fetching sandbox-vm-gvforwarder: (\\d+) of (\\d+) bytes"));
    QRegularExpressionMatch match;
    const bool seen = QTest::qWaitFor(
        [&] {
            return (match = partial.match(QString::fromUtf8(out += activation->readAllStandardOutput()))).hasMatch();
        },
        20000);
    QVERIFY2(seen, QByteArray(out + "\n--\n" + daemonLog()).constData());
    QVERIFY(stalled);
    QVERIFY2(match.captured(1).toLongLong() < match.captured(2).toLongLong(), out.constData());
    QCOMPARE(match.captured(2).toLongLong(), qint64(genuine.size()));
    QCOMPARE(activation->state(), QProcess::Running);
    // The other helpers' fetches were reported as they happened, too.
    QVERIFY2(out.contains("prepare          started: fetching sandbox-vm-agent from http://127.0.0.1:"),
             out.constData());

    stalled->write(rest);
    stalled->disconnectFromHost();
    // The event loop runs meanwhile: it is what sends the rest.
    QTRY_COMPARE_WITH_TIMEOUT(activation->state(), QProcess::NotRunning, kSlowMs);
    out += activation->readAllStandardOutput();
    const QByteArray all = out + activation->readAllStandardError();
    QCOMPARE(activation->exitCode(), 1);
    QVERIFY2(all.contains("the helper sandbox-vm-gvforwarder from http://127.0.0.1:"), all.constData());
    QVERIFY2(all.contains(sha256Of(tampered).toLatin1()), all.constData());
    QVERIFY2(all.contains(sha256Of(genuine).toLatin1()), all.constData());
    QVERIFY(!QFileInfo::exists(vmBin(QStringLiteral("progress")) + QStringLiteral("/sandbox-vm-gvforwarder")));
    QVERIFY(QFileInfo::exists(vmBin(QStringLiteral("progress")) + QStringLiteral("/sandbox-vm-agent")));
    QVERIFY(qemuChildrenOf(m_daemon->processId()).isEmpty());
}

void TestVmDaemon::firstActivationFetchesVerifiesAndBoots()
{
    startDaemon(QStringLiteral("d"));
    // The denied directory and its parent's other contents, for the filesystem checks.
    QJsonObject policy = QJsonDocument::fromJson(
                             ctl({ QStringLiteral("policy"), QStringLiteral("show"), QStringLiteral("--json") }).out)
                             .object();
    QVERIFY(!policy.isEmpty());
    QJsonObject filesystem = policy.value(QStringLiteral("filesystem")).toObject();
    QJsonArray denied = filesystem.value(QStringLiteral("denied")).toArray();
    denied.append(m_root->filePath(QStringLiteral("private")));
    filesystem.insert(QStringLiteral("denied"), denied);
    policy.insert(QStringLiteral("filesystem"), filesystem);
    QCOMPARE(
        ctl({ QStringLiteral("policy"), QStringLiteral("set"), QStringLiteral("-") }, QJsonDocument(policy).toJson())
            .exitCode,
        0);

    const int before = requests();
    const QString source = QStringLiteral("http://127.0.0.1:%1/good/").arg(m_port);
    QCOMPARE(ctl({ QStringLiteral("settings"), QStringLiteral("set"), QStringLiteral("builtin:vm"),
                   QStringLiteral("helperSource=") + source })
                 .exitCode,
             0);
    const Outcome activation = ctl({ QStringLiteral("activate"), QStringLiteral("builtin:vm") });
    QVERIFY2(activation.exitCode == 0, QByteArray(activation.out + activation.err).constData());
    QVERIFY(activation.out.contains("activated builtin:vm"));
    QCOMPARE(requests() - before, 3);
    const QFileInfo bin(vmBin(QStringLiteral("d")));
    QVERIFY(bin.isDir());
    QCOMPARE(bin.permissions()
                 & (QFileDevice::ReadGroup | QFileDevice::ReadOther | QFileDevice::WriteGroup | QFileDevice::WriteOther
                    | QFileDevice::ExeGroup | QFileDevice::ExeOther),
             QFileDevice::Permissions());
    QCOMPARE(readFile(bin.filePath() + QStringLiteral("/sandbox-vm-agent")),
             readFile(m_root->filePath(QStringLiteral("served/good/sandbox-vm-agent"))));
    // The claims say what runs the VM.
    const Outcome described
        = ctl({ QStringLiteral("describe"), QStringLiteral("builtin:vm"), QStringLiteral("--json") });
    QVERIFY2(described.out.contains("QEMU with"), described.out.constData());
    QVERIFY(described.out.contains("no network device"));
}

void TestVmDaemon::commandsRunInTheGuest()
{
    const Outcome run = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                              QStringLiteral("echo out; echo err >&2; uname -r; exit 7") });
    QVERIFY2(run.exitCode == 7, QByteArray(QByteArray::number(run.exitCode) + ' ' + run.err).constData());
    QVERIFY2(run.out.startsWith("out\n"), run.out.constData());
    QVERIFY(run.err.contains("err\n"));
    // The guest's own kernel, not the host's.
    QVERIFY2(run.out.contains("6.1."), run.out.constData());
    QVERIFY(!run.out.contains(QSysInfo::kernelVersion().toUtf8())
            || QSysInfo::kernelVersion().startsWith(QLatin1String("6.1.")));
    // Host programs from the read-only share run on the guest kernel.
    const Outcome hostTool
        = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/usr/bin/env"), QStringLiteral("printf"),
                QStringLiteral("%s|"), QStringLiteral("a b"), QStringLiteral("c") });
    QCOMPARE(hostTool.exitCode, 0);
    QCOMPARE(hostTool.out, QByteArray("a b|c|"));
    const Outcome missing = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/no/such/program") });
    QVERIFY(missing.exitCode != 0);
    QVERIFY2(missing.err.contains("/no/such/program"), missing.err.constData());
}

void TestVmDaemon::stdinSignalsTimeoutAndKill()
{
    const Outcome piped = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                                QStringLiteral("read a; read b; echo \"got $b/$a\"; cat | wc -c") },
                              QByteArray("first\nsecond\n") + QByteArray(100000, 'x'));
    QCOMPARE(piped.exitCode, 0);
    QCOMPARE(piped.out, QByteArray("got second/first\n100000\n"));

    const Outcome signaled = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"),
                                   QStringLiteral("-c"), QStringLiteral("kill -TERM $$") });
    QVERIFY2(signaled.exitCode == 128 + SIGTERM,
             QByteArray(QByteArray::number(signaled.exitCode) + ' ' + signaled.err).constData());

    const Outcome timedOut = ctl({ QStringLiteral("run"), QStringLiteral("--timeout"), QStringLiteral("2"),
                                   QStringLiteral("--"), QStringLiteral("sleep"), QStringLiteral("600") });
    QCOMPARE(timedOut.exitCode, 128 + SIGKILL);
    QVERIFY2(timedOut.err.contains("timed out"), timedOut.err.constData());

    auto sleeper
        = startCtl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sleep"), QStringLiteral("600") });
    QJsonArray list;
    QTRY_VERIFY_WITH_TIMEOUT((list = running(QStringLiteral("sleep"))).size() == 1, 60000);
    const QString id = QString::number(list.first().toObject().value(QStringLiteral("id")).toInteger());
    QCOMPARE(ctl({ QStringLiteral("kill"), id }).exitCode, 0);
    QVERIFY(sleeper->waitForFinished(60000));
    QCOMPARE(sleeper->exitCode(), 128 + SIGKILL);
}

void TestVmDaemon::concurrentCommands()
{
    std::vector<std::unique_ptr<QProcess>> runs;
    for (int i = 0; i < 5; ++i) {
        runs.push_back(
            startCtl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                       QStringLiteral("read line; echo \"client %1 got $line\"; exit %1").arg(i) }));
    }
    for (int i = 0; i < 5; ++i) {
        QVERIFY(runs[size_t(i)]->waitForStarted());
        runs[size_t(i)]->write(QByteArray("line-") + QByteArray::number(i) + '\n');
        runs[size_t(i)]->closeWriteChannel();
    }
    for (int i = 0; i < 5; ++i) {
        QProcess &run = *runs[size_t(i)];
        QVERIFY(run.waitForFinished(120000));
        QCOMPARE(run.exitCode(), i);
        QCOMPARE(run.readAllStandardOutput(),
                 QByteArray("client ") + QByteArray::number(i) + " got line-" + QByteArray::number(i) + '\n');
    }
}

void TestVmDaemon::workspaceSharedDeniedAbsentTmpPrivate()
{
    const Outcome write = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                                QStringLiteral("echo from-guest > made-in-vm.txt && mkdir -p sub && echo x > sub/y") });
    QCOMPARE(write.exitCode, 0);
    QCOMPARE(readFile(m_root->filePath(QStringLiteral("work/made-in-vm.txt"))), QByteArray("from-guest\n"));
    QVERIFY(QFileInfo::exists(m_root->filePath(QStringLiteral("work/sub/y"))));

    const QString privateDir = m_root->filePath(QStringLiteral("private"));
    const Outcome denied
        = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                QStringLiteral("ls %1; cat %1/inner/key; ls %2").arg(privateDir, m_root->path()) });
    QVERIFY(!denied.out.contains("secret-bytes"));
    QVERIFY(!denied.out.contains("inner"));
    QVERIFY2(denied.out.contains("public"), denied.out.constData());

    const QString readme = m_root->filePath(QStringLiteral("public/readme"));
    const Outcome readOnly = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"),
                                   QStringLiteral("-c"), QStringLiteral("cat %1; echo changed > %1").arg(readme) });
    QVERIFY(readOnly.out.contains("public-bytes"));
    QVERIFY(readOnly.exitCode != 0);
    QCOMPARE(readFile(readme), QByteArray("public-bytes\n"));

    // The guest's /tmp is its own: what the host keeps there is not visible, and what the
    // guest writes there stays in the VM.
    QTemporaryDir hostTmp(QDir::tempPath() + QStringLiteral("/vm-host-tmp-XXXXXX"));
    QVERIFY(hostTmp.isValid());
    const QString marker = QStringLiteral("/tmp/vm-guest-marker-%1").arg(QCoreApplication::applicationPid());
    const Outcome tmp = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                              QStringLiteral("ls -d %1; echo guest > %2").arg(hostTmp.path(), marker) });
    QVERIFY2(tmp.err.contains("No such file"), tmp.err.constData());
    QVERIFY(!QFileInfo::exists(marker));
}

void TestVmDaemon::networkNoneHasNoDeviceAndUnusableFullEntriesRefused()
{
    const Outcome devices
        = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("cat"), QStringLiteral("/proc/net/dev") });
    QCOMPARE(devices.exitCode, 0);
    const QList<QByteArray> lines = devices.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 3); // two header lines and lo
    QVERIFY(lines.last().trimmed().startsWith("lo:"));

    // Network full cannot honour these entries: refused before anything boots or runs.
    const QList<std::pair<QString, QByteArray>> unusable{
        { QStringLiteral("127.0.0.1"), "never reaches the host's loopback" },
        { QStringLiteral("192.168.7.7:8080"), "internal address with a port" },
        { QStringLiteral("10.0.3.2"), "the VM's own user-mode networks" },
    };
    int index = 0;
    for (const auto &[entry, reason] : unusable) {
        const QString file = policyFile(QStringLiteral("unusable-%1").arg(index), QStringLiteral("full"),
                                        { QStringLiteral("example.com"), entry });
        QVERIFY(!file.isEmpty());
        const QString marker = QStringLiteral("ran-under-unusable-%1").arg(index++);
        const Outcome refused = ctl({ QStringLiteral("run"), QStringLiteral("--policy"), file, QStringLiteral("--"),
                                      QStringLiteral("touch"), marker });
        QCOMPARE(refused.exitCode, 125);
        QVERIFY2(refused.err.contains(reason) && refused.err.contains(entry.toUtf8()), refused.err.constData());
        QVERIFY(!QFileInfo::exists(m_root->filePath(QStringLiteral("work/") + marker)));
    }
}

void TestVmDaemon::seccompRefusalsAreReported()
{
    const Outcome mount = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                                QStringLiteral("mkdir -p /tmp/m; mount -t tmpfs none /tmp/m && echo mounted; "
                                               "umount %1 && echo unmounted; echo done")
                                    .arg(m_root->filePath(QStringLiteral("work"))) });
    QCOMPARE(mount.exitCode, 0);
    QVERIFY(!mount.out.contains("mounted"));
    QVERIFY(mount.out.contains("done"));
    QVERIFY2(mount.err.contains("refused the system call mount"), mount.err.constData());
    QVERIFY2(mount.err.contains("refused the system call umount2"), mount.err.constData());
    QVERIFY2(daemonLog().contains("refused the system call mount"), m_daemonLog.constData());

    // The same refusals are events, tied to the command and the VM backend.
    const Outcome events = ctl({ QStringLiteral("events"), QStringLiteral("--json") });
    QCOMPARE(events.exitCode, 0);
    QStringList syscalls;
    for (const QJsonValue &value : QJsonDocument::fromJson(events.out).array()) {
        const QJsonObject refusal = value.toObject();
        if (refusal.value(QStringLiteral("kind")).toString() != QLatin1String("syscall"))
            continue;
        syscalls.append(refusal.value(QStringLiteral("what")).toString());
        QVERIFY2(refusal.value(QStringLiteral("rule")).toString().startsWith(QStringLiteral("seccomp: ")),
                 qPrintable(refusal.value(QStringLiteral("rule")).toString()));
        QVERIFY(refusal.value(QStringLiteral("processId")).toInteger() > 0);
        QVERIFY(refusal.value(QStringLiteral("command")).toString().startsWith(QStringLiteral("sh -c ")));
        QCOMPARE(refusal.value(QStringLiteral("ref")).toString(), QStringLiteral("builtin:vm"));
    }
    QVERIFY2(syscalls.contains(QStringLiteral("mount")) && syscalls.contains(QStringLiteral("umount2")),
             events.out.constData());
}

void TestVmDaemon::escapesFromTheGuestFail()
{
    // A symlink in the workspace to a denied file resolves inside the guest, where it is absent.
    const QString key = m_root->filePath(QStringLiteral("private/inner/key"));
    QVERIFY(QFile::link(key, m_root->filePath(QStringLiteral("work/to-key"))));
    const Outcome link
        = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("cat"), QStringLiteral("to-key") });
    QVERIFY(link.exitCode != 0);
    QVERIFY(!link.out.contains("secret-bytes"));

    // A read-only share stays read-only: remounting is refused, and QEMU exports it read-only.
    const QString readme = m_root->filePath(QStringLiteral("public/readme"));
    const Outcome remount
        = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                QStringLiteral("mount -o remount,rw %1; echo tampered >> %2; echo end")
                    .arg(m_root->filePath(QStringLiteral("public")), readme) });
    QVERIFY(remount.out.contains("end"));
    QCOMPARE(readFile(readme), QByteArray("public-bytes\n"));

    // The engine's own socket is in a shared directory, yet nothing of the host answers on it.
    const QString connect
        = QStringLiteral("import socket\ns = socket.socket(socket.AF_UNIX)\ntry:\n    s.connect(%1)\n"
                         "    print('connected')\nexcept OSError as e:\n    print('refused', e.errno)\n")
              .arg(QStringLiteral("'") + m_socket + QStringLiteral("'"));
    QVERIFY(QFileInfo::exists(m_socket));
    const Outcome socket = ctl(
        { QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("python3"), QStringLiteral("-c"), connect });
    QVERIFY2(socket.out.startsWith("refused"), QByteArray(socket.out + socket.err).constData());

    // Host processes do not exist for the guest: its /proc lists only its own.
    const Outcome processes = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"),
                                    QStringLiteral("-c"), QStringLiteral("cat /proc/[0-9]*/cmdline | tr '\\0' ' '") });
    QCOMPARE(processes.exitCode, 0);
    QVERIFY(processes.out.contains("sandbox-vm-agent") || processes.out.contains("/init"));
    QVERIFY(!processes.out.contains("sandboxd"));
    QVERIFY(!processes.out.contains("qemu-system"));

    // ptrace is refused and reported.
    const Outcome trace
        = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("python3"), QStringLiteral("-c"),
                QStringLiteral("import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
                               "print(libc.ptrace(16, os.getppid(), 0, 0), ctypes.get_errno())\n") });
    QVERIFY2(trace.out.startsWith("-1 1"), QByteArray(trace.out + trace.err).constData());
    QVERIFY(trace.err.contains("refused the system call ptrace"));
}

void TestVmDaemon::repositoryFilesAreRefusedAtTheWrite()
{
    // A repository made on the host, as a user's checkout is.
    const QString repo = m_root->filePath(QStringLiteral("work/repo"));
    QVERIFY(QDir().mkpath(repo));
    const QStringList identity{ QStringLiteral("-c"), QStringLiteral("user.name=Test"), QStringLiteral("-c"),
                                QStringLiteral("user.email=test@example.org") };
    auto hostGit = [&](const QStringList &args) {
        return sandbox::test::runProgram(QStandardPaths::findExecutable(QStringLiteral("git")), identity + args, repo,
                                         {}, kSlowMs)
            .exitCode;
    };
    QCOMPARE(hostGit({ QStringLiteral("init"), QStringLiteral("-q") }), 0);
    QVERIFY(QDir().mkpath(repo + QStringLiteral("/.git/hooks")));
    const QByteArray config = readFile(repo + QStringLiteral("/.git/config"));
    auto inGuest = [&](const QString &script) {
        return ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"), script });
    };

    // Each attempt fails when it is made; nothing of it reaches the host.
    const Outcome plants = inGuest(
        QStringLiteral("cd repo; echo 'touch /tmp/hooked' > .git/hooks/post-checkout || echo hook-refused; "
                       "printf '[core]\\n\\tfsmonitor = touch /tmp/x\\n' >> .git/config || echo config-refused; "
                       "echo /elsewhere > .git/commondir || echo commondir-refused; "
                       "mkdir inner && cd inner && git init -q 2>/dev/null || echo init-refused"));
    for (const char *refused : { "hook-refused", "config-refused", "commondir-refused", "init-refused" })
        QVERIFY2(plants.out.contains(refused),
                 QByteArray(refused + QByteArray(": ") + plants.out + plants.err).constData());
    QVERIFY(!QFileInfo::exists(repo + QStringLiteral("/.git/hooks/post-checkout")));
    QVERIFY(!QFileInfo::exists(repo + QStringLiteral("/.git/commondir")));
    QVERIFY(!QFileInfo::exists(repo + QStringLiteral("/inner/.git")));
    QCOMPARE(readFile(repo + QStringLiteral("/.git/config")), config);

    // Refused at the write by the gate, tied to the command.
    const Outcome events = ctl({ QStringLiteral("events"), QStringLiteral("--json") });
    QStringList written;
    for (const QJsonValue &value : QJsonDocument::fromJson(events.out).array()) {
        const QJsonObject refusal = value.toObject();
        const QString what = refusal.value(QStringLiteral("what")).toString();
        if (refusal.value(QStringLiteral("kind")).toString() == QLatin1String("path") && what.contains(repo)) {
            QVERIFY2(
                refusal.value(QStringLiteral("rule")).toString().startsWith(QStringLiteral("repository protection: ")),
                qPrintable(refusal.value(QStringLiteral("rule")).toString()));
            QCOMPARE(refusal.value(QStringLiteral("ref")).toString(), QStringLiteral("builtin:vm"));
            written.append(what);
        }
    }
    for (const QString &file : { QStringLiteral("/.git/hooks/post-checkout"), QStringLiteral("/.git/config") })
        QVERIFY2(std::any_of(written.cbegin(), written.cend(),
                             [&](const QString &what) { return what.startsWith(repo + file); }),
                 events.out.constData());

    // Ordinary work goes on: the host sees the guest's commit and branch.
    const Outcome work = inGuest(QStringLiteral("cd repo && echo content > file && git add file && "
                                                "git -c user.name=A -c user.email=a@example.org commit -qm guest && "
                                                "git branch topic && echo committed"));
    QVERIFY2(work.out.contains("committed"), QByteArray(work.out + work.err).constData());
    QCOMPARE(hostGit({ QStringLiteral("rev-parse"), QStringLiteral("--verify"), QStringLiteral("-q"),
                       QStringLiteral("topic") }),
             0);

    // Neither the gate nor the guest's agent can be rewritten, traced or swapped for the next command.
    const Outcome tamper = inGuest(QStringLiteral(
        "echo boot-$(cat /proc/sys/kernel/random/boot_id); "
        "echo x >> /.sandbox/sandbox-vm-gate || echo gate-refused; "
        "dd if=/proc/$PPID/mem of=/dev/null bs=1 count=1 2>&1 | grep -q 'Permission denied' && echo "
        "gate-memory-refused; "
        "dd if=/proc/1/mem of=/dev/null bs=1 count=1 2>&1 | grep -q 'Permission denied' && echo agent-memory-refused; "
        "cat /proc/1/environ >/dev/null 2>&1 || echo agent-environment-refused; "
        "kill -STOP $PPID 2>/dev/null || echo gate-signal-refused; "
        "mknod /tmp/port c 1 4 2>/dev/null || echo mknod-refused; "
        "f=/sys/kernel/mm/transparent_hugepage/enabled; test -e $f && { echo never > $f 2>/dev/null || echo "
        "sysfs-refused; }; "
        "mv /.sandbox /.sandbox-moved && mkdir /.sandbox && printf '#!/bin/sh\\nshift 99; exec \"$@\"\\n' > "
        "/.sandbox/sandbox-vm-gate && chmod +x /.sandbox/sandbox-vm-gate && echo swapped"));
    for (const char *refused :
         { "gate-refused", "gate-memory-refused", "agent-memory-refused", "agent-environment-refused",
           "gate-signal-refused", "mknod-refused", "sysfs-refused", "swapped" })
        QVERIFY2(tamper.out.contains(refused),
                 QByteArray(refused + QByteArray(": ") + tamper.out + tamper.err).constData());
    // The guarded roots are known by path: neither the workspace nor a directory holding it moves.
    const Outcome moved = inGuest(
        QStringLiteral(
            "mv %1 %1-moved 2>/dev/null || echo root-refused; mv %2 %2-moved 2>/dev/null || echo parent-refused")
            .arg(m_root->filePath(QStringLiteral("work")), m_root->path()));
    QVERIFY2(moved.out.contains("root-refused") && moved.out.contains("parent-refused"),
             QByteArray(moved.out + moved.err).constData());
    // Refused by the gate itself, before any file system could say no.
    const QByteArray log = ctl({ QStringLiteral("events"), QStringLiteral("--json") }).out;
    QVERIFY2(log.contains(QString(m_root->path() + QStringLiteral(" (holds a writable path")).toUtf8()),
             log.constData());
    const Outcome after = inGuest(QStringLiteral("echo boot-$(cat /proc/sys/kernel/random/boot_id); "
                                                 "echo x > repo/.git/hooks/pre-push || echo still-refused; "
                                                 "rm -rf /.sandbox && mv /.sandbox-moved /.sandbox && echo restored"));
    QVERIFY2(after.out.contains("still-refused"), QByteArray(after.out + after.err).constData());
    // The swapped gate was in place for this command when it ran in the same VM; under
    // parallel load a change of the host's folders may make the engine boot another VM (whose
    // /.sandbox is untouched, so there is nothing to restore).
    const auto bootOf = [](const QByteArray &out) { return out.mid(out.indexOf("boot-"), 41); };
    if (bootOf(after.out) == bootOf(tamper.out))
        QVERIFY2(after.out.contains("restored"), QByteArray(after.out + after.err).constData());
    QVERIFY(!QFileInfo::exists(repo + QStringLiteral("/.git/hooks/pre-push")));
}

void TestVmDaemon::hotSwitchKeepsRunningCommandsAndReusesHelpers()
{
    auto inVm = startCtl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                           QStringLiteral("read x; echo vm-$x; uname -r") });
    QTRY_VERIFY_WITH_TIMEOUT(running(QStringLiteral("sh")).size() == 1, 60000);
    QCOMPARE(ctl({ QStringLiteral("activate"), QStringLiteral("builtin:auto") }).exitCode, 0);
    auto inAuto = startCtl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                             QStringLiteral("read x; echo auto-$x; uname -r") });
    QVERIFY(inAuto->waitForStarted());
    const int before = requests();
    // Back to vm while the auto command runs: the helpers are verified again, not fetched.
    const Outcome again = ctl({ QStringLiteral("activate"), QStringLiteral("builtin:vm") });
    QVERIFY2(again.exitCode == 0, QByteArray(again.out + again.err).constData());
    QCOMPARE(requests(), before);

    inVm->write("one\n");
    inVm->closeWriteChannel();
    inAuto->write("two\n");
    inAuto->closeWriteChannel();
    QVERIFY(inVm->waitForFinished(120000));
    QVERIFY(inAuto->waitForFinished(120000));
    const QByteArray vmOut = inVm->readAllStandardOutput();
    const QByteArray autoOut = inAuto->readAllStandardOutput();
    QVERIFY2(vmOut.startsWith("vm-one\n6.1."), vmOut.constData());
    QVERIFY2(autoOut.startsWith(QByteArray("auto-two\n" + QSysInfo::kernelVersion().toUtf8())), autoOut.constData());
    // The next function's commands are the first of the VM activated again.
}

void TestVmDaemon::allowlistReachesOnlyTheProxy()
{
    // A second server: a port the policy does not name, with something listening on it.
    QProcess other;
    other.setProcessChannelMode(QProcess::MergedChannels);
    QByteArray otherLog;
    other.start(QStringLiteral("python3"),
                { QStringLiteral("-u"), QStringLiteral("-m"), QStringLiteral("http.server"), QStringLiteral("--bind"),
                  QStringLiteral("127.0.0.1"), QStringLiteral("--directory"),
                  m_root->filePath(QStringLiteral("served")), QStringLiteral("0") });
    QVERIFY(other.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT((otherLog += other.readAll()).contains("Serving HTTP"), 20000);
    const QRegularExpressionMatch otherPort
        = QRegularExpression(QStringLiteral("port (\\d+)")).match(QString::fromUtf8(otherLog));
    QVERIFY(otherPort.hasMatch());
    QString hostAddress;
    for (const QHostAddress &address : QNetworkInterface::allAddresses()) {
        if (address.protocol() == QAbstractSocket::IPv4Protocol && !address.isLoopback())
            hostAddress = address.toString();
    }
    if (hostAddress.isEmpty())
        hostAddress = QStringLiteral("10.0.2.2");

    // What the guest fetches: a marker, and a file large enough to need many windows.
    QByteArray large(3 * 1024 * 1024 + 17, Qt::Uninitialized);
    for (qsizetype i = 0; i < large.size(); ++i)
        large[i] = char((i * 7919) >> 5);
    QFile largeFile(m_root->filePath(QStringLiteral("served/large.bin")));
    QVERIFY(largeFile.open(QIODevice::WriteOnly) && largeFile.write(large) == large.size());
    largeFile.close();
    QFile marker(m_root->filePath(QStringLiteral("served/marker.txt")));
    QVERIFY(marker.open(QIODevice::WriteOnly) && marker.write("reached-through-proxy\n") > 0);
    marker.close();

    QJsonObject policy = QJsonDocument::fromJson(
                             ctl({ QStringLiteral("policy"), QStringLiteral("show"), QStringLiteral("--json") }).out)
                             .object();
    QJsonObject network = policy.value(QStringLiteral("network")).toObject();
    network.insert(QStringLiteral("mode"), QStringLiteral("allowlist"));
    network.insert(QStringLiteral("allowedDomains"), QJsonArray{ QStringLiteral("localhost:%1").arg(m_port) });
    network.insert(QStringLiteral("deniedDomains"), QJsonArray());
    policy.insert(QStringLiteral("network"), network);
    const Outcome set
        = ctl({ QStringLiteral("policy"), QStringLiteral("set"), QStringLiteral("-") }, QJsonDocument(policy).toJson());
    QVERIFY2(set.exitCode == 0, QByteArray(set.out + set.err).constData());

    const QString probe = QString::fromUtf8(readFile(QStringLiteral(SANDBOX_VM_TEST_DIR "/allowlist-probe.py")));
    QVERIFY(!probe.isEmpty());
    const Outcome run
        = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("python3"), QStringLiteral("-c"), probe,
                QString::number(m_port), otherPort.captured(1), hostAddress });
    const QByteArray all = run.out + run.err;
    QVERIFY2(run.exitCode == 0, all.constData());
    QMap<QByteArray, QByteArray> seen;
    for (const QByteArray &line : run.out.split('\n')) {
        const qsizetype space = line.indexOf(' ');
        if (space > 0)
            seen.insert(line.left(space), line.mid(space + 1));
    }
    // The proxy variables point at the forwarder, whatever the request said.
    QCOMPARE(seen.value("env"), QByteArray("http://127.0.0.1:3128 http://127.0.0.1:3128 socks5h://127.0.0.1:3128"));
    // The allowed name and port, through the proxy; many windows' worth, four at once.
    QCOMPARE(seen.value("allowed"), QByteArray("ok 200 reached-through-proxy"));
    QCOMPARE(seen.value("large"), QByteArray("ok 200 ") + sha256Of(large).toLatin1());
    QVERIFY2(seen.value("tunnel").startsWith("HTTP/1.1 200") && seen.value("tunnel").endsWith("| marker"),
             all.constData());
    // A client that half-closes after its request still gets the answer.
    QCOMPARE(seen.value("halfclose"), QByteArray("HTTP/1.1 200 Connection established | marker"));
    QCOMPARE(seen.value("socks"), QByteArray("granted | marker"));
    // Everything else is refused by the proxy.
    QCOMPARE(seen.value("socksother"), QByteArray("refused 2"));
    QCOMPARE(seen.value("othername"), QByteArray("http 403"));
    QCOMPARE(seen.value("literal"), QByteArray("http 403"));
    QCOMPARE(seen.value("otherport"), QByteArray("http 403"));
    QVERIFY2(seen.value("connectliteral").startsWith("HTTP/1.1 403"), all.constData());
    QVERIFY2(seen.value("connectother").startsWith("HTTP/1.1 403"), all.constData());
    QVERIFY2(seen.value("garbage").startsWith("closed"), all.constData());
    // And there is no other way out: no device but loopback, the guest's loopback its own.
    QCOMPARE(seen.value("directloopback"), QByteArray("failed ConnectionRefusedError"));
    QVERIFY2(seen.value("directhost").startsWith("failed"), all.constData());
    QVERIFY2(seen.value("directgateway").startsWith("failed"), all.constData());
    QVERIFY2(seen.value("udp").startsWith("failed"), all.constData());
    QVERIFY2(seen.value("dns").startsWith("failed"), all.constData());
    QCOMPARE(seen.value("devices"), QByteArray("lo"));
    // The server on the other port never saw a request.
    otherLog += other.readAll();
    QVERIFY2(!otherLog.contains("GET /"), otherLog.constData());
    other.kill();
    other.waitForFinished();

    // No command takes the VM's only way out down for the others: the forwarder is out of a
    // root command's reach, and the next command still gets through.
    const Outcome killer = ctl(
        { QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
          QStringLiteral("for p in /proc/[0-9]*; do if [ \"$(cat $p/comm 2>/dev/null)\" = sandbox-vm-gvfo ]; then "
                         "kill -9 ${p#/proc/} 2>/dev/null && echo killed || echo kill-refused; fi; done") });
    QVERIFY2(killer.out.contains("kill-refused") && !killer.out.contains("killed"),
             QByteArray(killer.out + killer.err).constData());
    const Outcome after
        = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("python3"), QStringLiteral("-c"),
                QStringLiteral("import urllib.request; print(urllib.request.urlopen("
                               "'http://localhost:%1/marker.txt', timeout=60).read().decode())")
                    .arg(m_port) });
    QVERIFY2(after.out.contains("reached-through-proxy"), QByteArray(after.out + after.err).constData());

    // The VM activated again runs it (the guest's kernel).
    const Outcome kernel
        = ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("uname"), QStringLiteral("-r") });
    QCOMPARE(kernel.exitCode, 0);
    QVERIFY(kernel.out.startsWith("6.1."));
}

void TestVmDaemon::allowlistProxyVariablesOverrideTheRequest()
{
    // A request's own proxy variables lose to the engine's: a spawn through the client API,
    // which carries any environment (sandboxctl passes only a few variables).
    QString error;
    std::unique_ptr<sandbox::LocalSocketTransport> transport
        = sandbox::LocalSocketTransport::connectTo(m_socket, 10000, &error);
    QVERIFY2(transport, qPrintable(error));
    sandbox::Client client(std::move(transport));
    sandbox::SpawnRequest request;
    const QStringList names{ QStringLiteral("HTTP_PROXY"),       QStringLiteral("http_proxy"),
                             QStringLiteral("HTTPS_PROXY"),      QStringLiteral("https_proxy"),
                             QStringLiteral("ALL_PROXY"),        QStringLiteral("all_proxy"),
                             QStringLiteral("NO_PROXY"),         QStringLiteral("no_proxy"),
                             QStringLiteral("npm_config_proxy"), QStringLiteral("PIP_PROXY"),
                             QStringLiteral("SANDBOX_PROXY"),    QStringLiteral("REQUEST_OWN") };
    QString script = QStringLiteral("printf '%s|'");
    for (const QString &name : names) {
        script += QStringLiteral(" \"$%1\"").arg(name);
        request.env.insert(name,
                           name == QLatin1String("REQUEST_OWN") ? QStringLiteral("kept")
                               : name.startsWith(QLatin1String("no"), Qt::CaseInsensitive)
                               ? QStringLiteral("*")
                               : QStringLiteral("http://attacker.invalid:9"));
    }
    request.argv = { QStringLiteral("sh"), QStringLiteral("-c"), script };
    request.cwd = m_root->filePath(QStringLiteral("work"));
    std::unique_ptr<sandbox::RemoteProcess> process = client.spawn(request);
    QByteArray printed;
    connect(process.get(), &sandbox::RemoteProcess::stdoutReady, this,
            [&printed](const QByteArray &data) { printed += data; });
    QString startFailure;
    connect(process.get(), &sandbox::RemoteProcess::failedToStart, this,
            [&startFailure](const sandbox::Error &failure) { startFailure = failure.toString(); });
    QSignalSpy finished(process.get(), &sandbox::RemoteProcess::finished);
    process->closeStdin();
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty() || !startFailure.isEmpty(), kSlowMs);
    QVERIFY2(startFailure.isEmpty(), qPrintable(startFailure));
    const QByteArray http = "http://127.0.0.1:3128";
    const QByteArray socks = "socks5h://127.0.0.1:3128";
    QCOMPARE(printed,
             QByteArray(http + '|' + http + '|' + http + '|' + http + '|' + socks + '|' + socks + "|||" + http + '|'
                        + http + '|' + http + "|kept|"));
}

void TestVmDaemon::fullNetworkReachesNeitherTheHostNorInternalAddresses()
{
    QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("slirp4netns")).isEmpty(),
             "slirp4netns is missing: run installer/install-deps.sh test");
    // Servers on the host's loopback and every address of its own, TCP and UDP.
    QTcpServer tcp;
    QVERIFY(tcp.listen(QHostAddress::AnyIPv4));
    QUdpSocket udp;
    QVERIFY(udp.bind(QHostAddress::AnyIPv4, 0));
    const QList<QHostAddress> own = hostAddresses();
    QVERIFY2(!own.isEmpty(), "the host has no IPv4 address but loopback");
    // The host's loopback, the guest's gateway (the VM namespace's loopback), QEMU's and
    // slirp4netns's service addresses, the host's own addresses.
    QStringList targets{ QStringLiteral("127.0.0.1"), QStringLiteral("10.0.2.2"), QStringLiteral("10.0.2.3"),
                         QStringLiteral("10.0.3.2"), QStringLiteral("10.0.3.1") };
    for (const QHostAddress &address : own)
        targets.append(address.toString());
    const QString probe = QString::fromUtf8(readFile(QStringLiteral(SANDBOX_VM_TEST_DIR "/full-network-probe.py")));
    QVERIFY(!probe.isEmpty());
    auto runProbe = [&](const QString &policy) {
        const Outcome run
            = ctl(QStringList{ QStringLiteral("run"), QStringLiteral("--policy"), policy, QStringLiteral("--"),
                               QStringLiteral("python3"), QStringLiteral("-c"), probe,
                               QString::number(tcp.serverPort()), QString::number(udp.localPort()) }
                  + targets);
        QMap<QString, QString> seen;
        for (const QByteArray &line : run.out.split('\n')) {
            const QList<QByteArray> words = line.split(' ');
            if (words.size() >= 4 && words.at(1) == "tcp")
                seen.insert(QString::fromUtf8(words.at(0)), QString::fromUtf8(words.at(2)));
            else if (words.size() >= 2)
                seen.insert(QString::fromUtf8(words.at(0)), QString::fromUtf8(line.mid(words.at(0).size() + 1)));
        }
        if (run.exitCode != 0)
            seen.insert(QStringLiteral("failure"), QString::fromUtf8(run.out + run.err));
        return seen;
    };
    auto acceptedOn = [&tcp] {
        QList<QHostAddress> locals;
        while (tcp.waitForNewConnection(0)) {
            std::unique_ptr<QTcpSocket> connection(tcp.nextPendingConnection());
            locals.append(connection->localAddress());
        }
        return locals;
    };

    // Names in the lists change nothing; nothing of the host or of internal networks answers.
    const QString closed = policyFile(QStringLiteral("full-closed"), QStringLiteral("full"),
                                      { QStringLiteral("example.com"), QStringLiteral("localhost") });
    QVERIFY(!closed.isEmpty());
    const QMap<QString, QString> shut = runProbe(closed);
    QVERIFY2(!shut.contains(QStringLiteral("failure")), qPrintable(shut.value(QStringLiteral("failure"))));
    for (const QString &target : std::as_const(targets))
        QVERIFY2(shut.value(target) == QLatin1String("failed"),
                 qPrintable(target + QLatin1Char(' ') + shut.value(target)));
    // The guest has a NIC under full (and only under full: see the none and allowlist cases).
    QCOMPARE(shut.value(QStringLiteral("devices")), QStringLiteral("eth0 lo"));
    QCOMPARE(acceptedOn().size(), 0);
    QVERIFY(!udp.hasPendingDatagrams());
    const QList<qint64> firstWayOut = childrenOf(m_daemon->processId(), isSlirp);
    QCOMPARE(firstWayOut.size(), 1);

    // An address of the host the policy names is reachable, TCP and UDP; nothing else is.
    const QString named = own.first().toString();
    const QString opened = policyFile(QStringLiteral("full-opened"), QStringLiteral("full"), { named });
    QVERIFY(!opened.isEmpty());
    const QMap<QString, QString> open = runProbe(opened);
    QVERIFY2(!open.contains(QStringLiteral("failure")), qPrintable(open.value(QStringLiteral("failure"))));
    QCOMPARE(open.value(named), QStringLiteral("connected"));
    for (const QString &target : std::as_const(targets)) {
        if (target != named)
            QVERIFY2(open.value(target) == QLatin1String("failed"),
                     qPrintable(target + QLatin1Char(' ') + open.value(target)));
    }
    QList<QHostAddress> locals;
    QTRY_VERIFY_WITH_TIMEOUT(!(locals += acceptedOn()).isEmpty(), 30000);
    QVERIFY(std::all_of(locals.cbegin(), locals.cend(),
                        [&](const QHostAddress &local) { return local.isEqual(own.first()); }));
    QTRY_VERIFY_WITH_TIMEOUT(udp.hasPendingDatagrams(), 30000);
    int datagrams = 0;
    while (udp.hasPendingDatagrams()) {
        const QNetworkDatagram datagram = udp.receiveDatagram();
        QVERIFY(datagram.destinationAddress().isNull() || datagram.destinationAddress().isEqual(own.first()));
        ++datagrams;
    }
    QCOMPARE(datagrams, 1);
    // The first VM went when this one booted (it was idle), and its way out with it.
    QTRY_COMPARE_WITH_TIMEOUT(stillRunning(firstWayOut, isSlirp), 0, 30000);
}

// The engine is killed (the OOM killer, a crash): its VMs and their ways out end with it
// instead of running on unowned. Last: it ends the daemon the earlier functions used.
void TestVmDaemon::engineKilledWithSigkillTakesItsVmsWithIt()
{
    QVERIFY(m_daemon && m_daemon->state() == QProcess::Running);
    // The previous function's VM and its way out, whether or not this command keeps them.
    QList<qint64> vms = qemuChildrenOf(m_daemon->processId());
    QList<qint64> waysOut = childrenOf(m_daemon->processId(), isSlirp);
    QCOMPARE(ctl({ QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("true") }).exitCode, 0);
    const QList<qint64> running = qemuChildrenOf(m_daemon->processId());
    QVERIFY(!running.isEmpty());
    vms += running;
    waysOut += childrenOf(m_daemon->processId(), isSlirp);
    m_daemon->kill();
    QVERIFY(m_daemon->waitForFinished(10000));
    m_daemon.reset();
    QTRY_COMPARE_WITH_TIMEOUT(stillRunning(vms), 0, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(stillRunning(waysOut, isSlirp), 0, 10000);
    m_vms += vms;
    m_slirps += waysOut;
}

QTEST_GUILESS_MAIN(TestVmDaemon)
#include "tst_vmdaemon.moc"
