#pragma once

#include "core/secrets/SecretStore.h"
#include "core/settings/LockedJsonFile.h"

#include <QCoreApplication>
#include <QMutex>

namespace sandbox {

// Secrets kept in plain text in secrets.json (owner-only, 0600) beside settings.json,
// each in its owning backend's entry: { version: 1, backends: { "<ref>": { <field>: value } } }.
// Used only when the user explicitly allows it; the engine then warns about it.
class PlaintextSecretStore final : public SecretStore
{
    Q_DECLARE_TR_FUNCTIONS(PlaintextSecretStore)

public:
    explicit PlaintextSecretStore(const QString &configDirectory);

    QString path() const { return m_file.path(); }

    Result<bool> isConfigured(const BackendRef &ref, const QString &fieldId) override;
    Result<std::optional<QString>> read(const BackendRef &ref, const QString &fieldId) override;
    Status write(const BackendRef &ref, const QString &fieldId, const QString &value) override;
    Status remove(const BackendRef &ref, const QString &fieldId) override;
    bool isInsecure() const override { return true; }
    QString location() const override { return m_file.path(); }
    QStringList warnings() const;

private:
    Result<QJsonObject> readLocked();
    Status change(const BackendRef &ref, const QString &fieldId, const std::optional<QString> &value);

    mutable QMutex m_mutex;
    LockedJsonFile m_file;
    QStringList m_warnings;
};

} // namespace sandbox
