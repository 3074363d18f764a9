#include "core/secrets/PlaintextSecretStore.h"

#include "protocol/JsonReader.h"

#include <QDir>

namespace sandbox {

namespace {

Status validateSecretsFile(const QJsonObject &object, const QString &where)
{
    if (object.value(QStringLiteral("version")).toInt() != 1)
        return Error{ where + QStringLiteral(".version"), PlaintextSecretStore::tr("expected version 1"), {} };
    const QJsonObject backends = object.value(QStringLiteral("backends")).toObject();
    for (auto it = backends.begin(); it != backends.end(); ++it) {
        if (!it.value().isObject())
            return Error{ where + QStringLiteral(".backends.") + it.key(),
                          PlaintextSecretStore::tr("expected an object"),
                          {} };
        const QJsonObject fields = it.value().toObject();
        for (auto field = fields.begin(); field != fields.end(); ++field) {
            // The message names the field but never echoes its value.
            if (!field.value().isString())
                return Error{ where + QStringLiteral(".backends.") + it.key() + QLatin1Char('.') + field.key(),
                              PlaintextSecretStore::tr("expected a string"),
                              {} };
        }
    }
    return {};
}

} // namespace

PlaintextSecretStore::PlaintextSecretStore(const QString &configDirectory)
    : m_file(QDir(configDirectory).filePath(QStringLiteral("secrets.json")))
{ }

Result<QJsonObject> PlaintextSecretStore::readLocked()
{
    QString warning;
    Result<std::optional<QJsonObject>> object
        = m_file.read([this](const QJsonObject &json) { return validateSecretsFile(json, m_file.path()); }, &warning);
    if (!warning.isEmpty())
        m_warnings.append(warning);
    if (!object.ok())
        return object.error();
    if (!object.value())
        return QJsonObject{ { QStringLiteral("version"), 1 }, { QStringLiteral("backends"), QJsonObject() } };
    return *object.value();
}

Result<std::optional<QString>> PlaintextSecretStore::read(const BackendRef &ref, const QString &fieldId)
{
    QMutexLocker locker(&m_mutex);
    Result<QJsonObject> object = QJsonObject();
    const std::optional<std::optional<QJsonObject>> clean
        = m_file.readClean([this](const QJsonObject &json) { return validateSecretsFile(json, m_file.path()); });
    if (clean) {
        object = *clean
            ? **clean
            : QJsonObject{ { QStringLiteral("version"), 1 }, { QStringLiteral("backends"), QJsonObject() } };
    } else {
        if (Status status = m_file.lock(); !status.ok())
            return status.error();
        object = readLocked();
        m_file.unlock();
    }
    if (!object.ok())
        return object.error();
    const QJsonValue value
        = object.value().value(QStringLiteral("backends")).toObject().value(ref.toString()).toObject().value(fieldId);
    if (!value.isString())
        return std::optional<QString>();
    return std::optional<QString>(value.toString());
}

Result<bool> PlaintextSecretStore::isConfigured(const BackendRef &ref, const QString &fieldId)
{
    Result<std::optional<QString>> value = read(ref, fieldId);
    if (!value.ok())
        return value.error();
    return value.value().has_value();
}

Status PlaintextSecretStore::change(const BackendRef &ref, const QString &fieldId, const std::optional<QString> &value)
{
    QMutexLocker locker(&m_mutex);
    if (Status status = m_file.lock(); !status.ok())
        return status;
    Result<QJsonObject> object = readLocked();
    Status status = object.ok() ? Status() : Status(object.error());
    if (status.ok()) {
        QJsonObject root = object.value();
        QJsonObject backends = root.value(QStringLiteral("backends")).toObject();
        QJsonObject fields = backends.value(ref.toString()).toObject();
        if (value)
            fields.insert(fieldId, *value);
        else
            fields.remove(fieldId);
        if (fields.isEmpty())
            backends.remove(ref.toString());
        else
            backends.insert(ref.toString(), fields);
        root.insert(QStringLiteral("backends"), backends);
        status = m_file.write(root);
    }
    m_file.unlock();
    return status;
}

Status PlaintextSecretStore::write(const BackendRef &ref, const QString &fieldId, const QString &value)
{
    return change(ref, fieldId, value);
}

Status PlaintextSecretStore::remove(const BackendRef &ref, const QString &fieldId)
{
    return change(ref, fieldId, std::nullopt);
}

QStringList PlaintextSecretStore::warnings() const
{
    QMutexLocker locker(&m_mutex);
    return m_warnings;
}

} // namespace sandbox
