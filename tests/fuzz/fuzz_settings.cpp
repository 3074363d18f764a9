#include "FuzzSupport.h"
#include "protocol/SettingsValues.h"

using namespace sandbox;

namespace {

// A schema with one field of every type, to validate fuzzed values against.
const BackendDescriptor &schema()
{
    static const BackendDescriptor descriptor = [] {
        const Result<QJsonObject> json = parseJsonObject(R"({"name":"Fuzz","settings":{"fields":[
            {"id":"region","type":"string","label":"Region","defaultValue":"us-east"},
            {"id":"apiKey","type":"secret","label":"API key","required":true},
            {"id":"cpus","type":"number","label":"CPUs","defaultValue":2,"min":1,"max":64},
            {"id":"warm","type":"boolean","label":"Warm"},
            {"id":"cacheBytes","type":"number","label":"Cache","unit":"bytes","min":1024,"max":1099511627776},
            {"id":"tier","type":"select","label":"Tier","required":true,"options":[{"value":"s"},{"value":"l"}]}]}})",
                                                         QStringLiteral("schema"));
        return BackendDescriptor::fromJson(json.value()).value();
    }();
    return descriptor;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::optional<QJsonObject> object = fuzz::parseInput(data, size);
    if (!object)
        return 0;
    const QString path = QStringLiteral("settings");
    fuzz::checkDecoder<SettingsValues>(*object, [&](const QJsonValue &v) { return SettingsValues::fromJson(v, path); });
    fuzz::checkDecoder<SettingsView>(*object, [&](const QJsonValue &v) { return SettingsView::fromJson(v, path); });
    fuzz::checkDecoder<SecretUpdate>(*object, [&](const QJsonValue &v) { return SecretUpdate::fromJson(v, path); });

    // Every string of the input as a person's text for every field (FieldSpec::parseText, the
    // presenters' one rule): what it accepts is a valid value of the field, what it refuses
    // names the field.
    for (auto it = object->begin(); it != object->end(); ++it) {
        if (!it.value().isString())
            continue;
        for (const FieldSpec &field : schema().fields) {
            const QString where = QStringLiteral("builtin:fuzz.") + field.id;
            const Result<QJsonValue> read = field.parseText(it.value().toString(), where);
            if (!read.ok()) {
                fuzz::checkError(read.error());
                if (read.error().where != where)
                    fuzz::contractBroken("a refused text does not name its field", read.error().toString());
            } else if (const Status valid = field.validateValue(read.value(), where); !valid.ok()) {
                fuzz::contractBroken("a text read for a field is not a valid value of it", valid.error().toString());
            }
        }
    }

    const Result<SettingsValues> values = SettingsValues::fromJson(*object, path);
    if (!values.ok())
        return 0;
    const Status status = values.value().validate(schema(), QStringLiteral("builtin:fuzz"));
    if (!status.ok()) {
        fuzz::checkError(status.error());
        if (status.error().details.isEmpty())
            fuzz::contractBroken("settings errors carry no per-field details", status.error().toString());
        for (const Error &detail : status.error().details) {
            fuzz::checkError(detail);
            if (!detail.where.startsWith(QStringLiteral("builtin:fuzz.")))
                fuzz::contractBroken("a settings error does not name its field", detail.toString());
        }
    }
    const SettingsValues filled = values.value().withDefaults(schema());
    if (!(filled.withoutDefaults(schema()).withDefaults(schema()) == filled))
        fuzz::contractBroken("stripping and refilling defaults changed the values", QString());
    return 0;
}
