#pragma once

#include <QList>
#include <QString>

namespace sandbox {

// Where one user's engine configuration lives, for every program of that user alike
// (sandbox-studio, sandboxd, an embedding sandboxctl): settings, selection, policy, packs
// state and the secret storage choice in configDirectory(), per-backend state in
// stateDirectory(), secrets in the keychain under keychainService().
class ConfigurationLocation final
{
public:
    // A per-program location an earlier version used.
    struct Legacy
    {
        QString program;
        QString configDirectory;
        QString stateDirectory;
    };

    static QString configDirectory(); // $XDG_CONFIG_HOME/sandbox-studio
    static QString stateDirectory(); // $XDG_DATA_HOME/sandbox-studio
    static QString keychainService();
    static QList<Legacy> legacyLocations();
};

} // namespace sandbox
