// Secrets against the real OS keychain (gnome-keyring over D-Bus, run through
// tests/with-keyring.sh): values go only into the keychain and into configure(); reads
// say configured true/false; empty input keeps, Replace and Remove are explicit.
#include "EngineRig.h"
#include "core/secrets/KeychainSecretStore.h"
#include "core/secrets/PlaintextSecretStore.h"

#include <QDirIterator>
#include <QRandomGenerator>
#include <QTest>

using namespace sandbox;
using namespace sandbox::test;

namespace {

FieldSpec secretField(const QString &id, bool required)
{
    FieldSpec field = FieldSpec::make(id, FieldSpec::Type::Secret, id);
    field.required = required;
    return field;
}

// A rig whose builtin:fault has a required apiKey and an optional token secret.
std::unique_ptr<EngineRig> makeRig(bool plaintext)
{
    EngineRig::Setup setup;
    setup.allowPlaintextSecrets = plaintext;
    setup.keychainService = QStringLiteral("sandbox-studio-test-%1").arg(QCoreApplication::applicationPid());
    auto rig = std::make_unique<EngineRig>(setup);
    rig->faultPlan->fields.append(secretField(QStringLiteral("apiKey"), true));
    rig->faultPlan->fields.append(secretField(QStringLiteral("token"), false));
    rig->restart();
    return rig;
}

QString uniqueSecret(const char *name)
{
    return QStringLiteral("%1-%2-do-not-leak")
        .arg(QLatin1String(name))
        .arg(QRandomGenerator::global()->generate64(), 0, 36);
}

// Every file under `root` whose raw bytes contain `secret` (UTF-8 or UTF-16).
QStringList filesContaining(const QString &root, const QString &secret)
{
    QStringList found;
    QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QByteArray bytes = readFile(path);
        if (bytes.contains(secret.toUtf8())
            || bytes.contains(QByteArray(reinterpret_cast<const char *>(secret.utf16()), secret.size() * 2)))
            found.append(path);
    }
    return found;
}

QByteArray everythingReadable(const Engine &engine, const BackendRef &ref)
{
    QByteArray all;
    for (const BackendInfo &info : engine.backends())
        all += QJsonDocument(info.toJson()).toJson();
    const Result<SettingsView> view = engine.settings(ref);
    if (view.ok())
        all += QJsonDocument(view.value().toJson()).toJson();
    else
        all += view.error().toString().toUtf8();
    all += engine.warnings().join(QLatin1Char('\n')).toUtf8();
    for (const PackInfo &pack : engine.packs())
        all += QJsonDocument(pack.toJson()).toJson();
    return all;
}

} // namespace

class SecretsTest final : public QObject
{
    Q_OBJECT

private slots:
    void secretReachesOnlyTheKeychainAndConfigure();
    void emptyInputKeepsTheSecret();
    void removeIsExplicit();
    void invalidRequestsChangeNoSecret();
    void secretsOfABackendThatIsNotActive();
    void plaintextStorageOnlyWhenAllowed();
};

void SecretsTest::secretReachesOnlyTheKeychainAndConfigure()
{
    auto rig = makeRig(false);
    const QString secret = uniqueSecret("api");
    const ActivationResult result
        = rig->activate(EngineRig::faultRef(), values({ { QStringLiteral("label"), QStringLiteral("with secret") } }),
                        { SecretUpdate{ QStringLiteral("apiKey"), SecretUpdate::Action::Replace, secret } });
    QVERIFY2(result.ok, qPrintable(result.error.toString()));

    // configure() got it, inside the engine.
    QCOMPARE(rig->faultPlan->configured.last().secrets.value(QStringLiteral("apiKey")), secret);
    QVERIFY(!rig->faultPlan->configured.last().secrets.contains(QStringLiteral("token")));

    // Reads say "configured", nothing more.
    const SettingsView view = rig->engine->settings(EngineRig::faultRef()).value();
    QCOMPARE(view.secretsConfigured.value(QStringLiteral("apiKey")), true);
    QCOMPARE(view.secretsConfigured.value(QStringLiteral("token")), false);
    QVERIFY(!view.insecureStorage);
    QVERIFY(!view.values.values.contains(QStringLiteral("apiKey")));

    // Not in any read API, event, result or warning; not in any file the engine wrote.
    QVERIFY(!everythingReadable(*rig->engine, EngineRig::faultRef()).contains(secret.toUtf8()));
    QVERIFY(!rig->observer->everythingAsJson().contains(secret.toUtf8()));
    QVERIFY(QFile::exists(rig->settingsPath()));
    QCOMPARE(filesContaining(rig->dir.path(), secret), QStringList());

    // It is in the OS keychain, under "<ref>/<field>".
    KeychainSecretStore keychain(rig->setup.keychainService);
    QCOMPARE(keychain.read(EngineRig::faultRef(), QStringLiteral("apiKey")).value(), std::optional<QString>(secret));

    // And it survives a restart.
    rig->restart();
    QVERIFY(await(rig->engine->restore()).ok);
    QCOMPARE(rig->faultPlan->configured.last().secrets.value(QStringLiteral("apiKey")), secret);
    QVERIFY(keychain.remove(EngineRig::faultRef(), QStringLiteral("apiKey")).ok());
}

void SecretsTest::emptyInputKeepsTheSecret()
{
    auto rig = makeRig(false);
    const QString secret = uniqueSecret("keep");
    QVERIFY(rig->activate(EngineRig::faultRef(), std::nullopt,
                          { SecretUpdate{ QStringLiteral("apiKey"), SecretUpdate::Action::Replace, secret } })
                .ok);
    // An empty Replace is "no change", as is Keep.
    const ActivationResult again
        = rig->activate(EngineRig::faultRef(), values({ { QStringLiteral("label"), QStringLiteral("new label") } }),
                        { SecretUpdate{ QStringLiteral("apiKey"), SecretUpdate::Action::Replace, QString() },
                          SecretUpdate{ QStringLiteral("token"), SecretUpdate::Action::Keep, QString() } });
    QVERIFY2(again.ok, qPrintable(again.error.toString()));
    QCOMPARE(rig->faultPlan->configured.last().secrets.value(QStringLiteral("apiKey")), secret);
    QVERIFY(rig->engine->settings(EngineRig::faultRef()).value().secretsConfigured.value(QStringLiteral("apiKey")));

    // Replace replaces.
    const QString replacement = uniqueSecret("replaced");
    QVERIFY(rig->activate(EngineRig::faultRef(), std::nullopt,
                          { SecretUpdate{ QStringLiteral("apiKey"), SecretUpdate::Action::Replace, replacement } })
                .ok);
    QCOMPARE(rig->faultPlan->configured.last().secrets.value(QStringLiteral("apiKey")), replacement);
    KeychainSecretStore keychain(rig->setup.keychainService);
    QCOMPARE(keychain.read(EngineRig::faultRef(), QStringLiteral("apiKey")).value(),
             std::optional<QString>(replacement));
    QVERIFY(keychain.remove(EngineRig::faultRef(), QStringLiteral("apiKey")).ok());
}

void SecretsTest::removeIsExplicit()
{
    auto rig = makeRig(false);
    const QString key = uniqueSecret("key");
    const QString token = uniqueSecret("token");
    QVERIFY(rig->activate(EngineRig::faultRef(), std::nullopt,
                          { SecretUpdate{ QStringLiteral("apiKey"), SecretUpdate::Action::Replace, key },
                            SecretUpdate{ QStringLiteral("token"), SecretUpdate::Action::Replace, token } })
                .ok);
    QCOMPARE(rig->faultPlan->configured.last().secrets.value(QStringLiteral("token")), token);

    const ActivationResult removed
        = rig->activate(EngineRig::faultRef(), std::nullopt,
                        { SecretUpdate{ QStringLiteral("token"), SecretUpdate::Action::Remove, {} } });
    QVERIFY2(removed.ok, qPrintable(removed.error.toString()));
    QVERIFY(!rig->faultPlan->configured.last().secrets.contains(QStringLiteral("token")));
    QVERIFY(!rig->engine->settings(EngineRig::faultRef()).value().secretsConfigured.value(QStringLiteral("token")));
    KeychainSecretStore keychain(rig->setup.keychainService);
    QCOMPARE(keychain.read(EngineRig::faultRef(), QStringLiteral("token")).value(), std::nullopt);

    // Removing a required secret fails the transaction and removes nothing.
    const ActivationResult refused
        = rig->activate(EngineRig::faultRef(), std::nullopt,
                        { SecretUpdate{ QStringLiteral("apiKey"), SecretUpdate::Action::Remove, {} } });
    QVERIFY(!refused.ok);
    QCOMPARE(refused.failedStep, ActivationStep::ResolveSecrets);
    QVERIFY(refused.error.toString().contains(QStringLiteral("builtin:fault.apiKey")));
    QCOMPARE(keychain.read(EngineRig::faultRef(), QStringLiteral("apiKey")).value(), std::optional<QString>(key));
    QVERIFY(keychain.remove(EngineRig::faultRef(), QStringLiteral("apiKey")).ok());
}

void SecretsTest::invalidRequestsChangeNoSecret()
{
    auto rig = makeRig(false);
    QVERIFY(rig->activate(EngineRig::fallbackRef()).ok);
    const QString secret = uniqueSecret("invalid");
    // Bad ordinary settings: the secret is neither stored nor echoed in the error.
    const ActivationResult result
        = rig->activate(EngineRig::faultRef(), values({ { QStringLiteral("count"), QStringLiteral("NaN") } }),
                        { SecretUpdate{ QStringLiteral("apiKey"), SecretUpdate::Action::Replace, secret } });
    QVERIFY(!result.ok);
    QCOMPARE(result.failedStep, ActivationStep::Validate);
    QVERIFY(!QJsonDocument(result.toJson()).toJson().contains(secret.toUtf8()));
    // A failure after the secret was resolved and handed to configure() stores nothing either.
    rig->faultPlan->failPrepare = true;
    const ActivationResult prepareFailed
        = rig->activate(EngineRig::faultRef(), std::nullopt,
                        { SecretUpdate{ QStringLiteral("apiKey"), SecretUpdate::Action::Replace, secret } });
    QVERIFY(!prepareFailed.ok);
    QVERIFY(!rig->engine->settings(EngineRig::faultRef()).value().secretsConfigured.value(QStringLiteral("apiKey")));
    KeychainSecretStore keychain(rig->setup.keychainService);
    QCOMPARE(keychain.read(EngineRig::faultRef(), QStringLiteral("apiKey")).value(), std::nullopt);
    QVERIFY(!rig->observer->everythingAsJson().contains(secret.toUtf8()));
    QCOMPARE(filesContaining(rig->dir.path(), secret), QStringList());
    // Persistence failure undoes the secret update with the rest.
    rig->faultPlan->failPrepare = false;
    rig->store->failWrites = 1;
    QVERIFY(!rig->activate(EngineRig::faultRef(), std::nullopt,
                           { SecretUpdate{ QStringLiteral("apiKey"), SecretUpdate::Action::Replace, secret } })
                 .ok);
    QCOMPARE(keychain.read(EngineRig::faultRef(), QStringLiteral("apiKey")).value(), std::nullopt);
    QCOMPARE(rig->engine->activeRef(), EngineRig::fallbackRef());
}

void SecretsTest::secretsOfABackendThatIsNotActive()
{
    auto rig = makeRig(false);
    const QString secret = uniqueSecret("idle");
    QVERIFY(rig->engine
                ->updateSettings(EngineRig::faultRef(), values({ { QStringLiteral("label"), QStringLiteral("l") } }),
                                 { SecretUpdate{ QStringLiteral("apiKey"), SecretUpdate::Action::Replace, secret } })
                .ok());
    QVERIFY(rig->engine->settings(EngineRig::faultRef()).value().secretsConfigured.value(QStringLiteral("apiKey")));
    QVERIFY(rig->engine
                ->updateSettings(EngineRig::faultRef(), values({}),
                                 { SecretUpdate{ QStringLiteral("apiKey"), SecretUpdate::Action::Replace, QString() } })
                .ok());
    QVERIFY(rig->activate(EngineRig::faultRef()).ok);
    QCOMPARE(rig->faultPlan->configured.last().secrets.value(QStringLiteral("apiKey")), secret);
    QCOMPARE(filesContaining(rig->dir.path(), secret), QStringList());
    KeychainSecretStore keychain(rig->setup.keychainService);
    QVERIFY(keychain.remove(EngineRig::faultRef(), QStringLiteral("apiKey")).ok());
}

void SecretsTest::plaintextStorageOnlyWhenAllowed()
{
    auto rig = makeRig(true);
    const QString secret = uniqueSecret("plain");
    QVERIFY(rig->activate(EngineRig::faultRef(), std::nullopt,
                          { SecretUpdate{ QStringLiteral("apiKey"), SecretUpdate::Action::Replace, secret } })
                .ok);
    const QString secretsPath = QDir(rig->configDir).filePath(QStringLiteral("secrets.json"));
    QCOMPARE(QFile(secretsPath).permissions() & ~(QFileDevice::ReadUser | QFileDevice::WriteUser),
             QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    QCOMPARE(readJson(secretsPath)
                 .value(QStringLiteral("backends"))
                 .toObject()
                 .value(QStringLiteral("builtin:fault"))
                 .toObject()
                 .value(QStringLiteral("apiKey"))
                 .toString(),
             secret);
    QCOMPARE(filesContaining(rig->dir.path(), secret), QStringList{ secretsPath });
    QVERIFY(rig->engine->settings(EngineRig::faultRef()).value().insecureStorage);
    QVERIFY(rig->engine->warnings().join(QLatin1Char('\n')).contains(QStringLiteral("plain text")));
    QVERIFY(!everythingReadable(*rig->engine, EngineRig::faultRef()).contains(secret.toUtf8()));
    // The keychain was not used.
    KeychainSecretStore keychain(rig->setup.keychainService);
    QCOMPARE(keychain.read(EngineRig::faultRef(), QStringLiteral("apiKey")).value(), std::nullopt);

    // Without the opt-in, no warning and no secrets.json.
    auto keychainRig = makeRig(false);
    QVERIFY(!keychainRig->engine->warnings().join(QLatin1Char('\n')).contains(QStringLiteral("plain text")));
    QVERIFY(!QFile::exists(QDir(keychainRig->configDir).filePath(QStringLiteral("secrets.json"))));
}

QTEST_GUILESS_MAIN(SecretsTest)
#include "tst_secrets.moc"
