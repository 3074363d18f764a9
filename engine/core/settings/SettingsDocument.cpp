#include "core/settings/SettingsDocument.h"

#include "protocol/JsonReader.h"

#include <QCoreApplication>
#include <QJsonValue>

#include <algorithm>
#include <optional>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("SettingsDocument", text);
}

Result<QMap<QString, QJsonObject>> readBackendMap(const QJsonObject &object, const QString &where)
{
    QMap<QString, QJsonObject> map;
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString path = where + QLatin1Char('.') + it.key();
        Result<BackendRef> ref = BackendRef::parse(it.key());
        if (!ref.ok())
            return Error{ path, ref.error().message, {} };
        if (ref.value().toString() != it.key())
            return Error{ path, tr("not a canonical backend reference"), {} };
        if (!it.value().isObject())
            return Error{ path, tr("expected an object, got %1").arg(JsonReader::typeName(it.value())), {} };
        map.insert(it.key(), it.value().toObject());
    }
    return map;
}

} // namespace

QJsonObject SettingsDocument::toJson() const
{
    QJsonObject object{ { QStringLiteral("version"), currentVersion } };
    if (active)
        object.insert(QStringLiteral("active"), active->toString());
    QJsonObject backendsObject;
    for (auto it = backends.begin(); it != backends.end(); ++it)
        backendsObject.insert(it.key(), it.value());
    object.insert(QStringLiteral("backends"), backendsObject);
    if (!retained.isEmpty()) {
        QJsonObject retainedObject;
        for (auto it = retained.begin(); it != retained.end(); ++it) {
            QJsonObject refs;
            for (auto ref = it.value().begin(); ref != it.value().end(); ++ref)
                refs.insert(ref.key(), ref.value());
            retainedObject.insert(it.key(), refs);
        }
        object.insert(QStringLiteral("retained"), retainedObject);
    }
    return object;
}

namespace {

// Reads sandbox.vm.baseline into builtin:vm's fields.
Result<QJsonObject> legacyVmBaseline(const QJsonValue &value, const QString &path)
{
    QJsonObject fields;
    if (value.isBool()) {
        fields.insert(QStringLiteral("baselineEnabled"), value.toBool());
        return fields;
    }
    if (!value.isObject())
        return Error{ path, tr("expected a boolean or an object, got %1").arg(JsonReader::typeName(value)), {} };
    const QJsonObject legacy = value.toObject();
    const QList<std::pair<QString, QString>> names{
        { QStringLiteral("enabled"), QStringLiteral("baselineEnabled") },
        { QStringLiteral("maxInactiveArtifacts"), QStringLiteral("baselineMaxInactiveArtifacts") },
        { QStringLiteral("maxBytes"), QStringLiteral("baselineMaxBytes") }
    };
    for (auto it = legacy.begin(); it != legacy.end(); ++it) {
        const auto name
            = std::find_if(names.cbegin(), names.cend(), [&](const auto &pair) { return pair.first == it.key(); });
        if (name == names.cend())
            return Error{ path + QLatin1Char('.') + it.key(),
                          tr("unknown key (expected enabled, maxInactiveArtifacts or maxBytes)"),
                          {} };
        const bool boolean = name->first == QLatin1String("enabled");
        if (boolean ? !it.value().isBool() : !it.value().isDouble())
            return Error{ path + QLatin1Char('.') + it.key(),
                          tr("expected a %1, got %2")
                              .arg(boolean ? tr("boolean") : tr("number"), JsonReader::typeName(it.value())),
                          {} };
        fields.insert(name->second, it.value());
    }
    return fields;
}

} // namespace

Result<SettingsDocument> SettingsDocument::fromJson(const QJsonObject &input, const QString &where,
                                                    QStringList *notices)
{
    const QString legacyKey = QString::fromLatin1(legacyVmBaselineKey);
    QJsonObject object = input;
    std::optional<QJsonObject> legacy;
    if (object.contains(legacyKey)) {
        Result<QJsonObject> fields = legacyVmBaseline(object.value(legacyKey), where + QLatin1Char('.') + legacyKey);
        if (!fields.ok())
            return fields.error();
        legacy = fields.value();
        object.remove(legacyKey);
    }
    JsonReader reader(object, where);
    const double version = reader.requireNumber(QStringLiteral("version"));
    const QString active = reader.optionalString(QStringLiteral("active"));
    const QJsonObject backends = reader.optionalObject(QStringLiteral("backends"));
    const QJsonObject retained = reader.optionalObject(QStringLiteral("retained"));
    reader.rejectUnknownKeys({ QStringLiteral("version"), QStringLiteral("active"), QStringLiteral("backends"),
                               QStringLiteral("retained") });
    if (!reader.ok())
        return reader.error();
    if (version != currentVersion) {
        return Error{ reader.childPath(QStringLiteral("version")),
                      tr("version %1 is not supported (this build reads version %2)").arg(version).arg(currentVersion),
                      {} };
    }

    SettingsDocument document;
    if (!active.isEmpty()) {
        Result<BackendRef> ref = BackendRef::parse(active);
        if (!ref.ok())
            return Error{ reader.childPath(QStringLiteral("active")), ref.error().message, {} };
        document.active = ref.value();
    }
    Result<QMap<QString, QJsonObject>> map = readBackendMap(backends, reader.childPath(QStringLiteral("backends")));
    if (!map.ok())
        return map.error();
    document.backends = map.value();
    for (auto it = retained.begin(); it != retained.end(); ++it) {
        const QString path = reader.childPath(QStringLiteral("retained")) + QLatin1Char('.') + it.key();
        if (!it.value().isObject())
            return Error{ path, tr("expected an object, got %1").arg(JsonReader::typeName(it.value())), {} };
        Result<QMap<QString, QJsonObject>> refs = readBackendMap(it.value().toObject(), path);
        if (!refs.ok())
            return refs.error();
        document.retained.insert(it.key(), refs.value());
    }
    if (legacy) {
        const QString vm = QStringLiteral("builtin:vm");
        QJsonObject fields = document.backends.value(vm);
        QStringList moved;
        for (auto it = legacy->begin(); it != legacy->end(); ++it) {
            if (fields.contains(it.key()))
                continue;
            fields.insert(it.key(), it.value());
            moved.append(it.key());
        }
        if (!fields.isEmpty())
            document.backends.insert(vm, fields);
        if (notices) {
            notices->append(
                moved.isEmpty()
                    ? tr("%1: the legacy %2 settings were dropped: %3 already has its own").arg(where, legacyKey, vm)
                    : tr("%1: the legacy %2 settings now live in %3's settings (%4)")
                          .arg(where, legacyKey, vm, moved.join(QStringLiteral(", "))));
        }
    }
    return document;
}

} // namespace sandbox
