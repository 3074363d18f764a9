#include "core/secrets/CredentialStore.h"

#include "core/secrets/SecretStore.h"
#include "protocol/JsonReader.h"
#include "protocol/PolicyCredential.h"

#include <QDir>
#include <QJsonArray>
#include <QMutexLocker>

namespace sandbox {

namespace {

const BackendRef &credentialKey()
{
    static const BackendRef ref = BackendRef::builtin(QStringLiteral("credential"));
    return ref;
}

Status checkName(const QString &name)
{
    if (const QString problem = PolicyCredential::nameProblem(name); !problem.isEmpty())
        return Error{ QStringLiteral("credential"), CredentialStore::tr("credential name %1").arg(problem), {} };
    return {};
}

Status validIndex(const QJsonObject &json)
{
    JsonReader reader(json, QStringLiteral("credentials.json"));
    reader.rejectUnknownKeys({ QStringLiteral("names") });
    const QStringList names = reader.optionalStringList(QStringLiteral("names"));
    if (!reader.ok())
        return reader.error();
    for (qsizetype i = 0; i < names.size(); ++i) {
        if (const QString problem = PolicyCredential::nameProblem(names.at(i)); !problem.isEmpty())
            return Error{ QStringLiteral("credentials.json.names[%1]").arg(i), problem, {} };
    }
    return {};
}

} // namespace

CredentialStore::CredentialStore(SecretStore &secrets, const QString &configDirectory)
    : m_secrets(secrets)
    , m_index(QDir(configDirectory).filePath(QStringLiteral("credentials.json")))
{ }

Result<QStringList> CredentialStore::names()
{
    QMutexLocker lock(&m_mutex);
    return readNames();
}

Result<QStringList> CredentialStore::readNames()
{
    const Result<std::optional<QJsonObject>> document = m_index.read(validIndex);
    if (!document.ok())
        return document.error();
    if (!document.value())
        return QStringList{};
    QStringList names;
    for (const QJsonValue &name : document.value()->value(QStringLiteral("names")).toArray())
        names.append(name.toString());
    names.sort();
    names.removeDuplicates();
    return names;
}

Status CredentialStore::recordName(const QString &name, bool present)
{
    QMutexLocker lock(&m_mutex);
    Result<QStringList> current = readNames();
    if (!current.ok())
        return current.error();
    // Written even when the list stays the same: a new file tells every engine's proxy that
    // a value changed (CredentialVault).
    QStringList list = current.value();
    list.removeAll(name);
    if (present)
        list.append(name);
    list.sort();
    return m_index.write(QJsonObject{ { QStringLiteral("names"), QJsonArray::fromStringList(list) } });
}

Result<bool> CredentialStore::isConfigured(const QString &name) const
{
    if (Status valid = checkName(name); !valid.ok())
        return valid.error();
    return m_secrets.isConfigured(credentialKey(), name);
}

Result<std::optional<QString>> CredentialStore::read(const QString &name) const
{
    if (Status valid = checkName(name); !valid.ok())
        return valid.error();
    return m_secrets.read(credentialKey(), name);
}

Status CredentialStore::write(const QString &name, const QString &value)
{
    if (Status valid = checkName(name); !valid.ok())
        return valid;
    if (value.isEmpty())
        return Error{ QStringLiteral("credential.") + name,
                      tr("an empty value stores nothing; remove the credential instead"),
                      {} };
    for (QChar c : value) {
        // The value goes into HTTP headers: a line break would let it add headers of its own.
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            return Error{ QStringLiteral("credential.") + name,
                          tr("the value contains a control character (a line break?); it cannot be sent in a header"),
                          {} };
    }
    if (Status written = m_secrets.write(credentialKey(), name, value); !written.ok())
        return written;
    return recordName(name, true);
}

Status CredentialStore::remove(const QString &name)
{
    if (Status valid = checkName(name); !valid.ok())
        return valid;
    if (Status removed = m_secrets.remove(credentialKey(), name); !removed.ok())
        return removed;
    return recordName(name, false);
}

} // namespace sandbox
