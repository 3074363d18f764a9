#pragma once

#include "core/settings/JsonDocumentStore.h"
#include "protocol/Error.h"

#include <QCoreApplication>
#include <QMutex>
#include <QString>
#include <QStringList>

#include <optional>

namespace sandbox {

class SecretStore;

// The values of the policy's credentials, kept in the engine's secret storage (the OS
// keychain, or the plain file the user opted into) beside the backends' secrets, under
// the reserved key "builtin:credential/<name>" (no backend has the kind "credential").
// Only the engine's proxy reads a value; every API outside the engine asks isConfigured().
// The names that have a value (never a value) are kept in credentials.json in the
// configuration directory, since a keychain cannot be listed.
class CredentialStore final
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::CredentialStore)

public:
    CredentialStore(SecretStore &secrets, const QString &configDirectory);

    // The names stored with a value, sorted.
    Result<QStringList> names();

    Result<bool> isConfigured(const QString &name) const;
    Result<std::optional<QString>> read(const QString &name) const;
    // Refuses a bad name and an empty value; replaces a stored value.
    Status write(const QString &name, const QString &value);
    // Removing a credential that has no value succeeds.
    Status remove(const QString &name);
    // The index of names, rewritten (a new file) by every write and remove.
    QString indexPath() const { return m_index.path(); }

private:
    Result<QStringList> readNames();
    Status recordName(const QString &name, bool present);

    SecretStore &m_secrets;
    QMutex m_mutex;
    JsonDocumentStore m_index;
};

} // namespace sandbox
