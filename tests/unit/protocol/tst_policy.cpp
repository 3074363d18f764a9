#include "ProtocolTestSupport.h"
#include "protocol/BackendDescriptor.h"
#include "protocol/Policy.h"

#include <QJsonArray>
#include <QTest>

using namespace sandbox;
using sandbox::test::jsonValue;

namespace {

// A policy document with one list entry substituted (data rows name the list and entry).
QJsonObject policyWith(const QString &section, const QString &list, const QJsonValue &entry)
{
    QJsonObject json = Policy::defaults().toJson();
    QJsonObject inner = json.value(section).toObject();
    QJsonArray array = inner.value(list).toArray();
    array.append(entry);
    inner.insert(list, array);
    json.insert(section, inner);
    return json;
}

} // namespace

class TestPolicy final : public QObject
{
    Q_OBJECT

private slots:
    void defaultsAreCareful();
    void roundTrip();
    void optionalSections();
    void paths_data();
    void paths();
    void inside_data();
    void inside();
    void domains_data();
    void domains();
    void rejects_data();
    void rejects();
    void sizeBounds();
    void collectsSeveralProblems();
    void modeNames();
    void credentialsRoundTrip();
    void credentials_data();
    void credentials();
    void credentialsRestrictTheirDimension();
    void sshAgentRoundTrip();
    void sshAgent_data();
    void sshAgent();
    void sshAgentRestrictsItsDimension();
    void upstreamProxyRoundTrip();
    void upstreamProxy_data();
    void upstreamProxy();
    void upstreamProxyRestrictsItsDimension();
};

void TestPolicy::defaultsAreCareful()
{
    const Policy policy = Policy::defaults();
    QVERIFY(policy.validate().ok());
    QCOMPARE(policy.readable, QStringList{ QStringLiteral("/") });
    const QStringList credentialStores{
        QStringLiteral("~/.ssh"),
        QStringLiteral("~/.gnupg"),
        QStringLiteral("~/.aws"),
        QStringLiteral("~/.config/gcloud"),
        QStringLiteral("~/.kube"),
        QStringLiteral("~/.docker"),
        QStringLiteral("~/.password-store"),
        QStringLiteral("~/.netrc"),
        QStringLiteral("~/.git-credentials"),
        QStringLiteral("~/.local/share/keyrings"),
        QStringLiteral("~/.mozilla"),
        QStringLiteral("~/.config/google-chrome"),
        QStringLiteral("~/.config/chromium"),
    };
    for (const QString &store : credentialStores)
        QVERIFY2(policy.denied.contains(store), qPrintable(store));
    QCOMPARE(policy.writable, (QStringList{ QStringLiteral("${workspace}"), QStringLiteral("/tmp") }));
    QVERIFY(policy.readOnly.contains(QStringLiteral("${workspace}/.git/hooks")));
    QVERIFY(policy.readOnly.contains(QStringLiteral("${workspace}/.git/config")));
    QCOMPARE(policy.network, Policy::NetworkMode::None);
    QVERIFY(policy.allowedDomains.isEmpty());
    QCOMPARE(policy.hostExecution, Policy::HostExecution::Deny);
    QCOMPARE(policy.processes, Policy::ProcessConfinement::Isolated);
}

void TestPolicy::roundTrip()
{
    Policy policy = Policy::defaults();
    QCOMPARE(Policy::fromJson(policy.toJson()).value(), policy);
    policy.network = Policy::NetworkMode::Allowlist;
    policy.allowedDomains
        = { QStringLiteral("example.com"), QStringLiteral("*.github.com"), QStringLiteral("registry.npmjs.org:443") };
    policy.deniedDomains = { QStringLiteral("evil.example.com") };
    policy.hostExecution = Policy::HostExecution::Ask;
    policy.processes = Policy::ProcessConfinement::Shared;
    policy.writable.append(QStringLiteral("~/.cache/pip"));
    const Result<Policy> again = Policy::fromJson(policy.toJson());
    QVERIFY2(again.ok(), qPrintable(again.ok() ? QString() : again.error().toString()));
    QCOMPARE(again.value(), policy);
    QCOMPARE(again.value().toJson().value(QStringLiteral("network")).toObject().value(QStringLiteral("mode")),
             QJsonValue(QStringLiteral("allowlist")));
}

void TestPolicy::optionalSections()
{
    // Lists and confinement may be left out; confinement then stays isolated.
    const Result<Policy> minimal
        = Policy::fromJson(jsonValue(R"({"filesystem":{},"network":{"mode":"full"},"hostExecution":"allow"})"));
    QVERIFY(minimal.ok());
    QCOMPARE(minimal.value().processes, Policy::ProcessConfinement::Isolated);
    QCOMPARE(minimal.value().network, Policy::NetworkMode::Full);
    QVERIFY(minimal.value().readable.isEmpty());
}

void TestPolicy::paths_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("problem"); // empty: accepted
    QTest::newRow("absolute") << "/usr/share" << QString();
    QTest::newRow("root") << "/" << QString();
    QTest::newRow("home") << "~/.cache" << QString();
    QTest::newRow("home itself") << "~" << QString();
    QTest::newRow("workspace") << "${workspace}" << QString();
    QTest::newRow("inside workspace") << "${workspace}/.git/hooks" << QString();
    QTest::newRow("spaces") << "~/Library/Application Support/x" << QString();
    QTest::newRow("dots in names") << "/a/..b/c.." << QString();
    QTest::newRow("relative") << "src"
                              << "must be absolute, start with ~/ or start with ${workspace}";
    QTest::newRow("dot relative") << "./src"
                                  << "must be absolute";
    QTest::newRow("other user home") << "~root/.ssh"
                                     << "must be absolute";
    QTest::newRow("workspace glued") << "${workspace}x"
                                     << "must be absolute";
    QTest::newRow("dotdot") << "/tmp/../etc"
                            << "must not contain \"..\" components";
    QTest::newRow("dotdot at end") << "${workspace}/.."
                                   << "must not contain \"..\" components";
    QTest::newRow("home dotdot") << "~/../root"
                                 << "must not contain \"..\"";
    QTest::newRow("nul") << QStringLiteral("/tmp/a") + QChar(0) + QStringLiteral("b") << "contains a NUL character";
    QTest::newRow("newline") << "/tmp/a\nb"
                             << "contains a control character";
    QTest::newRow("empty") << QString() << "must not be empty";
    QTest::newRow("other variable") << "${workspace}/${HOME}"
                                    << "unknown variable";
    QTest::newRow("variable later") << "/home/${USER}"
                                    << "unknown variable";
    QTest::newRow("too long") << QStringLiteral("/") + QString(4096, QLatin1Char('a')) << "is too long";
}

void TestPolicy::paths()
{
    QFETCH(QString, path);
    QFETCH(QString, problem);
    const Result<Policy> decoded
        = Policy::fromJson(policyWith(QStringLiteral("filesystem"), QStringLiteral("denied"), path));
    const qsizetype index = Policy::defaults().denied.size();
    if (problem.isEmpty()) {
        QVERIFY2(decoded.ok(), qPrintable(decoded.ok() ? QString() : decoded.error().toString()));
        QCOMPARE(decoded.value().denied.last(), path);
    } else {
        QVERIFY(!decoded.ok());
        SANDBOX_EXPECT_ERROR(decoded.error(), QStringLiteral("policy.filesystem.denied[%1]").arg(index), problem);
        QVERIFY(Policy::pathProblem(path).contains(problem));
    }
}

void TestPolicy::inside_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("root");
    QTest::addColumn<bool>("inside");
    QTest::newRow("itself") << "/a/b"
                            << "/a/b" << true;
    QTest::newRow("below") << "/a/b/c"
                           << "/a/b" << true;
    QTest::newRow("sibling sharing a prefix") << "/a/bc"
                                              << "/a/b" << false;
    QTest::newRow("parent") << "/a"
                            << "/a/b" << false;
    QTest::newRow("root itself") << "/"
                                 << "/" << true;
    QTest::newRow("below root") << "/etc/passwd"
                                << "/" << true;
    // A path that names no place (unresolvable, or not given) is inside nothing, "/" included.
    QTest::newRow("relative in root") << "etc"
                                      << "/" << false;
    QTest::newRow("empty in root") << QString() << "/" << false;
    QTest::newRow("relative in relative") << "a/b"
                                          << "a" << true;
}

void TestPolicy::inside()
{
    QFETCH(QString, path);
    QFETCH(QString, root);
    QFETCH(bool, inside);
    QCOMPARE(Policy::isInside(path, root), inside);
}

void TestPolicy::domains_data()
{
    QTest::addColumn<QString>("domain");
    QTest::addColumn<QString>("problem"); // empty: accepted
    QTest::newRow("plain") << "example.com" << QString();
    QTest::newRow("wildcard") << "*.example.com" << QString();
    QTest::newRow("port") << "example.com:8443" << QString();
    QTest::newRow("wildcard port") << "*.example.com:443" << QString();
    QTest::newRow("single label") << "localhost" << QString();
    QTest::newRow("digits") << "127.0.0.1" << QString();
    QTest::newRow("hyphen") << "my-host.example.com" << QString();
    QTest::newRow("lone star") << "*"
                               << "a lone \"*\" would allow every domain";
    QTest::newRow("lone star port") << "*:443"
                                    << "a lone \"*\"";
    QTest::newRow("scheme") << "https://example.com"
                            << "not a URL";
    QTest::newRow("path") << "example.com/login"
                          << "without a path";
    QTest::newRow("space") << "example .com"
                           << "must not contain whitespace";
    QTest::newRow("tab") << "example.com\t"
                         << "must not contain whitespace";
    QTest::newRow("empty") << QString() << "must not be empty";
    QTest::newRow("port zero") << "example.com:0"
                               << "invalid port";
    QTest::newRow("port too big") << "example.com:65536"
                                  << "invalid port";
    QTest::newRow("port letters") << "example.com:http"
                                  << "invalid port";
    QTest::newRow("empty port") << "example.com:"
                                << "invalid port";
    QTest::newRow("inner star") << "ex*ample.com"
                                << "only allowed as a leading";
    QTest::newRow("star suffix") << "example.*"
                                 << "only allowed as a leading";
    QTest::newRow("empty label") << "example..com"
                                 << "is not a valid domain name";
    QTest::newRow("trailing dot") << "example.com."
                                  << "is not a valid domain name";
    QTest::newRow("leading hyphen") << "-example.com"
                                    << "is not a valid domain name";
    QTest::newRow("underscore") << "ex_ample.com"
                                << "is not a valid domain name";
    QTest::newRow("ipv6") << "[::1]:80"
                          << "is not a valid domain name";
    QTest::newRow("long label") << QString(64, QLatin1Char('a')) + QStringLiteral(".com") << "is not a valid domain";
    QTest::newRow("too long") << QString(300, QLatin1Char('a')) << "is too long";
}

void TestPolicy::domains()
{
    QFETCH(QString, domain);
    QFETCH(QString, problem);
    for (const QString &list : { QStringLiteral("allowedDomains"), QStringLiteral("deniedDomains") }) {
        const Result<Policy> decoded = Policy::fromJson(policyWith(QStringLiteral("network"), list, domain));
        if (problem.isEmpty()) {
            QVERIFY2(decoded.ok(), qPrintable(decoded.ok() ? QString() : decoded.error().toString()));
        } else {
            QVERIFY(!decoded.ok());
            SANDBOX_EXPECT_ERROR(decoded.error(), QStringLiteral("policy.network.%1[0]").arg(list), problem);
        }
    }
}

void TestPolicy::rejects_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("message");
    QTest::newRow("not an object") << QByteArray(R"("deny")") << "policy"
                                   << "expected an object, got a string";
    QTest::newRow("mode type") << QByteArray(R"({"filesystem":{},"network":{"mode":1},"hostExecution":"deny"})")
                               << "policy.network.mode"
                               << "expected a string, got a number";
    QTest::newRow("unknown mode") << QByteArray(R"({"filesystem":{},"network":{"mode":"some"},"hostExecution":"deny"})")
                                  << "policy.network.mode"
                                  << "unknown network mode \"some\"; expected none, allowlist or full";
    QTest::newRow("missing mode") << QByteArray(R"({"filesystem":{},"network":{},"hostExecution":"deny"})")
                                  << "policy.network.mode"
                                  << "missing required key";
    QTest::newRow("missing network") << QByteArray(R"({"filesystem":{},"hostExecution":"deny"})") << "policy.network"
                                     << "missing required key";
    QTest::newRow("missing filesystem") << QByteArray(R"({"network":{"mode":"none"},"hostExecution":"deny"})")
                                        << "policy.filesystem"
                                        << "missing required key";
    QTest::newRow("missing host execution")
        << QByteArray(R"({"filesystem":{},"network":{"mode":"none"}})") << "policy.hostExecution"
        << "missing required key";
    QTest::newRow("unknown host execution")
        << QByteArray(R"({"filesystem":{},"network":{"mode":"none"},"hostExecution":"sometimes"})")
        << "policy.hostExecution"
        << "unknown mode \"sometimes\"; expected deny, ask or allow";
    QTest::newRow("host execution bool") << QByteArray(
        R"({"filesystem":{},"network":{"mode":"none"},"hostExecution":true})")
                                         << "policy.hostExecution"
                                         << "expected a string, got a boolean";
    QTest::newRow("unknown confinement") << QByteArray(
        R"({"filesystem":{},"confinement":{"processes":"none"},"network":{"mode":"none"},"hostExecution":"deny"})")
                                         << "policy.confinement.processes"
                                         << "unknown confinement \"none\"";
    QTest::newRow("list type") << QByteArray(
        R"({"filesystem":{"readable":"/"},"network":{"mode":"none"},"hostExecution":"deny"})")
                               << "policy.filesystem.readable"
                               << "expected an array, got a string";
    QTest::newRow("entry type") << QByteArray(
        R"({"filesystem":{"writable":["/tmp",7]},"network":{"mode":"none"},"hostExecution":"deny"})")
                                << "policy.filesystem.writable[1]"
                                << "expected a string, got a number";
    QTest::newRow("unknown fs key") << QByteArray(
        R"({"filesystem":{"executable":[]},"network":{"mode":"none"},"hostExecution":"deny"})")
                                    << "policy.filesystem.executable"
                                    << "unknown key";
    QTest::newRow("unknown top key") << QByteArray(
        R"({"filesystem":{},"network":{"mode":"none"},"hostExecution":"deny","gpu":true})")
                                     << "policy.gpu"
                                     << "unknown key";
    QTest::newRow("unknown network key") << QByteArray(
        R"({"filesystem":{},"network":{"mode":"none","proxy":"x"},"hostExecution":"deny"})")
                                         << "policy.network.proxy"
                                         << "unknown key";
}

void TestPolicy::rejects()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, where);
    QFETCH(QString, message);
    const Result<Policy> decoded = Policy::fromJson(jsonValue(json));
    QVERIFY(!decoded.ok());
    SANDBOX_EXPECT_ERROR(decoded.error(), where, message);
}

void TestPolicy::sizeBounds()
{
    Policy policy = Policy::defaults();
    for (int i = 0; i < Policy::maxEntries; ++i)
        policy.denied.append(QStringLiteral("/d/%1").arg(i));
    Status status = policy.validate();
    QVERIFY(!status.ok());
    SANDBOX_EXPECT_ERROR(status.error(), QStringLiteral("policy.filesystem.denied"),
                         QStringLiteral("too many entries"));
    QVERIFY(!Policy::fromJson(policy.toJson()).ok());

    policy = Policy::defaults();
    for (int i = 0; i < Policy::maxEntries + 1; ++i)
        policy.allowedDomains.append(QStringLiteral("h%1.example.com").arg(i));
    status = policy.validate();
    QVERIFY(!status.ok());
    SANDBOX_EXPECT_ERROR(status.error(), QStringLiteral("policy.network.allowedDomains"),
                         QStringLiteral("too many entries"));

    // A string beyond the reader's limit is refused before any path rule runs.
    QJsonObject json = policyWith(QStringLiteral("filesystem"), QStringLiteral("readable"),
                                  QString(QStringLiteral("/") + QString(2 * 1024 * 1024, QLatin1Char('a'))));
    const Result<Policy> decoded = Policy::fromJson(json);
    QVERIFY(!decoded.ok());
    QVERIFY(decoded.error().message.contains(QStringLiteral("too long")));
}

void TestPolicy::collectsSeveralProblems()
{
    Policy policy = Policy::defaults();
    policy.readable.append(QStringLiteral("relative"));
    policy.allowedDomains.append(QStringLiteral("*"));
    const Status status = policy.validate(QStringLiteral("stored"));
    QVERIFY(!status.ok());
    SANDBOX_EXPECT_ERROR(status.error(), QStringLiteral("stored.filesystem.readable[1]"), QStringLiteral("absolute"));
    QCOMPARE(status.error().details.size(), 2);
    QCOMPARE(status.error().details.at(1).where, QStringLiteral("stored.network.allowedDomains[0]"));
}

void TestPolicy::modeNames()
{
    for (auto mode : { Policy::NetworkMode::None, Policy::NetworkMode::Allowlist, Policy::NetworkMode::Full })
        QCOMPARE(Policy::networkModeFromName(Policy::networkModeName(mode)), std::optional(mode));
    for (auto mode : { Policy::HostExecution::Deny, Policy::HostExecution::Ask, Policy::HostExecution::Allow })
        QCOMPARE(Policy::hostExecutionFromName(Policy::hostExecutionName(mode)), std::optional(mode));
    QCOMPARE(Policy::networkModeName(Policy::NetworkMode::Allowlist), QStringLiteral("allowlist"));
    QCOMPARE(Policy::hostExecutionName(Policy::HostExecution::Ask), QStringLiteral("ask"));
    QVERIFY(!Policy::networkModeFromName(QStringLiteral("None")).has_value());
}

namespace {

QJsonObject policyWithCredentials(const QByteArray &credentials, const QByteArray &network = R"({"mode":"allowlist"})")
{
    return jsonValue(R"({"filesystem":{},"network":)" + network + R"(,"hostExecution":"deny","credentials":)"
                     + credentials + "}")
        .toObject();
}

} // namespace

void TestPolicy::credentialsRoundTrip()
{
    Policy policy = Policy::defaults();
    PolicyCredential github;
    github.name = QStringLiteral("github");
    github.env = QStringLiteral("GITHUB_TOKEN");
    github.hosts = { QStringLiteral("github.com"), QStringLiteral("*.github.com:443") };
    github.headers = { QStringLiteral("Authorization") };
    github.excludeHosts = { QStringLiteral("pinned.github.com") };
    PolicyCredential npm;
    npm.name = QStringLiteral("npm.registry");
    npm.hosts = { QStringLiteral("registry.npmjs.org") };
    policy.network = Policy::NetworkMode::Allowlist;
    policy.allowedDomains = { QStringLiteral("github.com") };
    policy.credentials = { github, npm };
    policy.extraCaCertificates = { QStringLiteral("/etc/corp/root.pem"), QStringLiteral("~/certs/proxy.pem") };
    const Result<Policy> again = Policy::fromJson(policy.toJson());
    QVERIFY2(again.ok(), qPrintable(again.ok() ? QString() : again.error().toString()));
    QCOMPARE(again.value(), policy);
    QVERIFY(again.value().credential(QStringLiteral("npm.registry")));
    QVERIFY(again.value().credential(QStringLiteral("npm.registry"))->env.isNull());
    QCOMPARE(again.value().credential(QStringLiteral("github"))->headers,
             QStringList{ QStringLiteral("Authorization") });
    QVERIFY(!again.value().credential(QStringLiteral("other")));
    // A policy without them reads and writes as before: no new keys.
    const QJsonObject plain = Policy::defaults().toJson();
    QVERIFY(!plain.contains(QStringLiteral("credentials")));
    QVERIFY(!plain.value(QStringLiteral("network")).toObject().contains(QStringLiteral("extraCaCertificates")));
}

void TestPolicy::credentials_data()
{
    QTest::addColumn<QByteArray>("credentials");
    QTest::addColumn<QByteArray>("network");
    QTest::addColumn<QString>("where"); // empty: accepted
    QTest::addColumn<QString>("message");
    const QByteArray net = R"({"mode":"allowlist"})";
    QTest::newRow("minimal") << QByteArray(R"([{"name":"gh","hosts":["github.com"]}])") << net << QString()
                             << QString();
    QTest::newRow("everything") << QByteArray(
        R"([{"name":"gh","env":"GH_TOKEN","hosts":["*.github.com:443"],"headers":["Authorization","X-Token"],)"
        R"("excludeHosts":["uploads.github.com"]}])")
                                << net << QString() << QString();
    QTest::newRow("not an array") << QByteArray(R"({"name":"gh"})") << net << "policy.credentials"
                                  << "expected an array, got an object";
    QTest::newRow("entry not an object") << QByteArray(R"(["gh"])") << net << "policy.credentials[0]"
                                         << "expected an object, got a string";
    QTest::newRow("unknown key") << QByteArray(R"([{"name":"gh","hosts":["a.com"],"value":"secret"}])") << net
                                 << "policy.credentials[0].value"
                                 << "unknown key";
    QTest::newRow("missing name") << QByteArray(R"([{"hosts":["a.com"]}])") << net << "policy.credentials[0].name"
                                  << "missing required key";
    QTest::newRow("missing hosts") << QByteArray(R"([{"name":"gh"}])") << net << "policy.credentials[0].hosts"
                                   << "missing required key";
    QTest::newRow("no hosts") << QByteArray(R"([{"name":"gh","hosts":[]}])") << net << "policy.credentials[0].hosts"
                              << "at least one host";
    QTest::newRow("host type") << QByteArray(R"([{"name":"gh","hosts":[443]}])") << net
                               << "policy.credentials[0].hosts[0]"
                               << "expected a string, got a number";
    QTest::newRow("bad host") << QByteArray(R"([{"name":"gh","hosts":["a.com","https://b.com"]}])") << net
                              << "policy.credentials[0].hosts[1]"
                              << "not a URL";
    QTest::newRow("lone star host") << QByteArray(R"([{"name":"gh","hosts":["*"]}])") << net
                                    << "policy.credentials[0].hosts[0]"
                                    << "a lone \"*\"";
    QTest::newRow("bad exclude") << QByteArray(R"([{"name":"gh","hosts":["a.com"],"excludeHosts":["a b"]}])") << net
                                 << "policy.credentials[0].excludeHosts[0]"
                                 << "whitespace";
    QTest::newRow("empty name") << QByteArray(R"([{"name":"","hosts":["a.com"]}])") << net
                                << "policy.credentials[0].name"
                                << "must not be empty";
    QTest::newRow("name with slash") << QByteArray(R"([{"name":"a/b","hosts":["a.com"]}])") << net
                                     << "policy.credentials[0].name"
                                     << "may only contain";
    QTest::newRow("name type") << QByteArray(R"([{"name":7,"hosts":["a.com"]}])") << net << "policy.credentials[0].name"
                               << "expected a string, got a number";
    QTest::newRow("duplicate name") << QByteArray(
        R"([{"name":"gh","hosts":["a.com"]},{"name":"gh","hosts":["b.com"]}])")
                                    << net << "policy.credentials[1].name"
                                    << "listed twice";
    QTest::newRow("duplicate env") << QByteArray(
        R"([{"name":"a","env":"TOKEN","hosts":["a.com"]},{"name":"b","env":"TOKEN","hosts":["b.com"]}])")
                                   << net << "policy.credentials[1].env"
                                   << "already given to credentials[0]";
    QTest::newRow("empty env") << QByteArray(R"([{"name":"gh","env":"","hosts":["a.com"]}])") << net
                               << "policy.credentials[0].env"
                               << "must not be empty";
    QTest::newRow("env with equals") << QByteArray(R"([{"name":"gh","env":"A=B","hosts":["a.com"]}])") << net
                                     << "policy.credentials[0].env"
                                     << "is not a variable name";
    QTest::newRow("env digit") << QByteArray(R"([{"name":"gh","env":"1A","hosts":["a.com"]}])") << net
                               << "policy.credentials[0].env"
                               << "must not start with a digit";
    QTest::newRow("env PATH") << QByteArray(R"([{"name":"gh","env":"PATH","hosts":["a.com"]}])") << net
                              << "policy.credentials[0].env"
                              << "sets itself";
    QTest::newRow("env loader") << QByteArray(R"([{"name":"gh","env":"LD_PRELOAD","hosts":["a.com"]}])") << net
                                << "policy.credentials[0].env"
                                << "sets itself";
    QTest::newRow("env CA bundle") << QByteArray(R"([{"name":"gh","env":"SSL_CERT_FILE","hosts":["a.com"]}])") << net
                                   << "policy.credentials[0].env"
                                   << "sets itself";
    QTest::newRow("env proxy") << QByteArray(R"([{"name":"gh","env":"https_proxy","hosts":["a.com"]}])") << net
                               << "policy.credentials[0].env"
                               << "sets itself";
    QTest::newRow("header type") << QByteArray(R"([{"name":"gh","hosts":["a.com"],"headers":"Authorization"}])") << net
                                 << "policy.credentials[0].headers"
                                 << "expected an array, got a string";
    QTest::newRow("header with colon") << QByteArray(
        R"([{"name":"gh","hosts":["a.com"],"headers":["Authorization:"]}])")
                                       << net << "policy.credentials[0].headers[0]"
                                       << "not an HTTP header name";
    QTest::newRow("host header") << QByteArray(R"([{"name":"gh","hosts":["a.com"],"headers":["HOST"]}])") << net
                                 << "policy.credentials[0].headers[0]"
                                 << "never rewritten";
    QTest::newRow("credentials without allowed domains") << QByteArray(R"([{"name":"gh","hosts":["github.com"]}])")
                                                         << QByteArray(R"({"mode":"full"})") << "policy.credentials"
                                                         << "need the network mode \"allowlist\"";
    QTest::newRow("ca paths") << QByteArray("[]")
                              << QByteArray(R"({"mode":"full","extraCaCertificates":["/etc/c.pem"]})") << QString()
                              << QString();
    QTest::newRow("ca path type") << QByteArray("[]") << QByteArray(R"({"mode":"full","extraCaCertificates":"/c.pem"})")
                                  << "policy.network.extraCaCertificates"
                                  << "expected an array, got a string";
    QTest::newRow("ca path relative") << QByteArray("[]")
                                      << QByteArray(R"({"mode":"full","extraCaCertificates":["c.pem"]})")
                                      << "policy.network.extraCaCertificates[0]"
                                      << "must be absolute";
    QTest::newRow("ca path in workspace")
        << QByteArray("[]") << QByteArray(R"({"mode":"full","extraCaCertificates":["${workspace}/ca.pem"]})")
        << "policy.network.extraCaCertificates[0]"
        << "commands can write there";
}

void TestPolicy::credentials()
{
    QFETCH(QByteArray, credentials);
    QFETCH(QByteArray, network);
    QFETCH(QString, where);
    QFETCH(QString, message);
    const Result<Policy> decoded = Policy::fromJson(policyWithCredentials(credentials, network));
    if (where.isEmpty()) {
        QVERIFY2(decoded.ok(), qPrintable(decoded.ok() ? QString() : decoded.error().toString()));
        QCOMPARE(Policy::fromJson(decoded.value().toJson()).value(), decoded.value());
        return;
    }
    QVERIFY(!decoded.ok());
    SANDBOX_EXPECT_ERROR(decoded.error(), where, message);
}

void TestPolicy::credentialsRestrictTheirDimension()
{
    Policy policy = Policy::defaults();
    QVERIFY(!policy.restrictedDimensions().contains(QStringLiteral("credentials")));
    PolicyCredential credential;
    credential.name = QStringLiteral("gh");
    credential.hosts = { QStringLiteral("github.com") };
    policy.credentials = { credential };
    QVERIFY(policy.restrictedDimensions().contains(QStringLiteral("credentials")));
    // A credential-bearing policy with everything else open still needs a backend that injects.
    policy.writable = { QStringLiteral("/") };
    policy.denied.clear();
    policy.readOnly.clear();
    policy.network = Policy::NetworkMode::Full;
    policy.hostExecution = Policy::HostExecution::Allow;
    policy.processes = Policy::ProcessConfinement::Shared;
    QCOMPARE(policy.restrictedDimensions(), QStringList{ QStringLiteral("credentials") });
}

namespace {

const QString keyA = QStringLiteral("SHA256:ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLs");
const QString keyB = QStringLiteral("SHA256:PiPoFgA5WUoziU9lZOGxNIu9egCI1CxKy3PurtWcAJ0");

QJsonObject policyWithSshAgent(const QByteArray &agent)
{
    return jsonValue(R"({"filesystem":{},"network":{"mode":"none"},"hostExecution":"deny","sshAgent":)" + agent + "}")
        .toObject();
}

} // namespace

void TestPolicy::sshAgentRoundTrip()
{
    Policy policy = Policy::defaults();
    PolicySshAgent agent;
    agent.keys = { keyA, keyB };
    agent.hosts = { QStringLiteral("github.com"), QStringLiteral("git.example.org:2222") };
    agent.confirm = PolicySshAgent::Confirm::FirstUse;
    policy.sshAgent = agent;
    const Result<Policy> again = Policy::fromJson(policy.toJson());
    QVERIFY2(again.ok(), qPrintable(again.ok() ? QString() : again.error().toString()));
    QCOMPARE(again.value(), policy);
    QCOMPARE(policy.toJson().value(QStringLiteral("sshAgent")).toObject().value(QStringLiteral("confirm")).toString(),
             QStringLiteral("first-use"));
    // Absent: no agent, and a policy without one reads and writes as before.
    QVERIFY(!Policy::defaults().sshAgent.has_value());
    QVERIFY(!Policy::defaults().toJson().contains(QStringLiteral("sshAgent")));
    QVERIFY(!Policy::fromJson(Policy::defaults().toJson()).value().sshAgent.has_value());
    // Left out, confirm asks every time; hosts left out means signing only.
    const Result<Policy> minimal = Policy::fromJson(policyWithSshAgent(R"({"keys":[")" + keyA.toUtf8() + R"("]})"));
    QVERIFY(minimal.ok());
    QCOMPARE(minimal.value().sshAgent->confirm, PolicySshAgent::Confirm::Always);
    QVERIFY(minimal.value().sshAgent->hosts.isEmpty());
}

void TestPolicy::sshAgent_data()
{
    QTest::addColumn<QByteArray>("agent");
    QTest::addColumn<QString>("where"); // empty: accepted
    QTest::addColumn<QString>("message");
    const QByteArray a = keyA.toUtf8();
    const QByteArray b = keyB.toUtf8();
    QTest::newRow("everything") << QByteArray(R"({"keys":[")" + a + R"(",")" + b
                                              + R"("],"hosts":["github.com","*.example.org:2222"],"confirm":"never"})")
                                << QString() << QString();
    QTest::newRow("first-use") << QByteArray(R"({"keys":[")" + a + R"("],"confirm":"first-use"})") << QString()
                               << QString();
    QTest::newRow("not an object") << QByteArray(R"([")" + a + R"("])") << "policy.sshAgent"
                                   << "expected an object, got an array";
    QTest::newRow("null") << QByteArray("null") << "policy.sshAgent"
                          << "expected an object, got null";
    QTest::newRow("unknown key") << QByteArray(R"({"keys":[")" + a + R"("],"forward":true})")
                                 << "policy.sshAgent.forward"
                                 << "unknown key";
    QTest::newRow("missing keys") << QByteArray(R"({"hosts":["github.com"]})") << "policy.sshAgent.keys"
                                  << "missing required key";
    QTest::newRow("no keys") << QByteArray(R"({"keys":[]})") << "policy.sshAgent.keys"
                             << "at least one key";
    QTest::newRow("keys not an array") << QByteArray(R"({"keys":")" + a + R"("})") << "policy.sshAgent.keys"
                                       << "expected an array, got a string";
    QTest::newRow("key type") << QByteArray(R"({"keys":[")" + a + R"(",7]})") << "policy.sshAgent.keys[1]"
                              << "expected a string, got a number";
    QTest::newRow("md5 key") << QByteArray(R"({"keys":[")" + a
                                           + R"(","MD5:16:27:ac:a5:76:28:2d:36:63:1b:56:4d:eb:df:a6:48"]})")
                             << "policy.sshAgent.keys[1]"
                             << "is an MD5 fingerprint";
    QTest::newRow("no prefix") << QByteArray(R"({"keys":["ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLs"]})")
                               << "policy.sshAgent.keys[0]"
                               << "does not start with \"SHA256:\"";
    QTest::newRow("lower-case prefix") << QByteArray(
        R"({"keys":["sha256:ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLs"]})")
                                       << "policy.sshAgent.keys[0]"
                                       << "does not start with \"SHA256:\"";
    QTest::newRow("padded") << QByteArray(R"({"keys":["SHA256:ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLs="]})")
                            << "policy.sshAgent.keys[0]"
                            << "44 characters after";
    QTest::newRow("short") << QByteArray(R"({"keys":["SHA256:ypeBEsobvcr6wjGzmiPcTaeG7"]})")
                           << "policy.sshAgent.keys[0]"
                           << "25 characters after";
    QTest::newRow("url-safe digits") << QByteArray(R"({"keys":["SHA256:ypeBEsobvcr6wjGzmiPcTaeG7_gUfE5yuYB3ha_uSLs"]})")
                                     << "policy.sshAgent.keys[0]"
                                     << "not base64";
    QTest::newRow("stray low bits") << QByteArray(R"({"keys":["SHA256:ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLt"]})")
                                    << "policy.sshAgent.keys[0]"
                                    << "not the base64 of a SHA-256 hash";
    QTest::newRow("duplicate key") << QByteArray(R"({"keys":[")" + a + R"(",")" + b + R"(",")" + a + R"("]})")
                                   << "policy.sshAgent.keys[2]"
                                   << "listed twice (also keys[0])";
    QTest::newRow("bad host") << QByteArray(R"({"keys":[")" + a + R"("],"hosts":["github.com","ssh://x.org"]})")
                              << "policy.sshAgent.hosts[1]"
                              << "not a URL";
    QTest::newRow("lone star host") << QByteArray(R"({"keys":[")" + a + R"("],"hosts":["*"]})")
                                    << "policy.sshAgent.hosts[0]"
                                    << "a lone \"*\"";
    QTest::newRow("bad port") << QByteArray(R"({"keys":[")" + a + R"("],"hosts":["github.com:0"]})")
                              << "policy.sshAgent.hosts[0]"
                              << "invalid port";
    QTest::newRow("hosts type") << QByteArray(R"({"keys":[")" + a + R"("],"hosts":"github.com"})")
                                << "policy.sshAgent.hosts"
                                << "expected an array, got a string";
    QTest::newRow("unknown confirm") << QByteArray(R"({"keys":[")" + a + R"("],"confirm":"sometimes"})")
                                     << "policy.sshAgent.confirm"
                                     << "expected never, first-use or always";
    QTest::newRow("confirm type") << QByteArray(R"({"keys":[")" + a + R"("],"confirm":true})")
                                  << "policy.sshAgent.confirm"
                                  << "expected a string, got a boolean";
}

void TestPolicy::sshAgent()
{
    QFETCH(QByteArray, agent);
    QFETCH(QString, where);
    QFETCH(QString, message);
    const Result<Policy> decoded = Policy::fromJson(policyWithSshAgent(agent));
    if (where.isEmpty()) {
        QVERIFY2(decoded.ok(), qPrintable(decoded.ok() ? QString() : decoded.error().toString()));
        QVERIFY(decoded.value().sshAgent.has_value());
        QCOMPARE(Policy::fromJson(decoded.value().toJson()).value(), decoded.value());
        return;
    }
    QVERIFY(!decoded.ok());
    SANDBOX_EXPECT_ERROR(decoded.error(), where, message);
}

void TestPolicy::sshAgentRestrictsItsDimension()
{
    Policy policy = Policy::defaults();
    QVERIFY(!policy.restrictedDimensions().contains(QStringLiteral("sshAgent")));
    PolicySshAgent agent;
    agent.keys = { keyA };
    policy.sshAgent = agent;
    QVERIFY(policy.restrictedDimensions().contains(QStringLiteral("sshAgent")));
    QVERIFY(BackendDescriptor::enforcementDimensions().contains(QStringLiteral("sshAgent")));
    // An agent with everything else open still needs a backend that places the filtering agent.
    policy.writable = { QStringLiteral("/") };
    policy.denied.clear();
    policy.readOnly.clear();
    policy.network = Policy::NetworkMode::Full;
    policy.hostExecution = Policy::HostExecution::Allow;
    policy.processes = Policy::ProcessConfinement::Shared;
    QCOMPARE(policy.restrictedDimensions(), QStringList{ QStringLiteral("sshAgent") });
    // Validation names every bad entry by its path; a policy built in code is checked the same way.
    policy.sshAgent->keys = { keyA, QStringLiteral("SHA256:nope") };
    policy.sshAgent->hosts = { QStringLiteral("a b") };
    const Status status = policy.validate();
    QVERIFY(!status.ok());
    SANDBOX_EXPECT_ERROR(status.error(), QStringLiteral("policy.sshAgent.keys[1]"), QStringLiteral("SHA256"));
    QCOMPARE(status.error().details.size(), 2);
    QCOMPARE(status.error().details.at(1).where, QStringLiteral("policy.sshAgent.hosts[0]"));
}

void TestPolicy::upstreamProxyRoundTrip()
{
    Policy policy = Policy::defaults();
    policy.network = Policy::NetworkMode::Allowlist;
    policy.allowedDomains = { QStringLiteral("github.com") };
    PolicyUpstreamProxy proxy;
    proxy.url = QStringLiteral("https://proxy.corp.example:3128");
    proxy.credential = QStringLiteral("corp-proxy");
    policy.upstreamProxy = proxy;
    const Result<Policy> again = Policy::fromJson(policy.toJson());
    QVERIFY2(again.ok(), qPrintable(again.ok() ? QString() : again.error().toString()));
    QCOMPARE(again.value(), policy);
    QCOMPARE(again.value().upstreamProxy->host(), QStringLiteral("proxy.corp.example"));
    QCOMPARE(again.value().upstreamProxy->port(), quint16(3128));
    QVERIFY(again.value().upstreamProxy->usesTls());
    const QJsonObject written
        = policy.toJson().value(QStringLiteral("network")).toObject().value(QStringLiteral("upstreamProxy")).toObject();
    QCOMPARE(written.value(QStringLiteral("credential")).toString(), QStringLiteral("corp-proxy"));
    // Without a credential none is written; an IPv6 proxy keeps its brackets in messages.
    proxy.url = QStringLiteral("http://[::1]:8080/");
    proxy.credential.clear();
    QVERIFY(!proxy.toJson().contains(QStringLiteral("credential")));
    QCOMPARE(proxy.host(), QStringLiteral("::1"));
    QCOMPARE(proxy.authority(), QStringLiteral("[::1]:8080"));
    QVERIFY(!proxy.usesTls());
    // Absent: a policy without one reads and writes as before.
    QVERIFY(!Policy::defaults()
                 .toJson()
                 .value(QStringLiteral("network"))
                 .toObject()
                 .contains(QStringLiteral("upstreamProxy")));
    QVERIFY(!Policy::fromJson(Policy::defaults().toJson()).value().upstreamProxy.has_value());
}

void TestPolicy::upstreamProxy_data()
{
    QTest::addColumn<QByteArray>("network");
    QTest::addColumn<QByteArray>("credentials");
    QTest::addColumn<QString>("where"); // empty: accepted
    QTest::addColumn<QString>("message");
    const QByteArray none = "[]";
    auto net = [](const QByteArray &proxy) -> QByteArray {
        return QByteArray(R"({"mode":"allowlist","allowedDomains":["github.com"],"upstreamProxy":)") + proxy + "}";
    };
    const QString url = QStringLiteral("policy.network.upstreamProxy.url");
    QTest::newRow("http") << net(R"({"url":"http://proxy.corp.example:3128"})") << none << QString() << QString();
    QTest::newRow("https with credential")
        << net(R"({"url":"https://10.0.0.8:443/","credential":"corp"})") << none << QString() << QString();
    QTest::newRow("ipv6") << net(R"({"url":"http://[fd00::1]:3128"})") << none << QString() << QString();
    QTest::newRow("a string") << net(R"("http://proxy:3128")") << none << "policy.network.upstreamProxy"
                              << "expected an object, got a string";
    QTest::newRow("unknown key") << net(R"({"url":"http://proxy:3128","password":"x"})") << none
                                 << "policy.network.upstreamProxy.password"
                                 << "unknown key";
    QTest::newRow("missing url") << net(R"({"credential":"corp"})") << none << url << "missing required key";
    QTest::newRow("url type") << net(R"({"url":3128})") << none << url << "expected a string, got a number";
    QTest::newRow("empty url") << net(R"({"url":""})") << none << url << "must not be empty";
    QTest::newRow("socks scheme") << net(R"({"url":"socks5://proxy:1080"})") << none << url
                                  << "must start with http:// or https://";
    QTest::newRow("no port") << net(R"({"url":"http://proxy.corp.example"})") << none << url
                             << "must name the proxy's port";
    QTest::newRow("bad port") << net(R"({"url":"http://proxy:70000"})") << none << url << "invalid port";
    QTest::newRow("user in url") << net(R"({"url":"http://me:secret@proxy:3128"})") << none << url
                                 << "must not carry a user or password";
    QTest::newRow("path") << net(R"({"url":"http://proxy:3128/pac"})") << none << url << "without a path";
    QTest::newRow("bad host") << net(R"({"url":"http://pro_xy:3128"})") << none << url << "invalid host name";
    QTest::newRow("wildcard host") << net(R"({"url":"http://*.corp:3128"})") << none << url << "invalid host name";
    QTest::newRow("bad ipv6") << net(R"({"url":"http://[fd00::zz]:3128"})") << none << url << "invalid IPv6";
    QTest::newRow("whitespace") << net(R"({"url":"http://proxy :3128"})") << none << url << "whitespace";
    QTest::newRow("credential type") << net(R"({"url":"http://proxy:3128","credential":1})") << none
                                     << "policy.network.upstreamProxy.credential"
                                     << "expected a string, got a number";
    QTest::newRow("empty credential") << net(R"({"url":"http://proxy:3128","credential":""})") << none
                                      << "policy.network.upstreamProxy.credential"
                                      << "must not be empty";
    QTest::newRow("bad credential name") << net(R"({"url":"http://proxy:3128","credential":"a/b"})") << none
                                         << "policy.network.upstreamProxy.credential"
                                         << "may only contain";
    QTest::newRow("credential injected elsewhere")
        << net(R"({"url":"http://proxy:3128","credential":"gh"})")
        << QByteArray(R"([{"name":"gh","hosts":["github.com"]}])") << "policy.network.upstreamProxy.credential"
        << "also one of the policy's credentials";
    QTest::newRow("full network") << QByteArray(R"({"mode":"full","upstreamProxy":{"url":"http://proxy:3128"}})")
                                  << none << "policy.network.upstreamProxy"
                                  << "needs the network mode \"allowlist\"";
}

void TestPolicy::upstreamProxy()
{
    QFETCH(QByteArray, network);
    QFETCH(QByteArray, credentials);
    QFETCH(QString, where);
    QFETCH(QString, message);
    const Result<Policy> decoded = Policy::fromJson(policyWithCredentials(credentials, network));
    if (where.isEmpty()) {
        QVERIFY2(decoded.ok(), qPrintable(decoded.ok() ? QString() : decoded.error().toString()));
        QVERIFY(decoded.value().upstreamProxy.has_value());
        QCOMPARE(Policy::fromJson(decoded.value().toJson()).value(), decoded.value());
        return;
    }
    QVERIFY(!decoded.ok());
    SANDBOX_EXPECT_ERROR(decoded.error(), where, message);
}

void TestPolicy::upstreamProxyRestrictsItsDimension()
{
    Policy policy = Policy::defaults();
    QVERIFY(!policy.restrictedDimensions().contains(QStringLiteral("upstreamProxy")));
    policy.network = Policy::NetworkMode::Allowlist;
    policy.upstreamProxy = PolicyUpstreamProxy{ QStringLiteral("http://proxy:3128"), QString() };
    QVERIFY(policy.restrictedDimensions().contains(QStringLiteral("upstreamProxy")));
    QVERIFY(BackendDescriptor::enforcementDimensions().contains(QStringLiteral("upstreamProxy")));
}

QTEST_GUILESS_MAIN(TestPolicy)
#include "tst_policy.moc"
