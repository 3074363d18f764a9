#include "FuzzSupport.h"
#include "protocol/BackendDescriptor.h"
#include "protocol/SettingsValues.h"

#include <QJsonArray>

using namespace sandbox;

// Descriptors come from contributed packs: the least trusted JSON the engine reads.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::optional<QJsonObject> object = fuzz::parseInput(data, size);
    if (!object)
        return 0;
    fuzz::checkDecoder<BackendDescriptor>(*object, [](const QJsonValue &v) { return BackendDescriptor::fromJson(v); });
    // Each field decoded on its own too, as the schema form does when it renders one.
    const QJsonArray fields
        = object->value(QStringLiteral("settings")).toObject().value(QStringLiteral("fields")).toArray();
    for (const QJsonValue &field : fields)
        fuzz::checkDecoder<FieldSpec>(field,
                                      [](const QJsonValue &v) { return FieldSpec::fromJson(v, QStringLiteral("f")); });

    const Result<BackendDescriptor> descriptor = BackendDescriptor::fromJson(*object);
    if (descriptor.ok()) {
        if (!descriptor.value().validate().ok())
            fuzz::contractBroken("a decoded descriptor fails validate()",
                                 descriptor.value().validate().error().toString());
        // The defaults a valid descriptor declares must themselves be valid settings.
        const SettingsValues defaults = SettingsValues().withDefaults(descriptor.value());
        const Status status = defaults.validate(descriptor.value(), QStringLiteral("defaults"));
        if (!status.ok()) {
            for (const Error &detail : status.error().details) {
                if (!detail.message.contains(QStringLiteral("is required")))
                    fuzz::contractBroken("a declared default is not a valid value", detail.toString());
            }
        }
        if (!(defaults.withoutDefaults(descriptor.value()) == SettingsValues()))
            fuzz::contractBroken("defaults are not stripped again", QString());
    }
    return 0;
}
