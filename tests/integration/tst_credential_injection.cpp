// Credentials that never enter the sandbox, end to end: a real sandboxd with the real OS
// keychain (tests/with-keyring.sh), the auto backend in both tiers, the vm backend (QEMU)
// and the Power Pack's Docker backend (when test.sh's Podman runs), and a loopback HTTPS
// server with its own
// certificate authority that records what it receives (tls-recorder.py, serving a bare
// repository through git http-backend too). The server must get the value; the command
// must see only the placeholder; a placeholder sent anywhere else must arrive unchanged and
// be reported; a Host header or TLS server name other than the tunnel's is refused.
// With network.upstreamProxy, every connection goes through a loopback CONNECT proxy that
// asks for a credential and records what it is asked for (connect-proxy.py).
#include "DaemonRig.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QTcpServer>
#include <QTest>
#include <QUrl>

using sandbox::test::binary;
using sandbox::test::Outcome;

namespace {

const QString dockerRef = QStringLiteral("atom-pack:power-pack:docker");

} // namespace

class TestCredentialInjection final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void injection_data();
    void injection();
    void upstreamProxy_data();
    void upstreamProxy();

private:
    Outcome ctl(const QStringList &args, const QByteArray &input = {}, int timeoutMs = 120000);
    Outcome run(const QString &script);
    void activate(const QString &backend);
    // `upstreamUrl` (may be empty): the policy's upstream proxy, with the credential `upstreamCredential`.
    void writePolicy(const QString &upstreamUrl = {}, const QString &upstreamCredential = QStringLiteral("corp-proxy"));
    QList<QJsonObject> received(const QString &path) const;
    // A credential refusal whose target contains `what` and whose rule contains `rule`.
    bool reported(const QString &what, const QString &rule, const QString &kind = QStringLiteral("credential"));
    // The requests the upstream proxy got (connect-proxy.py's log).
    QList<QJsonObject> proxied() const;
    static QString header(const QJsonObject &request, const QString &name);

    sandbox::test::DaemonRig m_rig;
    QString m_caFile;
    // What the policy makes readable: the whole host, but for a VM the system's programs only
    // (the engine's own folders are denied inside /var/tmp, which would split it, and every
    // folder beside them would take one of the VM's shares).
    QString m_readable = QStringLiteral(R"("/")");
    QString m_log;
    QString m_bare;
    QByteArray m_value;
    quint16 m_https = 0;
    quint16 m_http = 0;
    QProcess m_recorder;
    QProcess m_upstream;
    QString m_upstreamLog;
    QString m_upstreamCredential;
    quint16 m_upstreamHttp = 0;
    quint16 m_upstreamHttps = 0;
    sandbox::test::DockerRuntime m_docker;
    bool m_packInstalled = false;
};

void TestCredentialInjection::initTestCase()
{
    QVERIFY(m_rig.create(QStringLiteral("/var/tmp/credential-injection-XXXXXX")));
    m_value = "forge_" + QByteArray::number(QRandomGenerator::global()->generate64(), 36) + "_real";

    // The server's own authority and certificate (localhost and 127.0.0.1).
    const QString certs = m_rig.filePath(QStringLiteral("certs"));
    QVERIFY(QDir().mkpath(certs));
    m_caFile = certs + QStringLiteral("/ca.pem");
    const QString script
        = QStringLiteral(
              "set -e; cd '%1'; "
              "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ca-key.pem -out ca.pem "
              "-days 2 -subj '/CN=Recorder Test CA' -addext basicConstraints=critical,CA:TRUE "
              "-addext keyUsage=critical,keyCertSign 2>/dev/null; "
              "openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout server-key.pem -out server.csr "
              "-subj '/CN=localhost' 2>/dev/null; "
              "printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\nextendedKeyUsage=serverAuth\\n' > ext.cnf; "
              "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -out server.pem -days 2 "
              "-extfile ext.cnf 2>/dev/null")
              .arg(certs);
    const Outcome made
        = sandbox::test::runProgram(QStringLiteral("/bin/sh"), { QStringLiteral("-c"), script }, certs, {}, 60000);
    QVERIFY2(made.exitCode == 0, made.err.constData());

    // A bare repository to push to, served by git http-backend.
    const QString repos = m_rig.filePath(QStringLiteral("repos"));
    m_bare = repos + QStringLiteral("/repo.git");
    QVERIFY(QDir().mkpath(repos));
    const Outcome bare = sandbox::test::runProgram(
        QStringLiteral("git"), { QStringLiteral("init"), QStringLiteral("--bare"), m_bare }, repos, {}, 30000);
    QVERIFY2(bare.exitCode == 0, bare.err.constData());
    const QString tokenFile = m_rig.filePath(QStringLiteral("token"));
    QVERIFY(sandbox::test::writeFile(tokenFile, m_value));

    m_log = m_rig.filePath(QStringLiteral("received.jsonl"));
    m_recorder.setProgram(QStringLiteral("/usr/bin/python3"));
    m_recorder.setArguments({ QFINDTESTDATA("tls-recorder.py"), QStringLiteral("--cert"),
                              certs + QStringLiteral("/server.pem"), QStringLiteral("--key"),
                              certs + QStringLiteral("/server-key.pem"), QStringLiteral("--log"), m_log,
                              QStringLiteral("--git-root"), repos, QStringLiteral("--token-file"), tokenFile });
    m_recorder.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_recorder.start();
    QVERIFY2(m_recorder.waitForStarted(), qPrintable(m_recorder.errorString()));
    QTRY_VERIFY_WITH_TIMEOUT(m_recorder.canReadLine() || m_recorder.state() != QProcess::Running, 30000);
    const QJsonObject ports = QJsonDocument::fromJson(m_recorder.readLine()).object();
    m_https = quint16(ports.value(QStringLiteral("https")).toInt());
    m_http = quint16(ports.value(QStringLiteral("http")).toInt());
    QVERIFY2(m_https != 0 && m_http != 0, "the recorder did not say its ports");

    // The corporate proxy: plain and TLS (the recorder's certificate, so the same authority).
    m_upstreamLog = m_rig.filePath(QStringLiteral("proxied.jsonl"));
    m_upstreamCredential = m_rig.filePath(QStringLiteral("proxy-credential"));
    QVERIFY(sandbox::test::writeFile(m_upstreamCredential, "alice:corp-" + m_value.right(8)));
    m_upstream.setProgram(QStringLiteral("/usr/bin/python3"));
    m_upstream.setArguments({ QFINDTESTDATA("connect-proxy.py"), QStringLiteral("--credential-file"),
                              m_upstreamCredential, QStringLiteral("--log"), m_upstreamLog, QStringLiteral("--cert"),
                              certs + QStringLiteral("/server.pem"), QStringLiteral("--key"),
                              certs + QStringLiteral("/server-key.pem") });
    m_upstream.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_upstream.start();
    QVERIFY2(m_upstream.waitForStarted(), qPrintable(m_upstream.errorString()));
    QTRY_VERIFY_WITH_TIMEOUT(m_upstream.canReadLine() || m_upstream.state() != QProcess::Running, 30000);
    const QJsonObject upstreamPorts = QJsonDocument::fromJson(m_upstream.readLine()).object();
    m_upstreamHttp = quint16(upstreamPorts.value(QStringLiteral("http")).toInt());
    m_upstreamHttps = quint16(upstreamPorts.value(QStringLiteral("https")).toInt());
    QVERIFY2(m_upstreamHttp != 0 && m_upstreamHttps != 0, "the upstream proxy did not say its ports");

    m_rig.start();
    writePolicy();
}

void TestCredentialInjection::cleanupTestCase()
{
    m_rig.stop();
    for (QProcess *helper : { &m_recorder, &m_upstream }) {
        if (helper->state() == QProcess::Running) {
            helper->closeWriteChannel();
            if (!helper->waitForFinished(10000))
                helper->kill();
            helper->waitForFinished(10000);
        }
    }
    ctl({ QStringLiteral("credential"), QStringLiteral("remove"), QStringLiteral("forge") });
    ctl({ QStringLiteral("credential"), QStringLiteral("remove"), QStringLiteral("corp-proxy") });
    m_rig.destroy();
}

Outcome TestCredentialInjection::ctl(const QStringList &args, const QByteArray &input, int timeoutMs)
{
    return m_rig.ctl(args, input, timeoutMs);
}

Outcome TestCredentialInjection::run(const QString &script)
{
    return ctl(
        { QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"), script });
}

void TestCredentialInjection::writePolicy(const QString &upstreamUrl, const QString &upstreamCredential)
{
    const QString https = QString::number(m_https);
    const QString upstream = upstreamUrl.isEmpty()
        ? QString()
        : QStringLiteral(R"(,"upstreamProxy":{"url":"%1","credential":"%2"})").arg(upstreamUrl, upstreamCredential);
    const QByteArray policy = QStringLiteral(
                                  R"({"filesystem":{"readable":[%5],"writable":["${workspace}"]},
                  "network":{"mode":"allowlist","allowedDomains":["localhost:%1","127.0.0.1:%1","127.0.0.1:%2"],
                             "extraCaCertificates":["%3"]%4},
                  "hostExecution":"deny",
                  "credentials":[{"name":"forge","env":"FORGE_TOKEN","hosts":["localhost:%1"],
                                  "headers":["Authorization"]}]})")
                                  .arg(https, QString::number(m_http), m_caFile, upstream, m_readable)
                                  .toUtf8();
    const QString file = m_rig.filePath(QStringLiteral("policy.json"));
    QVERIFY(sandbox::test::writeFile(file, policy));
    const Outcome set = ctl({ QStringLiteral("policy"), QStringLiteral("set"), file });
    QVERIFY2(set.exitCode == 0, set.err.constData());
}

void TestCredentialInjection::activate(const QString &backend)
{
    if (backend == QLatin1String("docker")) {
        if (!m_packInstalled) {
            const Outcome installed
                = ctl({ QStringLiteral("packs"), QStringLiteral("install"), QStringLiteral(SANDBOX_POWER_PACK_DIR) });
            QVERIFY2(installed.exitCode == 0, installed.err.constData());
            m_packInstalled = true;
        }
        const Outcome set
            = ctl({ QStringLiteral("settings"), QStringLiteral("set"), dockerRef,
                    QStringLiteral("endpoint=unix://") + m_docker.socket, QStringLiteral("image=") + m_docker.image });
        QVERIFY2(set.exitCode == 0, set.err.constData());
        const Outcome activated = ctl({ QStringLiteral("activate"), dockerRef });
        QVERIFY2(activated.exitCode == 0, QByteArray(activated.out + activated.err).constData());
        return;
    }
    const QString readable = backend == QLatin1String("vm") ? QStringLiteral(R"("/usr","/etc","/bin","/lib","/lib64")")
                                                            : QStringLiteral(R"("/")");
    if (readable != m_readable) {
        m_readable = readable;
        writePolicy();
    }
    if (backend == QLatin1String("vm")) {
        // The guest's helpers from the build's bundle (what a release's download location holds).
        const Outcome set = ctl({ QStringLiteral("settings"), QStringLiteral("set"), QStringLiteral("builtin:vm"),
                                  QStringLiteral("helperSource=")
                                      + QUrl::fromLocalFile(QStringLiteral(SANDBOX_VM_BUNDLE_DIR "/")).toString() });
        QVERIFY2(set.exitCode == 0, set.err.constData());
        const Outcome activated = ctl({ QStringLiteral("activate"), QStringLiteral("builtin:vm") }, {}, 300000);
        QVERIFY2(activated.exitCode == 0, QByteArray(activated.out + activated.err).constData());
        return;
    }
    const Outcome set = ctl({ QStringLiteral("settings"), QStringLiteral("set"), QStringLiteral("builtin:auto"),
                              QStringLiteral("tier=") + backend });
    QVERIFY2(set.exitCode == 0, set.err.constData());
    const Outcome activated = ctl({ QStringLiteral("activate"), QStringLiteral("builtin:auto") });
    QVERIFY2(activated.exitCode == 0, QByteArray(activated.out + activated.err).constData());
}

QList<QJsonObject> TestCredentialInjection::received(const QString &path) const
{
    QList<QJsonObject> requests;
    QFile file(m_log);
    if (!file.open(QIODevice::ReadOnly))
        return requests;
    for (const QByteArray &line : file.readAll().split('\n')) {
        const QJsonObject request = QJsonDocument::fromJson(line).object();
        if (request.value(QStringLiteral("path")).toString() == path)
            requests.append(request);
    }
    return requests;
}

QString TestCredentialInjection::header(const QJsonObject &request, const QString &name)
{
    for (const QJsonValue &pair : request.value(QStringLiteral("headers")).toArray()) {
        if (pair.toArray().at(0).toString().compare(name, Qt::CaseInsensitive) == 0)
            return pair.toArray().at(1).toString();
    }
    return QString();
}

QList<QJsonObject> TestCredentialInjection::proxied() const
{
    QList<QJsonObject> requests;
    QFile file(m_upstreamLog);
    if (!file.open(QIODevice::ReadOnly))
        return requests;
    for (const QByteArray &line : file.readAll().split('\n')) {
        if (!line.isEmpty())
            requests.append(QJsonDocument::fromJson(line).object());
    }
    return requests;
}

bool TestCredentialInjection::reported(const QString &what, const QString &rule, const QString &kind)
{
    const Outcome events = ctl({ QStringLiteral("events"), QStringLiteral("--json") });
    for (const QJsonValue &value : QJsonDocument::fromJson(events.out).array()) {
        const QJsonObject refusal = value.toObject();
        if (refusal.value(QStringLiteral("kind")).toString() == kind
            && refusal.value(QStringLiteral("what")).toString().contains(what)
            && refusal.value(QStringLiteral("rule")).toString().contains(rule))
            return true;
    }
    return false;
}

void TestCredentialInjection::injection_data()
{
    QTest::addColumn<QString>("backend");
    QTest::newRow("tier 1") << QStringLiteral("strongest");
    QTest::newRow("tier 2") << QStringLiteral("landlock-seccomp");
    QTest::newRow("docker") << QStringLiteral("docker");
    QTest::newRow("vm") << QStringLiteral("vm");
}

void TestCredentialInjection::injection()
{
    QFETCH(QString, backend);
    const bool docker = backend == QLatin1String("docker");
    if (docker)
        SANDBOX_DOCKER_RUNTIME_OR_SKIP(m_docker);
    activate(backend);
    const QString tag = QString(backend).remove(QLatin1Char(' '));
    const QString https = QStringLiteral("https://localhost:%1").arg(m_https);
    const Outcome stored
        = ctl({ QStringLiteral("credential"), QStringLiteral("set"), QStringLiteral("forge") }, m_value + '\n');
    QVERIFY2(stored.exitCode == 0, stored.err.constData());

    // The command sees a placeholder, in its environment and its /proc, never the value.
    const Outcome seen = run(QStringLiteral("printf '%s\\n' \"$FORGE_TOKEN\"; cat /proc/self/environ"));
    QVERIFY2(seen.exitCode == 0, seen.err.constData());
    const QByteArray placeholder = seen.out.left(seen.out.indexOf('\n'));
    QVERIFY2(placeholder.startsWith("sandbox-credential-forge-"), seen.out.constData());
    QVERIFY(!seen.out.contains(m_value));
    QVERIFY2(seen.out.contains("SSL_CERT_FILE="), seen.out.constData());

    // curl with a bearer token: the server gets the value.
    const QString bearer = QStringLiteral("/bearer-") + tag;
    const Outcome curl
        = run(QStringLiteral("curl -sS -H \"Authorization: Bearer $FORGE_TOKEN\" %1%2").arg(https, bearer));
    QVERIFY2(curl.exitCode == 0 && curl.out == "ok 0\n", QByteArray(curl.out + curl.err).constData());
    QList<QJsonObject> got = received(bearer);
    QCOMPARE(got.size(), 1);
    QCOMPARE(header(got.first(), QStringLiteral("Authorization")), QString::fromUtf8("Bearer " + m_value));

    // Clients that read only the system's bundle file trust the engine's authority too where
    // the backend binds the bundle over it (not tier 2: it has no mount namespace).
    if (backend != QLatin1String("landlock-seccomp")) {
        const QString system = QStringLiteral("/system-") + tag;
        const Outcome systemBundle
            = run(QStringLiteral("env -u CURL_CA_BUNDLE -u SSL_CERT_FILE curl -sS --cacert "
                                 "/etc/ssl/certs/ca-certificates.crt -H \"Authorization: Bearer $FORGE_TOKEN\" %1%2")
                      .arg(https, system));
        QVERIFY2(systemBundle.exitCode == 0 && systemBundle.out == "ok 0\n",
                 QByteArray(systemBundle.out + systemBundle.err).constData());
        QCOMPARE(received(system).size(), 1);
    }

    // In a VM the commands are root: the bundle the later commands trust is read-only still.
    if (backend == QLatin1String("vm")) {
        const Outcome tampered = run(QStringLiteral("printf x >> /.sandbox/ca-bundle.pem; echo own=$?; "
                                                    "printf x >> /etc/ssl/certs/ca-certificates.crt; echo system=$?"));
        QVERIFY2(tampered.out.contains("own=") && !tampered.out.contains("own=0") && tampered.out.contains("system=")
                     && !tampered.out.contains("system=0"),
                 QByteArray(tampered.out + tampered.err).constData());
    }

    // A header the policy does not name, and a request to another allowed host, carry the
    // placeholder unchanged; the one in plain sight is reported.
    const QString other = QStringLiteral("/other-") + tag;
    const Outcome otherHeader = run(QStringLiteral("curl -sS -H \"X-Token: $FORGE_TOKEN\" %1%2").arg(https, other));
    QVERIFY2(otherHeader.exitCode == 0, otherHeader.err.constData());
    got = received(other);
    QCOMPARE(got.size(), 1);
    QCOMPARE(header(got.first(), QStringLiteral("X-Token")).toUtf8(), placeholder);
    const QString leak = QStringLiteral("/leak-") + tag;
    const Outcome leaked
        = run(QStringLiteral("curl -sS -H \"Authorization: Bearer $FORGE_TOKEN\" http://127.0.0.1:%1%2")
                  .arg(m_http)
                  .arg(leak));
    QVERIFY2(leaked.exitCode == 0, leaked.err.constData());
    got = received(leak);
    QCOMPARE(got.size(), 1);
    QCOMPARE(header(got.first(), QStringLiteral("Authorization")).toUtf8(), "Bearer " + placeholder);
    QTRY_VERIFY_WITH_TIMEOUT(reported(QStringLiteral("127.0.0.1:%1").arg(m_http), QStringLiteral("\"forge\"")), 20000);

    // Domain fronting: a Host header other than the tunnel's host is refused inside the tunnel.
    const QString front = QStringLiteral("/front-") + tag;
    const Outcome fronted = run(QStringLiteral("curl -sS -o /dev/null -w '%{http_code}' -H 'Host: 127.0.0.1:%1' "
                                               "-H \"Authorization: Bearer $FORGE_TOKEN\" %2%3")
                                    .arg(m_https)
                                    .arg(https, front));
    QCOMPARE(fronted.out, QByteArray("421"));
    QVERIFY(received(front).isEmpty());

    // git over HTTPS: Basic credentials with the placeholder as the password; the push lands.
    // The repository is the host's (the write gate keeps a command from making one). Tier 2
    // offers the proxy only as a unix socket, which git reaches from 2.46 on, not before.
    Outcome pushed;
    if (backend != QLatin1String("landlock-seccomp")) {
        const QString repository = m_rig.workspace() + QStringLiteral("/repo-") + tag;
        const Outcome made = sandbox::test::runProgram(
            QStringLiteral("/bin/sh"),
            { QStringLiteral("-c"),
              QStringLiteral("set -e; git init -q '%1'; cd '%1'; git config user.email a@b; git config user.name a; "
                             "echo %2 > file; git add file; git commit -qm %2")
                  .arg(repository, tag) },
            m_rig.workspace(), {}, 30000);
        QVERIFY2(made.exitCode == 0, made.err.constData());
        const QString push
            = QStringLiteral("cd repo-%1 && git push -q "
                             "\"https://x-access-token:$FORGE_TOKEN@localhost:%2/repo.git\" HEAD:refs/heads/%1")
                  .arg(tag)
                  .arg(m_https);
        pushed = run(push);
        QVERIFY2(pushed.exitCode == 0, QByteArray(pushed.out + pushed.err).constData());
        const Outcome branch = sandbox::test::runProgram(QStringLiteral("git"),
                                                         { QStringLiteral("--git-dir"), m_bare, QStringLiteral("log"),
                                                           QStringLiteral("-1"), QStringLiteral("--format=%s"), tag },
                                                         m_rig.path(), {}, 30000);
        QCOMPARE(branch.out, (tag + QLatin1Char('\n')).toUtf8());
    }

    // Python's urllib (an HTTP CONNECT proxy and the bundle through SSL_CERT_FILE): where a TCP
    // proxy is offered and Python is in the sandbox.
    if (backend == QLatin1String("strongest") || backend == QLatin1String("vm")) {
        const QString python = QStringLiteral("/python-") + tag;
        const Outcome urllib = run(
            QStringLiteral("python3 -c \"import os, urllib.request; print(urllib.request.urlopen(urllib.request."
                           "Request('%1%2', headers={'Authorization': 'token ' + os.environ['FORGE_TOKEN']})).read()."
                           "decode(), end='')\"")
                .arg(https, python));
        QVERIFY2(urllib.exitCode == 0 && urllib.out == "ok 0\n", QByteArray(urllib.out + urllib.err).constData());
        got = received(python);
        QCOMPARE(got.size(), 1);
        QCOMPARE(header(got.first(), QStringLiteral("Authorization")), QString::fromUtf8("token " + m_value));

        // A TLS server name other than the tunnel's host is refused too (openssl speaks to
        // the bridge's HTTP proxy itself).
        const Outcome sni = run(QStringLiteral("openssl s_client -proxy 127.0.0.1:3128 -connect localhost:%1 "
                                               "-servername elsewhere.example < /dev/null")
                                    .arg(m_https));
        QVERIFY2(!sni.out.contains("HTTP/1.1 200"), sni.out.constData());
        QTRY_VERIFY_WITH_TIMEOUT(
            reported(QStringLiteral("localhost:%1").arg(m_https), QStringLiteral("elsewhere.example")), 20000);
    }

    // A host that sends the request's headers back would hand the value to the command: the
    // answer is withheld, the connection ended, and it is reported.
    const Outcome echoed
        = run(QStringLiteral("curl -sS -H \"Authorization: Bearer $FORGE_TOKEN\" %1/echo-%2").arg(https, tag));
    QVERIFY2(echoed.exitCode != 0, echoed.out.constData());
    QVERIFY(!echoed.out.contains(m_value));
    QTRY_VERIFY_WITH_TIMEOUT(
        reported(QStringLiteral("localhost:%1").arg(m_https), QStringLiteral("back in its answer")), 20000);

    // Removed from the keychain, it stops working with the next request.
    const Outcome removed = ctl({ QStringLiteral("credential"), QStringLiteral("remove"), QStringLiteral("forge") });
    QVERIFY2(removed.exitCode == 0, removed.err.constData());
    const QString revoked = QStringLiteral("/revoked-") + tag;
    const Outcome after
        = run(QStringLiteral("curl -sS -H \"Authorization: Bearer $FORGE_TOKEN\" %1%2").arg(https, revoked));
    QVERIFY2(after.exitCode == 0, after.err.constData());
    got = received(revoked);
    QCOMPARE(got.size(), 1);
    QCOMPARE(header(got.first(), QStringLiteral("Authorization")).toUtf8(), "Bearer " + placeholder);

    // Whatever the command printed, the value never reached it.
    for (const Outcome &outcome : { seen, curl, otherHeader, leaked, fronted, pushed, echoed, after })
        QVERIFY(!outcome.out.contains(m_value) && !outcome.err.contains(m_value));
}

void TestCredentialInjection::upstreamProxy_data()
{
    QTest::addColumn<QString>("backend");
    QTest::addColumn<bool>("tls");
    QTest::newRow("tier 1, http proxy") << QStringLiteral("strongest") << false;
    QTest::newRow("tier 1, https proxy") << QStringLiteral("strongest") << true;
    QTest::newRow("tier 2, http proxy") << QStringLiteral("landlock-seccomp") << false;
    QTest::newRow("docker, http proxy") << QStringLiteral("docker") << false;
    QTest::newRow("docker, https proxy") << QStringLiteral("docker") << true;
    QTest::newRow("vm, http proxy") << QStringLiteral("vm") << false;
    QTest::newRow("vm, https proxy") << QStringLiteral("vm") << true;
}

void TestCredentialInjection::upstreamProxy()
{
    QFETCH(QString, backend);
    QFETCH(bool, tls);
    if (backend == QLatin1String("docker"))
        SANDBOX_DOCKER_RUNTIME_OR_SKIP(m_docker);
    activate(backend);
    const QString tag
        = QStringLiteral("upstream-%1-%2").arg(backend, tls ? QStringLiteral("tls") : QStringLiteral("plain"));
    const QString proxyUrl = tls ? QStringLiteral("https://localhost:%1").arg(m_upstreamHttps)
                                 : QStringLiteral("http://127.0.0.1:%1").arg(m_upstreamHttp);
    writePolicy(proxyUrl);
    const QByteArray proxyValue = sandbox::test::readFile(m_upstreamCredential).trimmed();
    QVERIFY(!proxyValue.isEmpty());
    QVERIFY2(
        ctl({ QStringLiteral("credential"), QStringLiteral("set"), QStringLiteral("forge") }, m_value + '\n').exitCode
            == 0,
        "cannot store the forge credential");
    const Outcome stored
        = ctl({ QStringLiteral("credential"), QStringLiteral("set"), QStringLiteral("corp-proxy") }, proxyValue + '\n');
    QVERIFY2(stored.exitCode == 0, stored.err.constData());
    auto connects = [this](const QString &target) {
        int count = 0;
        for (const QJsonObject &request : proxied()) {
            if (request.value(QStringLiteral("method")).toString() == QLatin1String("CONNECT")
                && request.value(QStringLiteral("target")).toString() == target
                && request.value(QStringLiteral("authorized")).toBool())
                ++count;
        }
        return count;
    };
    const QString httpsTarget = QStringLiteral("localhost:%1").arg(m_https);
    const QString httpTarget = QStringLiteral("127.0.0.1:%1").arg(m_http);
    const int httpsBefore = connects(httpsTarget);
    const int httpBefore = connects(httpTarget);
    const qsizetype first = proxied().size();

    // The injecting path: TLS terminated by the engine's proxy, the real host reached (and
    // its certificate verified) through the upstream proxy's tunnel; the value goes in.
    const QString bearer = QStringLiteral("/bearer-") + tag;
    const Outcome injected
        = run(QStringLiteral("curl -sS -H \"Authorization: Bearer $FORGE_TOKEN\" https://localhost:%1%2")
                  .arg(m_https)
                  .arg(bearer));
    QVERIFY2(injected.exitCode == 0 && injected.out == "ok 0\n", QByteArray(injected.out + injected.err).constData());
    QList<QJsonObject> got = received(bearer);
    QCOMPARE(got.size(), 1);
    QCOMPARE(header(got.first(), QStringLiteral("Authorization")), QString::fromUtf8("Bearer " + m_value));
    QCOMPARE(connects(httpsTarget), httpsBefore + 1);

    // Plain HTTP goes through a tunnel of the upstream proxy too, never directly.
    const QString plain = QStringLiteral("/plain-") + tag;
    const Outcome direct = run(QStringLiteral("curl -sS http://127.0.0.1:%1%2").arg(m_http).arg(plain));
    QVERIFY2(direct.exitCode == 0 && direct.out == "ok 0\n", QByteArray(direct.out + direct.err).constData());
    QCOMPARE(received(plain).size(), 1);
    QCOMPARE(connects(httpTarget), httpBefore + 1);
    // Through the listener the policy names: TLS to the proxy itself for https.
    const QList<QJsonObject> asked = proxied().mid(first);
    QCOMPARE(asked.size(), 2);
    for (const QJsonObject &request : asked)
        QCOMPARE(request.value(QStringLiteral("tls")).toBool(), tls);

    // A domain the policy does not allow never reaches the upstream proxy, which would
    // open a tunnel to it: the engine's proxy decides first.
    const qsizetype before = proxied().size();
    const Outcome denied = run(QStringLiteral("curl -sS http://127.0.0.2:%1/denied-%2").arg(m_http).arg(tag));
    QVERIFY2(denied.exitCode != 0 || denied.out.contains("sandbox proxy"), denied.out.constData());
    QVERIFY(received(QStringLiteral("/denied-") + tag).isEmpty());
    QCOMPARE(proxied().size(), before);

    // The upstream proxy's credential never enters the sandbox.
    const Outcome environment = run(QStringLiteral("cat /proc/self/environ; env"));
    QVERIFY2(environment.exitCode == 0, environment.err.constData());
    QVERIFY(!environment.out.contains(proxyValue) && !environment.out.contains(proxyValue.toBase64()));

    // Docker: the container's proxy channel is the engine's, so the upstream's refusals and
    // failures reach the command and the events as in tier 1; a policy with another upstream
    // proxy (URL or credential) gets another container, whose channel chains to that one.
    if ((backend == QLatin1String("strongest") || backend == QLatin1String("docker") || backend == QLatin1String("vm"))
        && !tls) {
        // A credential the upstream proxy does not accept: a refusal saying so, in the
        // answer (curl prints the body of a plain HTTP answer) and among the events.
        QVERIFY(
            ctl({ QStringLiteral("credential"), QStringLiteral("set"), QStringLiteral("corp-proxy") }, "alice:wrong\n")
                .exitCode
            == 0);
        const QString wrong = QStringLiteral("/wrong-") + tag;
        const Outcome refused = run(QStringLiteral("curl -sS http://127.0.0.1:%1%2").arg(m_http).arg(wrong));
        QVERIFY2(refused.out.contains("wants credentials it was not given or did not accept"),
                 QByteArray(refused.out + refused.err).constData());
        QVERIFY(received(wrong).isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(reported(httpTarget, QStringLiteral("407"), QStringLiteral("network")), 20000);

        // No value at all: refused before the upstream proxy is asked, naming what to do.
        QVERIFY(ctl({ QStringLiteral("credential"), QStringLiteral("remove"), QStringLiteral("corp-proxy") }).exitCode
                == 0);
        const qsizetype beforeMissing = proxied().size();
        const Outcome missing = run(QStringLiteral("curl -sS http://127.0.0.1:%1/missing-%2").arg(m_http).arg(tag));
        QVERIFY2(missing.out.contains("sandboxctl credential set corp-proxy"),
                 QByteArray(missing.out + missing.err).constData());
        QCOMPARE(proxied().size(), beforeMissing);

        // Another credential name for the same proxy: read for the channel of this policy,
        // never the previous policy's one (it has no value, so nothing reaches the proxy).
        QVERIFY(ctl({ QStringLiteral("credential"), QStringLiteral("set"), QStringLiteral("corp-proxy") },
                    proxyValue + '\n')
                    .exitCode
                == 0);
        writePolicy(proxyUrl, QStringLiteral("corp-proxy-other"));
        const Outcome other = run(QStringLiteral("curl -sS http://127.0.0.1:%1/other-%2").arg(m_http).arg(tag));
        QVERIFY2(other.out.contains("sandboxctl credential set corp-proxy-other"),
                 QByteArray(other.out + other.err).constData());
        QCOMPARE(proxied().size(), beforeMissing);

        // An upstream proxy nobody listens on: the connection's answer says which and why.
        QTcpServer closed;
        QVERIFY(closed.listen(QHostAddress::LocalHost));
        const quint16 nowhere = closed.serverPort();
        closed.close();
        writePolicy(QStringLiteral("http://127.0.0.1:%1").arg(nowhere));
        QVERIFY(ctl({ QStringLiteral("credential"), QStringLiteral("set"), QStringLiteral("corp-proxy") },
                    proxyValue + '\n')
                    .exitCode
                == 0);
        const Outcome unreachable
            = run(QStringLiteral("curl -sS http://127.0.0.1:%1/unreachable-%2").arg(m_http).arg(tag));
        QVERIFY2(unreachable.out.contains(
                     QStringLiteral("cannot connect to the upstream proxy 127.0.0.1:%1").arg(nowhere).toUtf8()),
                 QByteArray(unreachable.out + unreachable.err).constData());
    }

    // Whatever the command printed, neither value reached it.
    for (const Outcome &outcome : { injected, direct, denied, environment })
        QVERIFY(!outcome.out.contains(m_value) && !outcome.out.contains(proxyValue)
                && !outcome.err.contains(proxyValue));
    writePolicy();
    ctl({ QStringLiteral("credential"), QStringLiteral("remove"), QStringLiteral("corp-proxy") });
}

QTEST_GUILESS_MAIN(TestCredentialInjection)
#include "tst_credential_injection.moc"
