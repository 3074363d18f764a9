// The Docker backend on a tcp:// endpoint over TLS, through sandboxd and sandboxctl: Debian's
// stunnel on loopback ports is the engine's TLS front (its own CA, client certificates
// required) before the Podman service socket. The client key is a secret kept in the test's
// keyring. Commands run there: output, status, stdin, a timeout and a kill (their container
// goes), the workspace synced in and back. What fails is named, with the setting at fault:
// the key not stored, a CA that did not make the engine's certificate, a certificate that does
// not name the host, no client certificate or one the front does not trust, an unreadable
// certificate file, the name not resolved, the port closed, and plain TCP to a host that is
// not loopback (plain TCP to loopback runs, through tcp-forward.py); a failed activation
// leaves the active backend as it was. Last, the front stops under a running command.
#include "DaemonRig.h"
#include "TlsFrontRig.h"
#include "docker/DockerApi.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QTest>
#include <QUrl>

using sandbox::Result;
using sandbox::power::DockerApi;
using sandbox::test::Outcome;
using sandbox::test::TlsFrontRig;

class TestDockerTls final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void missingKeyIsNamed();
    void remoteEngineRunsCommands();
    void timeoutAndKillEndTheCommand();
    void workspaceRoundTrip();
    void untrustedCaIsNamed();
    void misnamedCertificateIsNamed();
    void missingClientCertificateIsNamed();
    void untrustedClientCertificateIsNamed();
    void unreadableCertificateFileIsNamed();
    void unresolvedNameIsNamed();
    void closedPortIsNamed();
    void plainTcpIsRefusedBeyondLoopback();
    void plainTcpRunsToLoopback();
    void deadFrontEndsTheCommand();

private:
    struct Tls
    {
        QString ca;
        QString cert;
    };
    // Sets the endpoint and the TLS files and activates the backend; the outcome of the step
    // that failed, or of the activation.
    Outcome activate(const QString &endpoint, const Tls &tls);
    Tls goodTls() const;
    QString endpoint(quint16 port, const QString &host = QStringLiteral("127.0.0.1")) const;
    // Expects the activation to fail naming `field` and saying `words`, Docker on TLS still serving.
    void expectRefusal(const Outcome &activated, const QString &field, const QString &words);
    QString writePolicy(const QString &network);
    Outcome run(const QString &script, const QByteArray &input = {}, int timeoutMs = 60000);
    std::unique_ptr<QProcess> startRun(const QString &script);
    qint64 runningCommand();
    int containersLeft();
    QByteArray readWorkspaceFile(const QString &name) const;
    bool writeWorkspaceFile(const QString &name, const QByteArray &data) const;

    TlsFrontRig m_front;
    sandbox::test::DaemonRig m_daemon;
    sandbox::test::DockerRuntime m_runtime;
    QString m_nonePolicy;
};

namespace {

const QString dockerRef = QStringLiteral("atom-pack:power-pack:docker");

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeFile(const QString &path, const QByteArray &data)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(data) == data.size();
}

} // namespace

void TestDockerTls::initTestCase()
{
    SANDBOX_DOCKER_RUNTIME_OR_SKIP(m_runtime);
    const QString started = m_front.start(m_runtime.socket);
    QVERIFY2(started.isEmpty(), qPrintable(started));
    QVERIFY(m_daemon.create(QStringLiteral("/var/tmp/docker-tls-XXXXXX")));
    m_daemon.start(m_daemon.environment());
    if (QTest::currentTestFailed())
        return;
    const Outcome installed = m_daemon.ctl(
        { QStringLiteral("packs"), QStringLiteral("install"), QStringLiteral(SANDBOX_POWER_PACK_DIR) }, {}, 120000);
    QVERIFY2(installed.exitCode == 0, installed.err.constData());
    m_nonePolicy = writePolicy(QStringLiteral("none"));
    QVERIFY(!m_nonePolicy.isEmpty());
}

void TestDockerTls::cleanupTestCase()
{
    const qint64 daemonPid = m_daemon.daemon() ? m_daemon.daemon()->processId() : 0;
    m_daemon.destroy();
    if (daemonPid <= 0 || m_runtime.socket.isEmpty())
        return;
    const DockerApi api(m_runtime.socket);
    const QString filter = QStringLiteral("{\"label\":[\"dev.sandbox-studio.engine-pid=%1\"]}").arg(daemonPid);
    const Result<DockerApi::Response> listed = api.get(QStringLiteral("/containers/json?all=1&filters=")
                                                           + QString::fromLatin1(QUrl::toPercentEncoding(filter)),
                                                       10000);
    if (!listed.ok())
        return;
    for (const QJsonValue &container : QJsonDocument::fromJson(listed.value().body).array())
        api.remove(QStringLiteral("/containers/%1?force=true&v=true")
                       .arg(container.toObject().value(QStringLiteral("Id")).toString()),
                   10000);
}

TestDockerTls::Tls TestDockerTls::goodTls() const
{
    return Tls{ m_front.path(QStringLiteral("ca.pem")), m_front.path(QStringLiteral("client.pem")) };
}

QString TestDockerTls::endpoint(quint16 port, const QString &host) const
{
    return QStringLiteral("tcp://%1:%2").arg(host).arg(port);
}

Outcome TestDockerTls::activate(const QString &endpoint, const Tls &tls)
{
    const Outcome set
        = m_daemon.ctl({ QStringLiteral("settings"), QStringLiteral("set"), dockerRef,
                         QStringLiteral("endpoint=") + endpoint, QStringLiteral("tlsCaCert=") + tls.ca,
                         QStringLiteral("tlsCert=") + tls.cert, QStringLiteral("image=") + m_runtime.image },
                       {}, 60000);
    if (set.exitCode != 0)
        return set;
    return m_daemon.ctl({ QStringLiteral("activate"), dockerRef }, {}, 90000);
}

void TestDockerTls::expectRefusal(const Outcome &activated, const QString &field, const QString &words)
{
    QVERIFY2(activated.exitCode != 0, activated.out.constData());
    const QString said = QString::fromUtf8(activated.err);
    QVERIFY2(said.contains(words), qPrintable(said));
    QVERIFY2(said.contains(dockerRef + QLatin1Char('.') + field) || said.contains(field + QStringLiteral(": ")),
             qPrintable(said));
    // The backend serving before still does, on its settings.
    const Outcome still = run(QStringLiteral("echo still"));
    QVERIFY2(still.exitCode == 0 && still.out == "still\n", still.err.constData());
}

QString TestDockerTls::writePolicy(const QString &network)
{
    const QJsonObject policy{
        { QStringLiteral("filesystem"),
          QJsonObject{ { QStringLiteral("readable"), QJsonArray{ QStringLiteral("/") } },
                       { QStringLiteral("writable"), QJsonArray{ QStringLiteral("${workspace}") } } } },
        { QStringLiteral("network"), QJsonObject{ { QStringLiteral("mode"), network } } },
        { QStringLiteral("hostExecution"), QStringLiteral("deny") },
    };
    const QString file = m_daemon.filePath(QStringLiteral("policy-%1.json").arg(network));
    return writeFile(file, QJsonDocument(policy).toJson()) ? file : QString();
}

Outcome TestDockerTls::run(const QString &script, const QByteArray &input, int timeoutMs)
{
    return m_daemon.ctl({ QStringLiteral("run"), QStringLiteral("--policy"), m_nonePolicy, QStringLiteral("--"),
                          QStringLiteral("/bin/sh"), QStringLiteral("-c"), script },
                        input, timeoutMs);
}

std::unique_ptr<QProcess> TestDockerTls::startRun(const QString &script)
{
    return m_daemon.startCtl({ QStringLiteral("run"), QStringLiteral("--policy"), m_nonePolicy, QStringLiteral("--"),
                               QStringLiteral("/bin/sh"), QStringLiteral("-c"), script });
}

qint64 TestDockerTls::runningCommand()
{
    const Outcome ps = m_daemon.ctl({ QStringLiteral("ps"), QStringLiteral("--json") });
    for (const QJsonValue &value : QJsonDocument::fromJson(ps.out).array()) {
        if (value.toObject().value(QStringLiteral("state")).toString() == QLatin1String("running"))
            return value.toObject().value(QStringLiteral("id")).toInteger();
    }
    return 0;
}

int TestDockerTls::containersLeft()
{
    const DockerApi api(m_runtime.socket);
    const QString filter
        = QStringLiteral("{\"label\":[\"dev.sandbox-studio.engine-pid=%1\"]}").arg(m_daemon.daemon()->processId());
    const Result<DockerApi::Response> listed = api.get(QStringLiteral("/containers/json?all=1&filters=")
                                                           + QString::fromLatin1(QUrl::toPercentEncoding(filter)),
                                                       10000);
    return listed.ok() && listed.value().status == 200
        ? int(QJsonDocument::fromJson(listed.value().body).array().size())
        : -1;
}

QByteArray TestDockerTls::readWorkspaceFile(const QString &name) const
{
    return readFile(QDir(m_daemon.workspace()).filePath(name));
}

bool TestDockerTls::writeWorkspaceFile(const QString &name, const QByteArray &data) const
{
    return writeFile(QDir(m_daemon.workspace()).filePath(name), data);
}

void TestDockerTls::missingKeyIsNamed()
{
    // Before the key is stored: the client certificate is set, its key is not.
    const Outcome activated = activate(endpoint(m_front.port()), goodTls());
    QVERIFY(activated.exitCode != 0);
    QVERIFY2(activated.err.contains("tlsKey") && activated.err.contains("is not stored"), activated.err.constData());
    // Stored in the keychain (the test's own keyring), the activation goes through.
    const Outcome stored
        = m_daemon.ctl({ QStringLiteral("secret"), QStringLiteral("set"), dockerRef, QStringLiteral("tlsKey") },
                       readFile(m_front.path(QStringLiteral("client-key.pem"))));
    QVERIFY2(stored.exitCode == 0, stored.err.constData());
    const Outcome active = m_daemon.ctl({ QStringLiteral("activate"), dockerRef }, {}, 90000);
    QVERIFY2(active.exitCode == 0, QByteArray(active.out + active.err + m_front.log()).constData());
    QVERIFY2(active.out.contains("answers over TLS"), active.out.constData());
}

void TestDockerTls::remoteEngineRunsCommands()
{
    const Outcome described = m_daemon.ctl({ QStringLiteral("describe"), dockerRef, QStringLiteral("--json") });
    QVERIFY2(sandbox::test::claimOf(described.out, QStringLiteral("network"))
                 .contains(QLatin1String("Allowlist: refused on an engine reached over TLS")),
             described.out.constData());
    QVERIFY2(sandbox::test::claimOf(described.out, QStringLiteral("filesystem"))
                 .contains(QLatin1String("nothing of this computer is mounted")),
             described.out.constData());
    const Outcome mixed = run(QStringLiteral("echo out; echo err >&2; exit 3"));
    QCOMPARE(mixed.exitCode, 3);
    QCOMPARE(mixed.out, QByteArray("out\n"));
    QVERIFY2(mixed.err.contains("err\n"), mixed.err.constData());
    // The end of stdin reaches the command through the TLS front (a half-close).
    const Outcome counted = run(QStringLiteral("wc -l"), "one\ntwo\nthree\n");
    QVERIFY2(counted.exitCode == 0, counted.err.constData());
    QCOMPARE(counted.out.trimmed(), QByteArray("3"));
    // Larger than the tunnel's buffers, both ways.
    const QByteArray large(512 * 1024, 'x');
    const Outcome echoed = run(QStringLiteral("cat"), large);
    QVERIFY2(echoed.exitCode == 0, echoed.err.constData());
    QCOMPARE(echoed.out.size(), large.size());
    QVERIFY(echoed.out == large);
    const Outcome shape = run(QStringLiteral("pwd; grep -c ' /run/sandbox-studio ' /proc/self/mountinfo; "
                                             "echo x > /run/sandbox-studio/sandbox-init || echo gated"));
    QVERIFY2(shape.out.startsWith(QByteArray(m_daemon.workspace().toUtf8() + "\n1\n")), shape.out.constData());
    QVERIFY2(shape.out.contains("gated"), shape.out.constData());
    QTRY_COMPARE_WITH_TIMEOUT(containersLeft(), 0, 20000);
}

void TestDockerTls::timeoutAndKillEndTheCommand()
{
    const Outcome timedOut
        = m_daemon.ctl({ QStringLiteral("run"), QStringLiteral("--policy"), m_nonePolicy, QStringLiteral("--timeout"),
                         QStringLiteral("1"), QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                         QStringLiteral("sleep 60 & sleep 60; echo never") },
                       {}, 60000);
    QVERIFY2(timedOut.exitCode == 128 + 9 || timedOut.exitCode == 128 + 15, timedOut.err.constData());
    QVERIFY2(timedOut.err.contains("timed out"), timedOut.err.constData());
    QVERIFY(!timedOut.out.contains("never"));
    QTRY_COMPARE_WITH_TIMEOUT(containersLeft(), 0, 20000);

    std::unique_ptr<QProcess> running = startRun(QStringLiteral("sleep 60 & echo started; sleep 60"));
    QTRY_VERIFY_WITH_TIMEOUT(running->canReadLine(), 30000);
    QCOMPARE(running->readLine(), QByteArray("started\n"));
    const qint64 id = runningCommand();
    QVERIFY(id > 0);
    QCOMPARE(m_daemon.ctl({ QStringLiteral("kill"), QString::number(id) }).exitCode, 0);
    QVERIFY(running->waitForFinished(20000));
    QCOMPARE(running->exitCode(), 128 + 9);
    QTRY_COMPARE_WITH_TIMEOUT(containersLeft(), 0, 20000);
}

void TestDockerTls::workspaceRoundTrip()
{
    QVERIFY(writeWorkspaceFile(QStringLiteral("sent.txt"), "from this computer\n"));
    const Outcome worked = run(QStringLiteral("cat sent.txt; echo remote > made.txt; echo changed >> sent.txt"));
    QVERIFY2(worked.exitCode == 0, worked.err.constData());
    QCOMPARE(worked.out, QByteArray("from this computer\n"));
    QCOMPARE(readWorkspaceFile(QStringLiteral("made.txt")), QByteArray("remote\n"));
    QCOMPARE(readWorkspaceFile(QStringLiteral("sent.txt")), QByteArray("from this computer\nchanged\n"));
}

void TestDockerTls::untrustedCaIsNamed()
{
    expectRefusal(
        activate(endpoint(m_front.port()), Tls{ m_front.path(QStringLiteral("stranger-ca.pem")), goodTls().cert }),
        QStringLiteral("tlsCaCert"),
        QStringLiteral("TLS verification: the certificate the engine at %1 presents is not signed by the CA "
                       "in tlsCaCert")
            .arg(endpoint(m_front.port())));
}

void TestDockerTls::misnamedCertificateIsNamed()
{
    expectRefusal(activate(endpoint(m_front.misnamedPort()), goodTls()), QStringLiteral("endpoint"),
                  QStringLiteral("TLS verification: the certificate the engine at %1 presents does not name "
                                 "127.0.0.1, the host in the endpoint")
                      .arg(endpoint(m_front.misnamedPort())));
    // The front's own certificate names localhost too: that name is accepted.
    const Outcome byName = activate(endpoint(m_front.port(), QStringLiteral("localhost")), goodTls());
    QVERIFY2(byName.exitCode == 0, QByteArray(byName.out + byName.err).constData());
}

void TestDockerTls::missingClientCertificateIsNamed()
{
    // Under TLS 1.3 the front's alert can be lost to the reset of a connection our request is
    // already on: then the message says what most likely happened.
    const Outcome activated = activate(endpoint(m_front.port()), Tls{ goodTls().ca, QString() });
    expectRefusal(activated, QStringLiteral("tlsCert"),
                  QStringLiteral("TLS client certificate: the engine at %1 ").arg(endpoint(m_front.port())));
    QVERIFY2(activated.err.contains("asks for a client certificate and none is set")
                 || activated.err.contains("it most likely asks for a client certificate, and none is set"),
             activated.err.constData());
}

void TestDockerTls::untrustedClientCertificateIsNamed()
{
    // Made for the same key as the good one, by an authority the front does not trust.
    const Outcome activated
        = activate(endpoint(m_front.port()), Tls{ goodTls().ca, m_front.path(QStringLiteral("stranger.pem")) });
    expectRefusal(activated, QStringLiteral("tlsCert"),
                  QStringLiteral("TLS client certificate: the engine at %1 ").arg(endpoint(m_front.port())));
    QVERIFY2(activated.err.contains("refused the client certificate in tlsCert"), activated.err.constData());
}

void TestDockerTls::unreadableCertificateFileIsNamed()
{
    const QString missing = m_front.path(QStringLiteral("no-such-client.pem"));
    expectRefusal(activate(endpoint(m_front.port()), Tls{ goodTls().ca, missing }), QStringLiteral("tlsCert"),
                  QStringLiteral("The client certificate file %1 (tlsCert) cannot be read").arg(missing));
    const QString notPem = m_front.path(QStringLiteral("stunnel.conf"));
    expectRefusal(activate(endpoint(m_front.port()), Tls{ notPem, goodTls().cert }), QStringLiteral("tlsCaCert"),
                  QStringLiteral("The CA certificate file %1 (tlsCaCert) holds no PEM certificate").arg(notPem));
}

void TestDockerTls::unresolvedNameIsNamed()
{
    expectRefusal(activate(endpoint(m_front.port(), QStringLiteral("no-such-host.invalid")), goodTls()),
                  QStringLiteral("endpoint"),
                  QStringLiteral("DNS: the host name no-such-host.invalid could not be resolved"));
}

void TestDockerTls::closedPortIsNamed()
{
    quint16 closed = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        closed = probe.serverPort();
    }
    expectRefusal(activate(endpoint(closed), goodTls()), QStringLiteral("endpoint"),
                  QStringLiteral("Connection refused: nothing listens on 127.0.0.1 port %1").arg(closed));
}

void TestDockerTls::plainTcpIsRefusedBeyondLoopback()
{
    // An address of the documentation range: refused before any connection is tried.
    expectRefusal(activate(QStringLiteral("tcp://192.0.2.1:2375"), Tls{}), QStringLiteral("endpoint"),
                  QStringLiteral("Plain TCP to tcp://192.0.2.1:2375 is refused"));
    expectRefusal(activate(QStringLiteral("tcp://[2001:db8::1]:2375"), Tls{}), QStringLiteral("endpoint"),
                  QStringLiteral("Plain TCP to tcp://[2001:db8::1]:2375 is refused"));
}

void TestDockerTls::plainTcpRunsToLoopback()
{
    // An engine's unencrypted port on loopback (tcp-forward.py before the Podman socket).
    QProcess front;
    front.start(QStringLiteral("python3"), { QFINDTESTDATA("tcp-forward.py"), m_runtime.socket });
    QVERIFY(front.waitForStarted(10000));
    QVERIFY(front.waitForReadyRead(10000));
    const quint16 port = quint16(front.readLine().trimmed().toUInt());
    QVERIFY(port > 0);
    const Outcome activated = activate(endpoint(port), Tls{});
    QVERIFY2(activated.exitCode == 0, QByteArray(activated.out + activated.err).constData());
    QVERIFY2(activated.out.contains("answers over plain TCP (loopback)"), activated.out.constData());
    const Outcome counted = run(QStringLiteral("wc -l"), "one\ntwo\n");
    QVERIFY2(counted.exitCode == 0, counted.err.constData());
    QCOMPARE(counted.out.trimmed(), QByteArray("2"));
    // Back to TLS; the front ends with its standard input.
    const Outcome back = activate(endpoint(m_front.port()), goodTls());
    QVERIFY2(back.exitCode == 0, QByteArray(back.out + back.err).constData());
    front.closeWriteChannel();
    QVERIFY(front.waitForFinished(10000));
}

void TestDockerTls::deadFrontEndsTheCommand()
{
    QVERIFY(activate(endpoint(m_front.port()), goodTls()).exitCode == 0);
    std::unique_ptr<QProcess> running = startRun(QStringLiteral("echo started; sleep 60; echo never"));
    QTRY_VERIFY_WITH_TIMEOUT(running->canReadLine(), 30000);
    QCOMPARE(running->readLine(), QByteArray("started\n"));
    // The engine's TLS front goes away under the command: it ends, saying why (the connection
    // under it reset, or the next one refused, whichever the command meets first), and nothing
    // waits.
    m_front.stop();
    QVERIFY(running->waitForFinished(30000));
    const QByteArray err = running->readAllStandardError();
    QCOMPARE(running->exitCode(), 255);
    QVERIFY2(err.contains(QStringLiteral("the command ended with the connection to the engine at %1: ")
                              .arg(endpoint(m_front.port()))
                              .toUtf8()),
             err.constData());
    QVERIFY2(
        err.contains(
            QStringLiteral("Connection refused: nothing listens on 127.0.0.1 port %1").arg(m_front.port()).toUtf8())
            || err.contains("failed (Connection reset by peer). Nothing of the workspace was brought back"),
        err.constData());
    QVERIFY(!running->readAllStandardOutput().contains("never"));
    // The next command is refused, naming the same.
    // Bounded beyond the engine's own request limit (30 s): what this waits for is its answer.
    const Outcome after = run(QStringLiteral("echo never"), {}, 120000);
    const QByteArray told
        = "exit " + QByteArray::number(after.exitCode) + ": " + after.err + "\nengine:\n" + m_daemon.log().right(6000);
    QVERIFY2(after.exitCode != 0 && after.exitCode != -2, told.constData());
    QVERIFY2(after.err.contains("Connection refused: nothing listens on 127.0.0.1"), told.constData());
}

QTEST_GUILESS_MAIN(TestDockerTls)

#include "tst_docker_tls.moc"
