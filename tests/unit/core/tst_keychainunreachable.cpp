// No keychain service reachable (no session bus): a clear error that says what to do,
// and nothing changes; backends without secret settings, or whose secrets are optional, keep
// working, told why their secrets are unread.
#include "EngineRig.h"

#include <QTest>

using namespace sandbox;
using namespace sandbox::test;

class KeychainUnreachableTest final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void unreachableKeychainIsReportedAndChangesNothing();
    void optionalSecretsAreLeftUnread();
};

void KeychainUnreachableTest::initTestCase()
{
    // CTest sets this; refuse to run against a real session's keychain by accident.
    QVERIFY(qEnvironmentVariable("DBUS_SESSION_BUS_ADDRESS").contains(QStringLiteral("nonexistent")));
}

void KeychainUnreachableTest::unreachableKeychainIsReportedAndChangesNothing()
{
    EngineRig::Setup setup;
    setup.allowPlaintextSecrets = false;
    EngineRig rig(setup);
    rig.faultPlan->fields.append(
        FieldSpec::make(QStringLiteral("apiKey"), FieldSpec::Type::Secret, QStringLiteral("API key")).asRequired());
    rig.restart();

    // No secrets involved: works without a keychain.
    QVERIFY(rig.activate(EngineRig::fallbackRef()).ok);
    const QByteArray before = readFile(rig.settingsPath());

    auto checkMessage = [](const QString &text) {
        QVERIFY2(text.contains(QStringLiteral("No OS keychain is reachable")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("gnome-keyring")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("plaintext")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("hunter2")), qPrintable(text));
    };

    const ActivationResult result = rig.activate(
        EngineRig::faultRef(), values({ { QStringLiteral("label"), QStringLiteral("x") } }),
        { SecretUpdate{ QStringLiteral("apiKey"), SecretUpdate::Action::Replace, QStringLiteral("hunter2") } });
    QVERIFY(!result.ok);
    // Found out before anything was prepared or swapped.
    QCOMPARE(result.failedStep, ActivationStep::ResolveSecrets);
    QCOMPARE(rig.faultPlan->configured.size(), 0);
    checkMessage(result.error.toString());
    QCOMPARE(rig.engine->activeRef(), EngineRig::fallbackRef());
    QCOMPARE(readFile(rig.settingsPath()), before);

    // Activation with a stored secret to resolve fails at resolving it.
    const ActivationResult resolve = rig.activate(EngineRig::faultRef());
    QVERIFY(!resolve.ok);
    QCOMPARE(resolve.failedStep, ActivationStep::ResolveSecrets);
    checkMessage(resolve.error.toString());

    const Status update = rig.engine->updateSettings(
        EngineRig::faultRef(), values({ { QStringLiteral("label"), QStringLiteral("y") } }),
        { SecretUpdate{ QStringLiteral("apiKey"), SecretUpdate::Action::Replace, QStringLiteral("hunter2") } });
    QVERIFY(!update.ok());
    checkMessage(update.error().toString());
    QCOMPARE(readFile(rig.settingsPath()), before);

    // The settings still read: the other fields as stored, whether the secret is set unknown,
    // with the keychain's problem as the reason.
    const Result<SettingsView> view = rig.engine->settings(EngineRig::faultRef());
    QVERIFY(view.ok());
    QVERIFY(view.value().secretsConfigured.isEmpty());
    checkMessage(view.value().secretsUnknown);
    QVERIFY(!rig.observer->everythingAsJson().contains("hunter2"));
}

void KeychainUnreachableTest::optionalSecretsAreLeftUnread()
{
    EngineRig::Setup setup;
    setup.allowPlaintextSecrets = false;
    EngineRig rig(setup);
    rig.faultPlan->fields.append(
        FieldSpec::make(QStringLiteral("clientKey"), FieldSpec::Type::Secret, QStringLiteral("Client key")));
    rig.restart();

    // Nothing asks to change the optional secret: the backend is activated without it and
    // learns why it is missing.
    const ActivationResult result
        = rig.activate(EngineRig::faultRef(), values({ { QStringLiteral("label"), QStringLiteral("x") } }));
    QVERIFY2(result.ok, qPrintable(result.error.toString()));
    QVERIFY(!rig.faultPlan->configured.isEmpty());
    const ResolvedSettings &given = rig.faultPlan->configured.last();
    QVERIFY(!given.secrets.contains(QStringLiteral("clientKey")));
    QVERIFY2(given.unreadSecrets.value(QStringLiteral("clientKey")).contains(QStringLiteral("No OS keychain")),
             qPrintable(given.unreadSecrets.value(QStringLiteral("clientKey"))));

    // Storing it still needs the keychain, and says so.
    const ActivationResult stored = rig.activate(
        EngineRig::faultRef(), values({ { QStringLiteral("label"), QStringLiteral("y") } }),
        { SecretUpdate{ QStringLiteral("clientKey"), SecretUpdate::Action::Replace, QStringLiteral("hunter2") } });
    QVERIFY(!stored.ok);
    QCOMPARE(stored.failedStep, ActivationStep::ResolveSecrets);
    QVERIFY2(stored.error.toString().contains(QStringLiteral("No OS keychain is reachable")),
             qPrintable(stored.error.toString()));
}

QTEST_GUILESS_MAIN(KeychainUnreachableTest)
#include "tst_keychainunreachable.moc"
