#include "ProtocolTestSupport.h"
#include "protocol/SettingsValues.h"

#include <QTest>

using namespace sandbox;
using sandbox::test::jsonValue;

namespace {

BackendDescriptor descriptor()
{
    const Result<BackendDescriptor> decoded = BackendDescriptor::fromJson(jsonValue(R"({
      "name": "Cloud sandbox",
      "settings": { "fields": [
        { "id": "region", "type": "string", "label": "Region", "defaultValue": "us-east" },
        { "id": "apiKey", "type": "secret", "label": "API key", "required": true },
        { "id": "cpus", "type": "number", "label": "CPUs", "defaultValue": 2, "min": 1, "max": 64 },
        { "id": "keepWarm", "type": "boolean", "label": "Keep warm" },
        { "id": "tier", "type": "select", "label": "Tier", "required": true, "defaultValue": "small",
          "options": [ { "value": "small" }, { "value": "large" } ] },
        { "id": "image", "type": "string", "label": "Image", "required": true }
      ] } })"));
    if (!decoded.ok())
        qFatal("test descriptor invalid: %s", qPrintable(decoded.error().toString()));
    return decoded.value();
}

SettingsValues values(const QByteArray &json)
{
    const Result<SettingsValues> decoded = SettingsValues::fromJson(jsonValue(json), QStringLiteral("settings"));
    if (!decoded.ok())
        qFatal("test values invalid: %s", qPrintable(decoded.error().toString()));
    return decoded.value();
}

} // namespace

class TestSettings final : public QObject
{
    Q_OBJECT

private slots:
    void acceptsValidValues();
    void collectsEveryFieldError();
    void singleError_data();
    void singleError();
    void defaultsFillAndStrip();
    void valuesRoundTrip();
    void valuesFromJsonRejects_data();
    void valuesFromJsonRejects();
    void viewRoundTrip();
    void viewRejects_data();
    void viewRejects();
    void secretUpdates();
    void secretUpdateRejects_data();
    void secretUpdateRejects();
};

void TestSettings::acceptsValidValues()
{
    const BackendDescriptor d = descriptor();
    const SettingsValues v = values(R"({"region":"eu-west","cpus":8,"keepWarm":true,"tier":"large","image":"alpine"})");
    const Status status = v.validate(d, QStringLiteral("atom-pack:acme-tools:cloud"));
    QVERIFY2(status.ok(), qPrintable(status.ok() ? QString() : status.error().toString()));
    // Required fields with a default may be left out; the secret is never a plain value.
    QVERIFY(values(R"({"image":"alpine"})").validate(d, QStringLiteral("x")).ok());
}

void TestSettings::collectsEveryFieldError()
{
    const BackendDescriptor d = descriptor();
    const SettingsValues v = values(R"({"region":5,"apiKey":"sk-live-1","cpus":100,"tier":"huge","colour":"red"})");
    const QString where = QStringLiteral("atom-pack:acme-tools:cloud");
    const Status status = v.validate(d, where);
    QVERIFY(!status.ok());
    const Error &error = status.error();
    QCOMPARE(error.where, where);
    QCOMPARE(error.message, QStringLiteral("6 settings are invalid"));
    QMap<QString, QString> byWhere;
    for (const Error &detail : error.details)
        byWhere.insert(detail.where, detail.message);
    QCOMPARE(byWhere.size(), 6);
    QVERIFY(
        byWhere.value(where + QStringLiteral(".region")).contains(QStringLiteral("expected a string, got a number")));
    QVERIFY(byWhere.value(where + QStringLiteral(".apiKey")).contains(QStringLiteral("is a secret field")));
    QVERIFY(byWhere.value(where + QStringLiteral(".cpus")).contains(QStringLiteral("100 is above the maximum 64")));
    QVERIFY(
        byWhere.value(where + QStringLiteral(".tier")).contains(QStringLiteral("\"huge\" is not one of the options")));
    QVERIFY(byWhere.value(where + QStringLiteral(".colour")).contains(QStringLiteral("unknown setting")));
    QVERIFY(byWhere.value(where + QStringLiteral(".image")).contains(QStringLiteral("\"Image\" is required")));
    // The rendered error lists every problem for the user.
    const QString text = error.toString();
    for (const QString &key : byWhere.keys())
        QVERIFY2(text.contains(key), qPrintable(text));
    // A secret value must never be echoed back in an error.
    QVERIFY(!text.contains(QStringLiteral("sk-live-1")));
}

void TestSettings::singleError_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown id") << QByteArray(R"({"image":"a","script":"x"})") << "ref.script"
                                << "unknown setting";
    QTest::newRow("secret as plain value") << QByteArray(R"({"image":"a","apiKey":"k"})") << "ref.apiKey"
                                           << "is a secret field; set it as a secret, never as a plain value";
    QTest::newRow("wrong type") << QByteArray(R"({"image":"a","keepWarm":"yes"})") << "ref.keepWarm"
                                << "expected a boolean, got a string";
    QTest::newRow("select not an option") << QByteArray(R"({"image":"a","tier":"medium"})") << "ref.tier"
                                          << "\"medium\" is not one of the options (\"small\", \"large\")";
    QTest::newRow("below min") << QByteArray(R"({"image":"a","cpus":0})") << "ref.cpus"
                               << "0 is below the minimum 1";
    QTest::newRow("missing required") << QByteArray(R"({"region":"x"})") << "ref.image"
                                      << "\"Image\" is required";
}

void TestSettings::singleError()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, where);
    QFETCH(QString, message);
    const Status status = values(json).validate(descriptor(), QStringLiteral("ref"));
    QVERIFY(!status.ok());
    QCOMPARE(status.error().where, QStringLiteral("ref"));
    QCOMPARE(status.error().details.size(), 1);
    SANDBOX_EXPECT_ERROR(status.error().details.first(), where, message);
    QVERIFY(status.error().message.contains(message));
}

void TestSettings::defaultsFillAndStrip()
{
    const BackendDescriptor d = descriptor();
    const SettingsValues stored = values(R"({"image":"alpine","cpus":2,"region":"eu-west"})");
    const SettingsValues filled = stored.withDefaults(d);
    QCOMPARE(filled.values.value(QStringLiteral("region")).toString(), QStringLiteral("eu-west"));
    QCOMPARE(filled.values.value(QStringLiteral("cpus")).toDouble(), 2.0);
    QCOMPARE(filled.values.value(QStringLiteral("tier")).toString(), QStringLiteral("small"));
    QVERIFY(!filled.values.contains(QStringLiteral("apiKey"))); // secrets never have defaults
    QVERIFY(!filled.values.contains(QStringLiteral("keepWarm"))); // no default declared
    // What is written to disk: only values that differ from their defaults.
    const SettingsValues stripped = filled.withoutDefaults(d);
    QCOMPARE(stripped, values(R"({"image":"alpine","region":"eu-west"})"));
    QCOMPARE(SettingsValues().withoutDefaults(d), SettingsValues());
}

void TestSettings::valuesRoundTrip()
{
    const SettingsValues v = values(R"({"region":"eu-west","cpus":2.5,"keepWarm":false,"image":""})");
    const Result<SettingsValues> again = SettingsValues::fromJson(v.toJson(), QStringLiteral("settings"));
    QVERIFY(again.ok());
    QCOMPARE(again.value(), v);
}

void TestSettings::valuesFromJsonRejects_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("message");
    QTest::newRow("array") << QByteArray("[1]") << "settings"
                           << "expected an object, got an array";
    QTest::newRow("bad id") << QByteArray(R"({"1x":1})") << "settings.1x"
                            << "not a valid field id";
    QTest::newRow("object value") << QByteArray(R"({"a":{"code":"x"}})") << "settings.a"
                                  << "expected a string, number or boolean, got an object";
    QTest::newRow("null value") << QByteArray(R"({"a":null})") << "settings.a"
                                << "expected a string, number or boolean, got null";
    QTest::newRow("array value") << QByteArray(R"({"a":[]})") << "settings.a"
                                 << "got an array";
}

void TestSettings::valuesFromJsonRejects()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, where);
    QFETCH(QString, message);
    const Result<SettingsValues> decoded = SettingsValues::fromJson(jsonValue(json), QStringLiteral("settings"));
    QVERIFY(!decoded.ok());
    SANDBOX_EXPECT_ERROR(decoded.error(), where, message);
}

void TestSettings::viewRoundTrip()
{
    SettingsView view;
    view.values = values(R"({"region":"eu-west"})");
    view.secretsConfigured.insert(QStringLiteral("apiKey"), true);
    view.secretsConfigured.insert(QStringLiteral("token"), false);
    const QJsonObject json = view.toJson();
    QCOMPARE(json,
             jsonValue(R"({"values":{"region":"eu-west"},
        "secrets":{"apiKey":{"configured":true},"token":{"configured":false}}})")
                 .toObject());
    Result<SettingsView> again = SettingsView::fromJson(json, QStringLiteral("view"));
    QVERIFY(again.ok());
    QCOMPARE(again.value(), view);
    view.insecureStorage = true;
    again = SettingsView::fromJson(view.toJson(), QStringLiteral("view"));
    QVERIFY(again.ok());
    QCOMPARE(again.value(), view);
}

void TestSettings::viewRejects_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing values") << QByteArray(R"({"secrets":{}})") << "view.values"
                                    << "missing required key";
    QTest::newRow("secret value leaks") << QByteArray(
        R"({"values":{},"secrets":{"apiKey":{"configured":true,"value":"sk"}}})")
                                        << "view.secrets.apiKey.value"
                                        << "unknown key; read APIs only say whether a secret is set";
    QTest::newRow("secret as string") << QByteArray(R"({"values":{},"secrets":{"apiKey":"sk"}})")
                                      << "view.secrets.apiKey"
                                      << "expected an object, got a string";
    QTest::newRow("configured type") << QByteArray(R"({"values":{},"secrets":{"apiKey":{"configured":1}}})")
                                     << "view.secrets.apiKey.configured"
                                     << "expected a boolean, got a number";
    QTest::newRow("insecure type") << QByteArray(R"({"values":{},"insecureStorage":"no"})") << "view.insecureStorage"
                                   << "expected a boolean, got a string";
    QTest::newRow("extra") << QByteArray(R"({"values":{},"html":"<b>"})") << "view.html"
                           << "unknown key";
}

void TestSettings::viewRejects()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, where);
    QFETCH(QString, message);
    const Result<SettingsView> decoded = SettingsView::fromJson(jsonValue(json), QStringLiteral("view"));
    QVERIFY(!decoded.ok());
    SANDBOX_EXPECT_ERROR(decoded.error(), where, message);
}

void TestSettings::secretUpdates()
{
    for (SecretUpdate::Action action :
         { SecretUpdate::Action::Keep, SecretUpdate::Action::Replace, SecretUpdate::Action::Remove }) {
        SecretUpdate update{ QStringLiteral("apiKey"), action,
                             action == SecretUpdate::Action::Replace ? QStringLiteral("sk-new") : QString() };
        const Result<SecretUpdate> again = SecretUpdate::fromJson(update.toJson(), QStringLiteral("secret"));
        QVERIFY(again.ok());
        QCOMPARE(again.value(), update);
        QCOMPARE(again.value().effectiveAction(), action);
    }
    // An empty secret input means no change.
    const Result<SecretUpdate> empty = SecretUpdate::fromJson(
        jsonValue(R"({"fieldId":"apiKey","action":"replace","value":""})"), QStringLiteral("s"));
    QVERIFY(empty.ok());
    QCOMPARE(empty.value().effectiveAction(), SecretUpdate::Action::Keep);
    // Only a replacement carries a value out.
    const SecretUpdate removal{ QStringLiteral("apiKey"), SecretUpdate::Action::Remove, QStringLiteral("x") };
    QVERIFY(!removal.toJson().contains(QStringLiteral("value")));
}

void TestSettings::secretUpdateRejects_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown action") << QByteArray(R"({"fieldId":"k","action":"reveal"})") << "secret.action"
                                    << "unknown action \"reveal\"; expected keep, replace or remove";
    QTest::newRow("value on remove") << QByteArray(R"({"fieldId":"k","action":"remove","value":"x"})") << "secret.value"
                                     << "only a replace action carries a value";
    QTest::newRow("bad id") << QByteArray(R"({"fieldId":"","action":"keep"})") << "secret.fieldId"
                            << "must not be empty";
    QTest::newRow("value type") << QByteArray(R"({"fieldId":"k","action":"replace","value":5})") << "secret.value"
                                << "expected a string, got a number";
    QTest::newRow("missing action") << QByteArray(R"({"fieldId":"k"})") << "secret.action"
                                    << "missing required key";
}

void TestSettings::secretUpdateRejects()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, where);
    QFETCH(QString, message);
    const Result<SecretUpdate> decoded = SecretUpdate::fromJson(jsonValue(json), QStringLiteral("secret"));
    QVERIFY(!decoded.ok());
    SANDBOX_EXPECT_ERROR(decoded.error(), where, message);
}

QTEST_GUILESS_MAIN(TestSettings)
#include "tst_settings.moc"
