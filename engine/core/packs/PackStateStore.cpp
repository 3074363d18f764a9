#include "core/packs/PackStateStore.h"

#include "protocol/JsonReader.h"

#include <QDir>

namespace sandbox {

namespace {

Result<QMap<QString, PackRecord>> decode(const QJsonObject &object, const QString &where)
{
    JsonReader reader(object, where);
    const double version = reader.requireNumber(QStringLiteral("version"));
    const QJsonObject packs = reader.optionalObject(QStringLiteral("packs"));
    reader.rejectUnknownKeys({ QStringLiteral("version"), QStringLiteral("packs") });
    if (!reader.ok())
        return reader.error();
    if (version != 1)
        return Error{ reader.childPath(QStringLiteral("version")), PackStateStore::tr("expected version 1"), {} };
    QMap<QString, PackRecord> records;
    for (auto it = packs.begin(); it != packs.end(); ++it) {
        JsonReader pack(it.value(), reader.childPath(QStringLiteral("packs")) + QLatin1Char('.') + it.key());
        PackRecord record;
        record.publisher = pack.requireString(QStringLiteral("publisher"));
        record.name = pack.optionalString(QStringLiteral("name"));
        record.version = pack.optionalString(QStringLiteral("version"));
        record.enabled = pack.optionalBool(QStringLiteral("enabled"), true);
        record.installed = pack.optionalBool(QStringLiteral("installed"), true);
        record.secretFields = pack.optionalStringList(QStringLiteral("secretFields"));
        pack.rejectUnknownKeys({ QStringLiteral("publisher"), QStringLiteral("name"), QStringLiteral("version"),
                                 QStringLiteral("enabled"), QStringLiteral("installed"),
                                 QStringLiteral("secretFields") });
        if (!pack.ok())
            return pack.error();
        records.insert(it.key(), record);
    }
    return records;
}

} // namespace

PackStateStore::PackStateStore(const QString &configDirectory)
    : m_document(QDir(configDirectory).filePath(QStringLiteral("packs.json")))
{ }

Result<QMap<QString, PackRecord>> PackStateStore::load()
{
    const QString path = m_document.path();
    Result<std::optional<QJsonObject>> object = m_document.read([&path](const QJsonObject &json) -> Status {
        Result<QMap<QString, PackRecord>> records = decode(json, path);
        return records.ok() ? Status() : Status(records.error());
    });
    if (!object.ok())
        return object.error();
    if (!object.value())
        return QMap<QString, PackRecord>();
    return decode(*object.value(), path);
}

Status PackStateStore::save(const QMap<QString, PackRecord> &packs)
{
    QJsonObject packsObject;
    for (auto it = packs.begin(); it != packs.end(); ++it) {
        packsObject.insert(
            it.key(),
            QJsonObject{ { QStringLiteral("publisher"), it->publisher },
                         { QStringLiteral("name"), it->name },
                         { QStringLiteral("version"), it->version },
                         { QStringLiteral("enabled"), it->enabled },
                         { QStringLiteral("installed"), it->installed },
                         { QStringLiteral("secretFields"), QJsonArray::fromStringList(it->secretFields) } });
    }
    return m_document.write(QJsonObject{ { QStringLiteral("version"), 1 }, { QStringLiteral("packs"), packsObject } });
}

QStringList PackStateStore::warnings() const
{
    return m_document.warnings();
}

} // namespace sandbox
