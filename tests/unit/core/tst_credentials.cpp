// Credentials against the real OS keychain (gnome-keyring over D-Bus, run through
// tests/with-keyring.sh): a value goes only into the keychain; every read says whether one
// is stored, with the policy's hosts, never the value; bad names and values change nothing;
// a policy with credentials runs only where a backend injects them.
#include "EngineRig.h"
#include "UnconfinedPolicy.h"
#include "core/secrets/KeychainSecretStore.h"

#include <QDirIterator>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTest>

using namespace sandbox;
using namespace sandbox::test;

namespace {

std::unique_ptr<EngineRig> makeRig()
{
    EngineRig::Setup setup;
    setup.allowPlaintextSecrets = false;
    setup.keychainService
        = QStringLiteral("sandbox-studio-credentials-test-%1").arg(QCoreApplication::applicationPid());
    return std::make_unique<EngineRig>(setup);
}

QString uniqueValue()
{
    return QStringLiteral("ghp_%1do-not-leak").arg(QRandomGenerator::global()->generate64(), 0, 36);
}

QStringList filesContaining(const QString &root, const QString &value)
{
    QStringList found;
    QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (readFile(path).contains(value.toUtf8()))
            found.append(path);
    }
    return found;
}

QByteArray listed(const Engine &engine)
{
    QByteArray all;
    const Result<QList<CredentialInfo>> list = engine.credentials();
    if (!list.ok())
        return list.error().toString().toUtf8();
    for (const CredentialInfo &info : list.value())
        all += QJsonDocument(info.toJson()).toJson();
    return all;
}

PolicyCredential githubCredential()
{
    PolicyCredential credential;
    credential.name = QStringLiteral("github");
    credential.env = QStringLiteral("GITHUB_TOKEN");
    credential.hosts = { QStringLiteral("github.com"), QStringLiteral("*.github.com") };
    return credential;
}

} // namespace

class CredentialsTest final : public QObject
{
    Q_OBJECT

private slots:
    void valueReachesOnlyTheKeychain();
    void listShowsPolicyCredentialsWithoutValues();
    void badNamesAndValuesChangeNothing();
    void policyWithCredentialsRunsOnlyWhereInjected();
};

void CredentialsTest::valueReachesOnlyTheKeychain()
{
    auto rig = makeRig();
    const QString value = uniqueValue();
    QVERIFY(rig->engine->setCredential(QStringLiteral("github"), value).ok());

    const QList<CredentialInfo> list = rig->engine->credentials().value();
    QCOMPARE(list.size(), 1);
    QCOMPARE(list.first().name, QStringLiteral("github"));
    QVERIFY(list.first().configured);
    QVERIFY(!list.first().inPolicy);
    QVERIFY(!listed(*rig->engine).contains(value.toUtf8()));
    QVERIFY(!rig->observer->everythingAsJson().contains(value.toUtf8()));
    QCOMPARE(filesContaining(rig->dir.path(), value), QStringList());

    // In the OS keychain under the reserved key, as the backends' secrets are.
    KeychainSecretStore keychain(rig->setup.keychainService);
    const BackendRef key = BackendRef::builtin(QStringLiteral("credential"));
    QCOMPARE(keychain.read(key, QStringLiteral("github")).value(), std::optional<QString>(value));

    // Still listed after a restart (the keychain cannot be listed: the names are kept).
    rig->restart();
    QCOMPARE(rig->engine->credentials().value().size(), 1);
    QVERIFY(rig->engine->credentials().value().first().configured);

    // Replaced, then removed: gone from the keychain and from the list.
    const QString replacement = uniqueValue();
    QVERIFY(rig->engine->setCredential(QStringLiteral("github"), replacement).ok());
    QCOMPARE(keychain.read(key, QStringLiteral("github")).value(), std::optional<QString>(replacement));
    QVERIFY(rig->engine->removeCredential(QStringLiteral("github")).ok());
    QCOMPARE(keychain.read(key, QStringLiteral("github")).value(), std::optional<QString>());
    QVERIFY(rig->engine->credentials().value().isEmpty());
    // Removing what is not there succeeds.
    QVERIFY(rig->engine->removeCredential(QStringLiteral("github")).ok());
}

void CredentialsTest::listShowsPolicyCredentialsWithoutValues()
{
    auto rig = makeRig();
    Policy policy = unconfinedPolicy();
    policy.network = Policy::NetworkMode::Allowlist;
    policy.credentials = { githubCredential() };
    QVERIFY(rig->engine->setPolicy(policy).ok());

    QList<CredentialInfo> list = rig->engine->credentials().value();
    QCOMPARE(list.size(), 1);
    QVERIFY(list.first().inPolicy);
    QVERIFY(!list.first().configured);
    QCOMPARE(list.first().hosts, githubCredential().hosts);
    QCOMPARE(list.first().env, QStringLiteral("GITHUB_TOKEN"));

    const QString value = uniqueValue();
    QVERIFY(rig->engine->setCredential(QStringLiteral("github"), value).ok());
    QVERIFY(rig->engine->setCredential(QStringLiteral("npm"), uniqueValue()).ok());
    list = rig->engine->credentials().value();
    QCOMPARE(list.size(), 2);
    QCOMPARE(list.at(0).name, QStringLiteral("github"));
    QVERIFY(list.at(0).configured && list.at(0).inPolicy);
    QCOMPARE(list.at(1).name, QStringLiteral("npm"));
    QVERIFY(list.at(1).configured && !list.at(1).inPolicy);
    QVERIFY(!listed(*rig->engine).contains(value.toUtf8()));
    QVERIFY(rig->engine->removeCredential(QStringLiteral("github")).ok());
    QVERIFY(rig->engine->removeCredential(QStringLiteral("npm")).ok());
}

void CredentialsTest::badNamesAndValuesChangeNothing()
{
    auto rig = makeRig();
    KeychainSecretStore keychain(rig->setup.keychainService);
    const BackendRef key = BackendRef::builtin(QStringLiteral("credential"));
    QVERIFY(rig->engine->setCredential(QStringLiteral("github"), QStringLiteral("first-value")).ok());

    struct Case
    {
        QString name;
        QString value;
        QString message;
    };
    const QList<Case> cases{
        { QStringLiteral("git/hub"), QStringLiteral("v"), QStringLiteral("may only contain") },
        { QString(), QStringLiteral("v"), QStringLiteral("must not be empty") },
        { QStringLiteral("github"), QString(), QStringLiteral("remove the credential instead") },
        { QStringLiteral("github"), QStringLiteral("a\r\nX-Injected: 1"), QStringLiteral("control character") },
    };
    for (const Case &c : cases) {
        const Status status = rig->engine->setCredential(c.name, c.value);
        QVERIFY2(!status.ok(), qPrintable(c.name + QLatin1Char('=') + c.value));
        QVERIFY2(status.error().toString().contains(c.message), qPrintable(status.error().toString()));
        QVERIFY(!status.error().toString().contains(QStringLiteral("X-Injected")));
    }
    QVERIFY(!rig->engine->removeCredential(QStringLiteral("../github")).ok());
    QCOMPARE(keychain.read(key, QStringLiteral("github")).value(),
             std::optional<QString>(QStringLiteral("first-value")));
    QCOMPARE(rig->engine->credentials().value().size(), 1);
    QVERIFY(rig->engine->removeCredential(QStringLiteral("github")).ok());
}

void CredentialsTest::policyWithCredentialsRunsOnlyWhereInjected()
{
    // The rig's launchers run host processes and inject nothing: under a policy whose
    // credential needs injecting, nothing runs, and the reason says why.
    auto rig = makeRig();
    QVERIFY(rig->activate(EngineRig::faultRef()).ok);
    Policy policy = unconfinedPolicy();
    policy.network = Policy::NetworkMode::Allowlist;
    policy.allowedDomains = { QStringLiteral("github.com") };
    policy.credentials = { githubCredential() };
    QVERIFY(rig->engine->setPolicy(policy).ok());
    const Result<std::shared_ptr<SandboxProcess>> spawned
        = rig->engine->spawn(rig->command({ QStringLiteral("/bin/true") }));
    QVERIFY(!spawned.ok());
    QVERIFY2(spawned.error().message.contains(QStringLiteral("credential injection")),
             qPrintable(spawned.error().toString()));
    const BackendInfo info = rig->engine->backend(EngineRig::faultRef()).value();
    QVERIFY2(info.unenforced.contains(QStringLiteral("credentials")), qPrintable(info.unenforced.join(u',')));
}

QTEST_GUILESS_MAIN(CredentialsTest)
#include "tst_credentials.moc"
