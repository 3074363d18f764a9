#pragma once

#include "SecretStore.h"

#include <QCoreApplication>
#include <QThread>

#include <memory>

class QObject;

namespace sandbox {

// Secrets in the OS keychain through QtKeychain (Secret Service over D-Bus on Linux,
// Keychain on macOS, Credential Manager on Windows). Key: "<canonical ref>/<field id>".
// QtKeychain queues its jobs on one executor object, so every job runs on this store's
// own thread with a local event loop; callers on any thread wait for the outcome.
class KeychainSecretStore final : public SecretStore
{
    Q_DECLARE_TR_FUNCTIONS(KeychainSecretStore)

public:
    explicit KeychainSecretStore(QString service);
    ~KeychainSecretStore() override;

    Result<bool> isConfigured(const BackendRef &ref, const QString &fieldId) override;
    Result<std::optional<QString>> read(const BackendRef &ref, const QString &fieldId) override;
    Status write(const BackendRef &ref, const QString &fieldId, const QString &value) override;
    Status remove(const BackendRef &ref, const QString &fieldId) override;
    bool isInsecure() const override { return false; }
    QString location() const override;

    static QString keyFor(const BackendRef &ref, const QString &fieldId);
    // The message for "no keychain service answers": what is wrong and what to do.
    static QString unreachableMessage();

private:
    void runOnKeychainThread(const std::function<void()> &work);

    QString m_service;
    QThread m_thread;
    QObject *m_context = nullptr;
};

} // namespace sandbox
