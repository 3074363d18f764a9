#pragma once

#include "net/CredentialInjector.h"

#include <QByteArray>
#include <QHash>
#include <QMutex>
#include <QString>

namespace sandbox {

class CredentialStore;

// The proxy's way to the credentials' values: read from the secret storage when a request
// first needs one, then kept in memory while the store's index (credentials.json, rewritten
// by every set and remove, from any engine) stays the same file. Only an Engine makes one,
// and its constructor has already made the process non-dumpable before any value can be
// read: no core dump holds one, and no process of the same user (a tier 2 command
// included) can read it through /proc.
class CredentialVault final : public CredentialSource
{
public:
    CredentialVault(CredentialStore *store, QString indexPath);

    std::optional<QByteArray> value(const QString &name) override;
    // Drops every value kept (a set or remove in this engine).
    void forget();
    // The store is going away: no value is read any more.
    void detach();

private:
    QByteArray indexStamp() const;

    QMutex m_mutex;
    CredentialStore *m_store;
    const QString m_indexPath;
    QByteArray m_stamp;
    QHash<QString, QByteArray> m_values;
};

} // namespace sandbox
