#pragma once

#include "protocol/Policy.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace sandbox {

// The engine's own files (policy, settings, packs, plaintext secrets, VM helpers and
// baselines, recorded plans) are never writable from a sandbox, whatever the policy makes
// writable (a workspace that is the home directory, say): a command could otherwise loosen
// every command after it.
class EngineFiles
{
public:
    // Makes `directories` (the configuration and state directories) read-only on top in
    // `policy` wherever one of its writable paths reaches them, for a command in `workspace`.
    // The engine applies it to every spawn; whatever compares a policy with what a launcher
    // was given applies it too.
    static void keepReadOnly(Policy &policy, const QString &workspace, const QStringList &directories);

    // Git's configuration of the user, the files the host's git reads in every repository
    // (~/.gitconfig, ~/.config/git, $XDG_CONFIG_HOME/git, $GIT_CONFIG_GLOBAL, and the files
    // they include): not the engine's, but a command that wrote there would make the host's
    // next git run its code (core.fsmonitor, core.hooksPath, an alias). The engine keeps them
    // read-only with keepReadOnly() wherever a writable path reaches them, whether they
    // exist or not, by the names given and where links take them.
    static QStringList gitUserConfiguration();

    // Where the engine keeps its certificate authority (its private key included), inside
    // the state directory `stateDirectory`.
    static QString certificateAuthorityDirectory(const QString &stateDirectory);
    // Denies in `policy` the engine's files that no sandboxed command may even read (the
    // certificate authority when it exists, the plain secrets file in `configDirectory`
    // always): the default policy lets commands read the state and configuration
    // directories. The engine applies it to every spawn, as keepReadOnly().
    static void keepUnreadable(Policy &policy, const QString &stateDirectory, const QString &configDirectory);

    // A writable path of `policy` (for a command in `workspace`, ${workspace} and ~ expanded)
    // that is at, above or below one of `directories`, and that directory.
    struct Reach
    {
        QString writable;
        QString directory;
    };
    static std::optional<Reach> writableReach(const Policy &policy, const QString &workspace,
                                              const QStringList &directories);

    // Where read-only paths cannot be carved out of writable ones (a sandbox of Landlock
    // alone), a command whose writable paths reach `directories` is refused before anything
    // runs: this is the error that says so, naming both and what to do; none when they are
    // out of reach.
    static Status refuseReach(const Policy &policy, const QString &workspace, const QStringList &directories);
};

} // namespace sandbox
