#pragma once

#include "protocol/Error.h"

#include <QCoreApplication>
#include <QString>

namespace sandbox {

// The user's explicit choice to store secrets in plain text when no keychain can be used,
// kept in the shared configuration ("secret-storage.json") so that every program of the
// user hosts its engine the same way. Read when an engine starts.
class PlaintextSecretsOptIn final
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::PlaintextSecretsOptIn)

public:
    static QString path(const QString &configDirectory);
    // Absent file: not allowed. A file that cannot be read counts as not allowed, is kept
    // as a backup and *warning says so.
    static Result<bool> read(const QString &configDirectory, QString *warning);
    static Status write(const QString &configDirectory, bool allowed);
    // The standing warning every place that shows secrets repeats while it is allowed.
    static QString warning(const QString &configDirectory);
};

} // namespace sandbox
