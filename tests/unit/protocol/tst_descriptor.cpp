#include "ProtocolTestSupport.h"
#include "protocol/BackendDescriptor.h"
#include "protocol/JsonReader.h"

#include <QJsonArray>
#include <QTest>

using namespace sandbox;
using sandbox::test::jsonValue;

namespace {

// The specification's example descriptor, plus one field of every other type.
const QByteArray validDescriptor = R"({
  "name": "Cloud sandbox",
  "description": "Runs tools in an isolated remote environment.",
  "settings": { "fields": [
    { "id": "region", "type": "string", "label": "Region", "defaultValue": "us-east" },
    { "id": "apiKey", "type": "secret", "label": "API key", "required": true },
    { "id": "cpus", "type": "number", "label": "CPUs", "defaultValue": 2, "min": 1, "max": 64,
      "description": "Cores per sandbox; 1 < cores is typical" },
    { "id": "keepWarm", "type": "boolean", "label": "Keep warm", "defaultValue": false },
    { "id": "tier", "type": "select", "label": "Tier", "defaultValue": "small",
      "options": [ { "value": "small", "label": "Small" }, { "value": "large" } ] },
    { "id": "memory", "type": "number", "label": "Memory", "defaultValue": 4294967296, "unit": "bytes" }
  ] },
  "platforms": ["linux", "macos"],
  "enforcement": { "filesystem": "remote VM", "network": "provider firewall" }
})";

// Replaces `from` with `to` in the valid document (a way to write one-defect variants).
QByteArray variant(const char *from, const char *to)
{
    QByteArray text = validDescriptor;
    const qsizetype at = text.indexOf(from);
    if (at < 0)
        qFatal("variant anchor not found: %s", from);
    return text.replace(at, qstrlen(from), to);
}

// A descriptor holding one field given as JSON text.
QByteArray withField(const QByteArray &field)
{
    return R"({"name":"Test","settings":{"fields":[)" + field + "]}}";
}

QByteArray withFields(const QByteArray &a, const QByteArray &b)
{
    return R"({"name":"Test","settings":{"fields":[)" + a + "," + b + "]}}";
}

} // namespace

class TestDescriptor final : public QObject
{
    Q_OBJECT

private slots:
    void decodesSpecificationExample();
    void roundTrip();
    void minimalDescriptor();
    void refusalsClaimRoundTrips();
    void rejects_data();
    void rejects();
    void plainTextAllowsComparisons();
    void validateChecksConstructedDescriptors();
    void validateValue_data();
    void validateValue();
    void parseText_data();
    void parseText();
    void madeFieldIsTheDeclaredOne();
    void fieldTypeNames();
    void sizeBounds();
    void timeoutsAreWholeSecondsPerCall();
};

void TestDescriptor::decodesSpecificationExample()
{
    const Result<BackendDescriptor> decoded = BackendDescriptor::fromJson(jsonValue(validDescriptor));
    QVERIFY2(decoded.ok(), qPrintable(decoded.ok() ? QString() : decoded.error().toString()));
    const BackendDescriptor &d = decoded.value();
    QCOMPARE(d.name, QStringLiteral("Cloud sandbox"));
    QCOMPARE(d.fields.size(), 6);
    QVERIFY(d.hasSecrets());
    const FieldSpec *region = d.field(QStringLiteral("region"));
    QVERIFY(region);
    QCOMPARE(region->type, FieldSpec::Type::String);
    QCOMPARE(region->defaultValue.toString(), QStringLiteral("us-east"));
    const FieldSpec *apiKey = d.field(QStringLiteral("apiKey"));
    QVERIFY(apiKey);
    QCOMPARE(apiKey->type, FieldSpec::Type::Secret);
    QVERIFY(apiKey->required);
    QVERIFY(apiKey->defaultValue.isUndefined());
    const FieldSpec *cpus = d.field(QStringLiteral("cpus"));
    QCOMPARE(cpus->min, std::optional<double>(1));
    QCOMPARE(cpus->max, std::optional<double>(64));
    QCOMPARE(cpus->unit, FieldSpec::Unit::None);
    QCOMPARE(d.field(QStringLiteral("memory"))->unit, FieldSpec::Unit::Bytes);
    const FieldSpec *tier = d.field(QStringLiteral("tier"));
    QCOMPARE(tier->options.size(), 2);
    QCOMPARE(tier->options.at(0).label, QStringLiteral("Small"));
    QCOMPARE(tier->options.at(1).label, QString());
    QVERIFY(!d.field(QStringLiteral("nope")));
    QCOMPARE(d.platforms, (QStringList{ QStringLiteral("linux"), QStringLiteral("macos") }));
    QCOMPARE(d.enforcement.value(QStringLiteral("network")), QStringLiteral("provider firewall"));
}

void TestDescriptor::roundTrip()
{
    const BackendDescriptor original = BackendDescriptor::fromJson(jsonValue(validDescriptor)).value();
    const QJsonObject json = original.toJson();
    const Result<BackendDescriptor> again = BackendDescriptor::fromJson(json);
    QVERIFY(again.ok());
    QCOMPARE(again.value(), original);
    QCOMPARE(again.value().toJson(), json);
}

void TestDescriptor::refusalsClaimRoundTrips()
{
    // Which refusals a backend reports is a claim like the others: plain text, kept as said.
    const Result<BackendDescriptor> decoded = BackendDescriptor::fromJson(
        jsonValue(R"({"name":"X","refusals":"the filtering proxy's refusals; not what seccomp refuses"})"));
    QVERIFY(decoded.ok());
    QCOMPARE(decoded.value().refusals, QStringLiteral("the filtering proxy's refusals; not what seccomp refuses"));
    QCOMPARE(BackendDescriptor::fromJson(decoded.value().toJson()).value(), decoded.value());
    // Not stated: absent from the JSON.
    QVERIFY(!BackendDescriptor::fromJson(jsonValue(R"({"name":"X"})"))
                 .value()
                 .toJson()
                 .contains(QStringLiteral("refusals")));
}

void TestDescriptor::minimalDescriptor()
{
    // The settings schema is optional: a backend with no settings renders a "no settings" state.
    const Result<BackendDescriptor> decoded = BackendDescriptor::fromJson(jsonValue(R"({"name":"Plain"})"));
    QVERIFY(decoded.ok());
    QVERIFY(decoded.value().fields.isEmpty());
    QVERIFY(!decoded.value().hasSecrets());
    QCOMPARE(BackendDescriptor::fromJson(decoded.value().toJson()).value(), decoded.value());
}

void TestDescriptor::rejects_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("message");

    // Code, HTML, scripts, callbacks and validation expressions: any unknown key.
    QTest::newRow("script key in field") << variant(R"("label": "API key",)",
                                                    R"j("label": "API key", "script": "steal()",)j")
                                         << "descriptor.settings.fields[1].script"
                                         << "unknown key; descriptors are data only";
    QTest::newRow("html at top") << variant(R"("name":)", R"("html": "<div/>", "name":)") << "descriptor.html"
                                 << "unknown key; descriptors are data only";
    QTest::newRow("callback") << variant(R"("name":)", R"("configure": "function(s){}", "name":)")
                              << "descriptor.configure"
                              << "unknown key";
    QTest::newRow("validation expression")
        << withField(R"j({"id":"a","type":"string","label":"A","validate":"/^[a-z]+$/.test(v)"})j")
        << "descriptor.settings.fields[0].validate"
        << "unknown key; descriptors are data only";
    QTest::newRow("pattern") << withField(R"({"id":"a","type":"string","label":"A","pattern":"^[a-z]+$"})")
                             << "descriptor.settings.fields[0].pattern"
                             << "unknown key";
    QTest::newRow("settings extra") << QByteArray(R"({"name":"T","settings":{"fields":[],"onChange":"x"}})")
                                    << "descriptor.settings.onChange"
                                    << "unknown key; descriptors are data only";
    QTest::newRow("option extra") << withField(
        R"({"id":"a","type":"select","label":"A","options":[{"value":"x","onclick":"y"}]})")
                                  << "descriptor.settings.fields[0].options[0].onclick"
                                  << "unknown key";
    QTest::newRow("enforcement dimension")
        << QByteArray(R"({"name":"T","enforcement":{"gpu":"yes"}})") << "descriptor.enforcement.gpu"
        << "unknown key";

    // Markup in user-visible text.
    QTest::newRow("script in name") << variant(R"("Cloud sandbox")", R"j("Cloud <script>alert(1)</script>")j")
                                    << "descriptor.name"
                                    << "contains markup";
    QTest::newRow("tag in description") << variant(R"("Runs tools)", R"j("<img src=x onerror=alert(1)> Runs tools)j")
                                        << "descriptor.description"
                                        << "contains markup";
    QTest::newRow("bold label") << variant(R"("label": "Region")", R"("label": "<b>Region</b>")")
                                << "descriptor.settings.fields[0].label"
                                << "contains markup";
    QTest::newRow("closing tag") << variant(R"("label": "Region")", R"("label": "Region</a>")")
                                 << "descriptor.settings.fields[0].label"
                                 << "contains markup";
    QTest::newRow("comment") << variant(R"("label": "Region")", R"("label": "Region<!-- x -->")")
                             << "descriptor.settings.fields[0].label"
                             << "contains markup";
    QTest::newRow("field description") << withField(
        R"({"id":"a","type":"string","label":"A","description":"<i>x</i>"})")
                                       << "descriptor.settings.fields[0].description"
                                       << "contains markup";
    QTest::newRow("option label") << withField(
        R"({"id":"a","type":"select","label":"A","options":[{"value":"x","label":"<u>X</u>"}]})")
                                  << "descriptor.settings.fields[0].options[0].label"
                                  << "contains markup";
    QTest::newRow("timeout call") << QByteArray(R"({"name":"T","timeouts":{"boot":5}})") << "descriptor.timeouts"
                                  << "unknown launcher call";
    QTest::newRow("timeout zero") << QByteArray(R"({"name":"T","timeouts":{"prepare":0}})")
                                  << "descriptor.timeouts.prepare"
                                  << "whole seconds from 1 to 3600, got 0";
    QTest::newRow("timeout fraction") << QByteArray(R"({"name":"T","timeouts":{"probe":1.5}})")
                                      << "descriptor.timeouts.probe"
                                      << "whole seconds";
    QTest::newRow("timeout huge") << QByteArray(R"({"name":"T","timeouts":{"spawn":1e300}})")
                                  << "descriptor.timeouts.spawn"
                                  << "whole seconds";
    QTest::newRow("timeout text") << QByteArray(R"({"name":"T","timeouts":{"dispose":"5"}})")
                                  << "descriptor.timeouts.dispose"
                                  << "got a string";
    QTest::newRow("timeouts type") << QByteArray(R"({"name":"T","timeouts":[5]})") << "descriptor.timeouts"
                                   << "expected an object, got an array";
    QTest::newRow("enforcement markup") << QByteArray(R"({"name":"T","enforcement":{"network":"<b>all</b>"}})")
                                        << "descriptor.enforcement.network"
                                        << "contains markup";
    QTest::newRow("control character") << QByteArray("{\"name\":\"T\\u0007\"}") << "descriptor.name"
                                       << "control character";
    QTest::newRow("bidi override") << QByteArray("{\"name\":\"T\\u202e\"}") << "descriptor.name"
                                   << "bidirectional override";

    // Structure and types.
    QTest::newRow("not an object") << QByteArray("[]") << "descriptor"
                                   << "expected an object, got an array";
    QTest::newRow("missing name") << QByteArray(R"({"description":"x"})") << "descriptor.name"
                                  << "missing required key";
    QTest::newRow("empty name") << QByteArray(R"({"name":""})") << "descriptor.name"
                                << "must not be empty";
    QTest::newRow("name type") << QByteArray(R"({"name":5})") << "descriptor.name"
                               << "expected a string, got a number";
    QTest::newRow("fields type") << QByteArray(R"({"name":"T","settings":{"fields":{}}})")
                                 << "descriptor.settings.fields"
                                 << "expected an array, got an object";
    QTest::newRow("settings type") << QByteArray(R"({"name":"T","settings":[]})") << "descriptor.settings"
                                   << "expected an object, got an array";
    QTest::newRow("field not object") << withField("\"region\"") << "descriptor.settings.fields[0]"
                                      << "expected an object, got a string";
    QTest::newRow("platform type") << QByteArray(R"({"name":"T","platforms":["linux",3]})") << "descriptor.platforms[1]"
                                   << "expected a string, got a number";
    QTest::newRow("unknown platform") << QByteArray(R"({"name":"T","platforms":["beos"]})") << "descriptor.platforms[0]"
                                      << "unknown platform \"beos\"";
    QTest::newRow("duplicate platform") << QByteArray(R"({"name":"T","platforms":["linux","linux"]})")
                                        << "descriptor.platforms[1]"
                                        << "listed twice";
    QTest::newRow("required type") << withField(R"({"id":"a","type":"string","label":"A","required":"yes"})")
                                   << "descriptor.settings.fields[0].required"
                                   << "expected a boolean, got a string";

    // Field rules, each naming the field.
    QTest::newRow("unknown field type") << withField(R"({"id":"color","type":"color","label":"Colour"})")
                                        << "descriptor.settings.fields[0].type"
                                        << "field \"color\" has the unknown type \"color\"";
    QTest::newRow("missing field type") << withField(R"({"id":"a","label":"A"})")
                                        << "descriptor.settings.fields[0].type"
                                        << "missing required key";
    QTest::newRow("missing id") << withField(R"({"type":"string","label":"A"})") << "descriptor.settings.fields[0].id"
                                << "missing required key";
    QTest::newRow("missing label") << withField(R"({"id":"a","type":"string"})")
                                   << "descriptor.settings.fields[0].label"
                                   << "missing required key";
    QTest::newRow("id digit first") << withField(R"({"id":"1abc","type":"string","label":"A"})")
                                    << "descriptor.settings.fields[0].id"
                                    << "\"1abc\" is not a valid field id";
    QTest::newRow("id with space") << withField(R"({"id":"a b","type":"string","label":"A"})")
                                   << "descriptor.settings.fields[0].id"
                                   << "is not a valid field id";
    QTest::newRow("id too long") << withField(R"({"id":")" + QByteArray(65, 'a') + R"(","type":"string","label":"A"})")
                                 << "descriptor.settings.fields[0].id"
                                 << "is not a valid field id";
    QTest::newRow("duplicate ids") << withFields(R"({"id":"region","type":"string","label":"A"})",
                                                 R"({"id":"region","type":"number","label":"B"})")
                                   << "descriptor.settings.fields[1].id"
                                   << "duplicate field id \"region\" (also fields[0])";
    QTest::newRow("select without options")
        << withField(R"({"id":"mode","type":"select","label":"Mode"})") << "descriptor.settings.fields[0].options"
        << "select field \"mode\" needs at least one option";
    QTest::newRow("select empty options") << withField(R"({"id":"mode","type":"select","label":"Mode","options":[]})")
                                          << "descriptor.settings.fields[0].options"
                                          << "select field \"mode\" needs at least one option";
    QTest::newRow("duplicate option values")
        << withField(R"({"id":"mode","type":"select","label":"Mode","options":[{"value":"a"},{"value":"a"}]})")
        << "descriptor.settings.fields[0].options[1].value"
        << "select field \"mode\" has the option value \"a\" twice";
    QTest::newRow("empty option value") << withField(
        R"({"id":"mode","type":"select","label":"Mode","options":[{"value":""}]})")
                                        << "descriptor.settings.fields[0].options[0].value"
                                        << "must not be empty";
    QTest::newRow("select default not an option") << variant(R"("defaultValue": "small")", R"("defaultValue": "huge")")
                                                  << "descriptor.settings.fields[4].defaultValue"
                                                  << "invalid default for field \"tier\": \"huge\" is not one of the "
                                                     "options (\"small\", \"large\")";
    QTest::newRow("string default number") << variant(R"("defaultValue": "us-east")", R"("defaultValue": 5)")
                                           << "descriptor.settings.fields[0].defaultValue"
                                           << "invalid default for field \"region\": expected a string, got a number";
    QTest::newRow("number default string")
        << variant(R"("defaultValue": 2)", R"("defaultValue": "2")") << "descriptor.settings.fields[2].defaultValue"
        << "invalid default for field \"cpus\": expected a number, got a string";
    QTest::newRow("boolean default string") << variant(R"("defaultValue": false)", R"("defaultValue": "no")")
                                            << "descriptor.settings.fields[3].defaultValue"
                                            << "invalid default for field \"keepWarm\": expected a boolean";
    QTest::newRow("null default") << variant(R"("defaultValue": false)", R"("defaultValue": null)")
                                  << "descriptor.settings.fields[3].defaultValue"
                                  << "expected a boolean, got null";
    QTest::newRow("secret with default") << variant(R"("label": "API key",)",
                                                    R"("label": "API key", "defaultValue": "sk-123",)")
                                         << "descriptor.settings.fields[1].defaultValue"
                                         << "secret field \"apiKey\" cannot have a default";
    QTest::newRow("min greater than max")
        << variant(R"("min": 1, "max": 64)", R"("min": 10, "max": 1)") << "descriptor.settings.fields[2].min"
        << "field \"cpus\": min (10) is greater than max (1)";
    QTest::newRow("default above max") << variant(R"("defaultValue": 2)", R"("defaultValue": 65)")
                                       << "descriptor.settings.fields[2].defaultValue"
                                       << "invalid default for field \"cpus\": 65 is above the maximum 64";
    QTest::newRow("default below min") << variant(R"("defaultValue": 2)", R"("defaultValue": 0.5)")
                                       << "descriptor.settings.fields[2].defaultValue"
                                       << "0.5 is below the minimum 1";
    QTest::newRow("min type") << variant(R"("min": 1)", R"("min": "1")") << "descriptor.settings.fields[2].min"
                              << "expected a number, got a string";
    QTest::newRow("options on string") << withField(
        R"({"id":"a","type":"string","label":"A","options":[{"value":"x"}]})")
                                       << "descriptor.settings.fields[0].options"
                                       << "field \"a\" is a string field; only select fields have options";
    QTest::newRow("max on boolean") << withField(R"({"id":"a","type":"boolean","label":"A","max":3})")
                                    << "descriptor.settings.fields[0].max"
                                    << "only number fields have min and max";
    QTest::newRow("unknown unit") << withField(R"({"id":"a","type":"number","label":"A","unit":"parsecs"})")
                                  << "descriptor.settings.fields[0].unit"
                                  << "field \"a\" has the unknown unit \"parsecs\"; expected bytes";
    QTest::newRow("unit on string") << withField(R"({"id":"a","type":"string","label":"A","unit":"bytes"})")
                                    << "descriptor.settings.fields[0].unit"
                                    << "only number fields have a unit";
    QTest::newRow("refusals claim with markup")
        << QByteArray(R"({"name":"X","refusals":"<script>alert(1)</script>"})") << "descriptor.refusals"
        << "only plain text is allowed";
    QTest::newRow("refusals claim not text")
        << QByteArray(R"({"name":"X","refusals":["proxy"]})") << "descriptor.refusals"
        << "expected a string";
}

void TestDescriptor::rejects()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, where);
    QFETCH(QString, message);
    const QJsonValue value = jsonValue(json);
    QVERIFY2(!value.isUndefined(), "test document must be valid JSON");
    const Result<BackendDescriptor> decoded = BackendDescriptor::fromJson(value);
    QVERIFY(!decoded.ok());
    SANDBOX_EXPECT_ERROR(decoded.error(), where, message);
}

void TestDescriptor::plainTextAllowsComparisons()
{
    // "<" that opens no tag is ordinary text; descriptions legitimately compare things.
    const Result<BackendDescriptor> decoded
        = BackendDescriptor::fromJson(jsonValue(R"({"name":"A < B","description":"cores <= 4, 3<5, x <- y"})"));
    QVERIFY2(decoded.ok(), qPrintable(decoded.ok() ? QString() : decoded.error().toString()));
    QCOMPARE(decoded.value().name, QStringLiteral("A < B"));
}

void TestDescriptor::validateChecksConstructedDescriptors()
{
    // Built-in launchers construct descriptors in C++; validate() holds them to the same rules.
    BackendDescriptor d;
    d.name = QStringLiteral("Built in");
    FieldSpec a;
    a.id = QStringLiteral("image");
    a.label = QStringLiteral("Image");
    d.fields = { a, a };
    Status status = d.validate();
    QVERIFY(!status.ok());
    SANDBOX_EXPECT_ERROR(status.error(), QStringLiteral("descriptor.settings.fields[1].id"),
                         QStringLiteral("duplicate field id \"image\""));

    d.fields = { a };
    d.fields[0].type = FieldSpec::Type::Secret;
    d.fields[0].defaultValue = QStringLiteral("x");
    status = d.validate(QStringLiteral("builtin:auto"));
    QVERIFY(!status.ok());
    SANDBOX_EXPECT_ERROR(status.error(), QStringLiteral("builtin:auto.settings.fields[0].defaultValue"),
                         QStringLiteral("secret field \"image\" cannot have a default"));

    d.fields[0].defaultValue = QJsonValue(QJsonValue::Undefined);
    d.fields[0].type = FieldSpec::Type::Number;
    d.fields[0].min = std::numeric_limits<double>::infinity();
    status = d.validate();
    QVERIFY(!status.ok());
    SANDBOX_EXPECT_ERROR(status.error(), QStringLiteral("descriptor.settings.fields[0].min"),
                         QStringLiteral("min must be finite"));

    d.fields[0].min.reset();
    QVERIFY(d.validate().ok());
    d.name = QStringLiteral("  ");
    QVERIFY(!d.validate().ok());
}

void TestDescriptor::validateValue_data()
{
    QTest::addColumn<QByteArray>("field");
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<QString>("message"); // empty: accepted

    QTest::newRow("string ok") << QByteArray(R"({"id":"a","type":"string","label":"A"})") << QByteArray(R"("x")")
                               << QString();
    QTest::newRow("string wrong") << QByteArray(R"({"id":"a","type":"string","label":"A"})") << QByteArray("true")
                                  << "expected a string, got a boolean";
    QTest::newRow("number ok") << QByteArray(R"({"id":"n","type":"number","label":"N","min":0,"max":10})")
                               << QByteArray("10") << QString();
    QTest::newRow("number above") << QByteArray(R"({"id":"n","type":"number","label":"N","min":0,"max":10})")
                                  << QByteArray("10.5") << "10.5 is above the maximum 10";
    QTest::newRow("number below") << QByteArray(R"({"id":"n","type":"number","label":"N","min":0})") << QByteArray("-1")
                                  << "-1 is below the minimum 0";
    QTest::newRow("number wrong") << QByteArray(R"({"id":"n","type":"number","label":"N"})") << QByteArray(R"("1")")
                                  << "expected a number, got a string";
    QTest::newRow("boolean ok") << QByteArray(R"({"id":"b","type":"boolean","label":"B"})") << QByteArray("false")
                                << QString();
    QTest::newRow("boolean wrong") << QByteArray(R"({"id":"b","type":"boolean","label":"B"})") << QByteArray("0")
                                   << "expected a boolean, got a number";
    QTest::newRow("select ok") << QByteArray(R"({"id":"s","type":"select","label":"S","options":[{"value":"x"}]})")
                               << QByteArray(R"("x")") << QString();
    QTest::newRow("select other") << QByteArray(R"({"id":"s","type":"select","label":"S","options":[{"value":"x"}]})")
                                  << QByteArray(R"("y")") << "\"y\" is not one of the options (\"x\")";
    QTest::newRow("secret plain") << QByteArray(R"({"id":"k","type":"secret","label":"K"})") << QByteArray(R"("sk-1")")
                                  << "is a secret field";
}

void TestDescriptor::validateValue()
{
    QFETCH(QByteArray, field);
    QFETCH(QByteArray, value);
    QFETCH(QString, message);
    const Result<FieldSpec> spec = FieldSpec::fromJson(jsonValue(field), QStringLiteral("field"));
    QVERIFY2(spec.ok(), qPrintable(spec.ok() ? QString() : spec.error().toString()));
    const Status status = spec.value().validateValue(jsonValue(value), QStringLiteral("here"));
    if (message.isEmpty()) {
        QVERIFY2(status.ok(), qPrintable(status.ok() ? QString() : status.error().toString()));
    } else {
        QVERIFY(!status.ok());
        SANDBOX_EXPECT_ERROR(status.error(), QStringLiteral("here"), message);
    }
}

// What a person types for a field, read and checked by the one rule every text presenter
// uses (sandboxctl settings set, the TUI's settings form): "4GiB" and "4 GiB" alike.
void TestDescriptor::parseText_data()
{
    QTest::addColumn<QByteArray>("field");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QByteArray>("value"); // JSON of the value read; empty: refused
    QTest::addColumn<QString>("message");
    const QByteArray number = R"({"id":"n","type":"number","label":"N"})";
    const QByteArray bytes = R"({"id":"b","type":"number","label":"B","unit":"bytes"})";
    const QByteArray flag = R"({"id":"f","type":"boolean","label":"F"})";
    QTest::newRow("string as typed") << QByteArray(R"({"id":"s","type":"string","label":"S"})")
                                     << QStringLiteral(" a b ") << QByteArray(R"(" a b ")") << QString();
    const QByteArray select = R"({"id":"s","type":"select","label":"S","options":[{"value":"x","label":"X"}]})";
    QTest::newRow("select option") << select << QStringLiteral("x") << QByteArray(R"("x")") << QString();
    QTest::newRow("select, not an option")
        << select << QStringLiteral("X") << QByteArray() << QStringLiteral("\"X\" is not one of the options (\"x\")");
    QTest::newRow("plain number") << number << QStringLiteral("42") << QByteArray("42") << QString();
    QTest::newRow("fraction") << number << QStringLiteral("0.5") << QByteArray("0.5") << QString();
    QTest::newRow("no unit without bytes")
        << number << QStringLiteral("4GiB") << QByteArray() << QStringLiteral("expected a number, got \"4GiB\"");
    QTest::newRow("not a number") << number << QStringLiteral("many") << QByteArray()
                                  << QStringLiteral("expected a number, got \"many\"");
    QTest::newRow("not finite") << number << QStringLiteral("inf") << QByteArray()
                                << QStringLiteral("must be a finite number");
    const QByteArray bounded = R"({"id":"n","type":"number","label":"N","min":1,"max":64})";
    QTest::newRow("lowest") << bounded << QStringLiteral("1") << QByteArray("1") << QString();
    QTest::newRow("highest") << bounded << QStringLiteral("64") << QByteArray("64") << QString();
    QTest::newRow("below the minimum") << bounded << QStringLiteral("0") << QByteArray()
                                       << QStringLiteral("0 is below the minimum 1");
    QTest::newRow("above the maximum") << bounded << QStringLiteral("65") << QByteArray()
                                       << QStringLiteral("65 is above the maximum 64");
    QTest::newRow("bytes plain") << bytes << QStringLiteral("4096") << QByteArray("4096") << QString();
    QTest::newRow("GiB joined") << bytes << QStringLiteral("4GiB") << QByteArray("4294967296") << QString();
    QTest::newRow("GiB spaced") << bytes << QStringLiteral("4 GiB") << QByteArray("4294967296") << QString();
    QTest::newRow("lower case short") << bytes << QStringLiteral("2m") << QByteArray("2097152") << QString();
    QTest::newRow("fraction of a unit") << bytes << QStringLiteral("1.5 KiB") << QByteArray("1536") << QString();
    QTest::newRow("TiB") << bytes << QStringLiteral("1T") << QByteArray("1099511627776") << QString();
    const QString sizeExpected
        = QStringLiteral("expected a number, or a size such as 4GiB or 512 MiB (KiB, MiB, GiB or TiB), got \"%1\"");
    QTest::newRow("unknown unit") << bytes << QStringLiteral("4 PiB") << QByteArray()
                                  << sizeExpected.arg(QStringLiteral("4 PiB"));
    QTest::newRow("unit alone") << bytes << QStringLiteral("GiB") << QByteArray()
                                << sizeExpected.arg(QStringLiteral("GiB"));
    QTest::newRow("unit first") << bytes << QStringLiteral("GiB 4") << QByteArray()
                                << sizeExpected.arg(QStringLiteral("GiB 4"));
    const QByteArray smallBytes = R"({"id":"b","type":"number","label":"B","unit":"bytes","min":1024,"max":2048})";
    QTest::newRow("size at the maximum") << smallBytes << QStringLiteral("2KiB") << QByteArray("2048") << QString();
    QTest::newRow("size above the maximum")
        << smallBytes << QStringLiteral("4 K") << QByteArray() << QStringLiteral("4096 is above the maximum 2048");
    QTest::newRow("size below the minimum")
        << smallBytes << QStringLiteral("0.5KiB") << QByteArray() << QStringLiteral("512 is below the minimum 1024");
    QTest::newRow("yes") << flag << QStringLiteral("yes") << QByteArray("true") << QString();
    QTest::newRow("ON") << flag << QStringLiteral("ON") << QByteArray("true") << QString();
    QTest::newRow("0") << flag << QStringLiteral("0") << QByteArray("false") << QString();
    QTest::newRow("off") << flag << QStringLiteral("off") << QByteArray("false") << QString();
    QTest::newRow("maybe") << flag << QStringLiteral("maybe") << QByteArray()
                           << QStringLiteral("expected true or false, got \"maybe\"");
    QTest::newRow("secret") << QByteArray(R"({"id":"k","type":"secret","label":"K"})") << QStringLiteral("hunter2")
                            << QByteArray()
                            << QStringLiteral("is a secret field; set it as a secret, never as a plain value");
}

void TestDescriptor::parseText()
{
    QFETCH(QByteArray, field);
    QFETCH(QString, text);
    QFETCH(QByteArray, value);
    QFETCH(QString, message);
    const Result<FieldSpec> spec = FieldSpec::fromJson(jsonValue(field), QStringLiteral("field"));
    QVERIFY2(spec.ok(), qPrintable(spec.ok() ? QString() : spec.error().toString()));
    const Result<QJsonValue> read = spec.value().parseText(text, QStringLiteral("here"));
    if (value.isEmpty()) {
        QVERIFY(!read.ok());
        SANDBOX_EXPECT_ERROR(read.error(), QStringLiteral("here"), message);
    } else {
        QVERIFY2(read.ok(), qPrintable(read.ok() ? QString() : read.error().toString()));
        QCOMPARE(read.value(), jsonValue(value));
    }
}

// A field made in one expression, as the launchers declare theirs, is the field its JSON declares.
void TestDescriptor::madeFieldIsTheDeclaredOne()
{
    const FieldSpec size = FieldSpec::make(QStringLiteral("b"), FieldSpec::Type::Number, QStringLiteral("B"),
                                           QStringLiteral("Bytes."), 4096)
                               .withRange(1024, std::nullopt)
                               .asByteSize()
                               .asRequired();
    const Result<FieldSpec> declared = FieldSpec::fromJson(
        jsonValue(R"({"id":"b","type":"number","label":"B","description":"Bytes.","defaultValue":4096,)"
                  R"("min":1024,"unit":"bytes","required":true})"),
        QStringLiteral("field"));
    QVERIFY2(declared.ok(), qPrintable(declared.ok() ? QString() : declared.error().toString()));
    QCOMPARE(size, declared.value());
    QVERIFY(!size.max.has_value());

    const FieldSpec select = FieldSpec::make(QStringLiteral("s"), FieldSpec::Type::Select, QStringLiteral("S"))
                                 .withOptions({ { QStringLiteral("x"), QStringLiteral("X") } })
                                 .withDefault(QStringLiteral("x"));
    QCOMPARE(
        select.toJson(),
        jsonValue(R"({"id":"s","type":"select","label":"S","defaultValue":"x","options":[{"value":"x","label":"X"}]})")
            .toObject());
    QVERIFY(select.validate(QStringLiteral("field")).ok());
}

void TestDescriptor::fieldTypeNames()
{
    const QStringList names{ QStringLiteral("string"), QStringLiteral("number"), QStringLiteral("boolean"),
                             QStringLiteral("select"), QStringLiteral("secret") };
    for (const QString &name : names) {
        const std::optional<FieldSpec::Type> type = FieldSpec::typeFromName(name);
        QVERIFY(type.has_value());
        QCOMPARE(FieldSpec::typeName(*type), name);
    }
    QVERIFY(!FieldSpec::typeFromName(QStringLiteral("String")).has_value());
    QVERIFY(!FieldSpec::typeFromName(QStringLiteral("html")).has_value());
}

void TestDescriptor::sizeBounds()
{
    // Bounds keep a hostile pack from making the engine and the form do unbounded work.
    QJsonArray fields;
    for (int i = 0; i < 257; ++i)
        fields.append(QJsonObject{ { QStringLiteral("id"), QStringLiteral("f%1").arg(i) },
                                   { QStringLiteral("type"), QStringLiteral("boolean") },
                                   { QStringLiteral("label"), QStringLiteral("F") } });
    QJsonObject json{ { QStringLiteral("name"), QStringLiteral("Big") },
                      { QStringLiteral("settings"), QJsonObject{ { QStringLiteral("fields"), fields } } } };
    Result<BackendDescriptor> decoded = BackendDescriptor::fromJson(json);
    QVERIFY(!decoded.ok());
    SANDBOX_EXPECT_ERROR(decoded.error(), QStringLiteral("descriptor.settings.fields"),
                         QStringLiteral("too many fields"));

    json = QJsonObject{ { QStringLiteral("name"), QString(201, QLatin1Char('n')) } };
    decoded = BackendDescriptor::fromJson(json);
    QVERIFY(!decoded.ok());
    SANDBOX_EXPECT_ERROR(decoded.error(), QStringLiteral("descriptor.name"), QStringLiteral("is too long"));

    json = QJsonObject{ { QStringLiteral("name"), QStringLiteral("Long text") },
                        { QStringLiteral("description"), QString(JsonReader::maxStringLength + 1, QLatin1Char('d')) } };
    decoded = BackendDescriptor::fromJson(json);
    QVERIFY(!decoded.ok());
    SANDBOX_EXPECT_ERROR(decoded.error(), QStringLiteral("descriptor.description"), QStringLiteral("is too long"));
}

void TestDescriptor::timeoutsAreWholeSecondsPerCall()
{
    const Result<BackendDescriptor> d = BackendDescriptor::fromJson(
        jsonValue(R"({"name":"T","timeouts":{"prepare":600,"configure":1,"dispose":3600}})"));
    QVERIFY2(d.ok(), qPrintable(d.ok() ? QString() : d.error().toString()));
    QCOMPARE(d.value().timeouts,
             (QMap<QString, int>{ { QStringLiteral("prepare"), 600 },
                                  { QStringLiteral("configure"), 1 },
                                  { QStringLiteral("dispose"), 3600 } }));
    QCOMPARE(BackendDescriptor::fromJson(d.value().toJson()).value(), d.value());

    BackendDescriptor constructed = d.value();
    constructed.timeouts.insert(QStringLiteral("probe"), 0);
    const Status invalid = constructed.validate();
    QVERIFY(!invalid.ok());
    QCOMPARE(invalid.error().where, QStringLiteral("descriptor.timeouts.probe"));
}

QTEST_GUILESS_MAIN(TestDescriptor)
#include "tst_descriptor.moc"
