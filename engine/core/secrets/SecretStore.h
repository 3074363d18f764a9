#pragma once

#include "protocol/BackendRef.h"
#include "protocol/Error.h"

#include <QString>

#include <optional>

namespace sandbox {

// Where secret setting values live, keyed by a backend's canonical ref and a field id.
// Only the engine reads values, and only to hand them to Launcher::configure(); every
// read API outside the engine asks isConfigured() instead. Implementations never log,
// echo or put a value into an error.
class SecretStore
{
public:
    virtual ~SecretStore() = default;

    virtual Result<bool> isConfigured(const BackendRef &ref, const QString &fieldId) = 0;
    // The value, or nothing when the secret is not set.
    virtual Result<std::optional<QString>> read(const BackendRef &ref, const QString &fieldId) = 0;
    virtual Status write(const BackendRef &ref, const QString &fieldId, const QString &value) = 0;
    // Removing a secret that is not set succeeds.
    virtual Status remove(const BackendRef &ref, const QString &fieldId) = 0;
    // True when values are kept outside an OS keychain (the user's explicit opt-in).
    virtual bool isInsecure() const = 0;
    // Where values are kept, for messages ("the OS keychain", a file path).
    virtual QString location() const = 0;
};

} // namespace sandbox
