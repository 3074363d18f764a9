#pragma once

#include "core/secrets/SecretStore.h"

#include <QCoreApplication>

#include <functional>

namespace sandbox {

// Secrets in the OS keychain through QtKeychain (Secret Service over D-Bus on Linux,
// Keychain on macOS, Credential Manager on Windows). Key: "<canonical ref>/<field id>".
// QtKeychain queues every job of the process on one executor object that lives in the
// thread of the first job, so all jobs run on one keychain thread that lives as long as
// the process, each with a local event loop; callers on any thread wait for the outcome.
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
    static void runOnKeychainThread(const std::function<void()> &work);

    QString m_service;
};

} // namespace sandbox
