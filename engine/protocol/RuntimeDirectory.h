#pragma once

#include "protocol/Error.h"

#include <QString>

namespace sandbox {

// Where the engine's rendezvous points live (its protocol socket and owner lock, the
// filtering proxy's channel sockets): $XDG_RUNTIME_DIR/sandbox-studio, or the "run"
// directory inside the engine's state directory where there is no runtime directory. Never
// the shared /tmp, where a sandboxed command could listen first or rename a socket. The
// directory must be ours: created 0700, verified to be a real directory (not a symlink)
// owned by our uid with no access for group or others, so nobody else can plant a socket
// there. Every client computes the same default from the same environment.
class RuntimeDirectory final
{
public:
    // The longest path a unix socket can be bound or connected at (sun_path, NUL excluded).
    static constexpr int kMaxSocketPathBytes = 107;

    // The default for the engine whose state directory is $SANDBOX_STATE_DIR, else
    // $XDG_DATA_HOME/sandbox-studio, else ~/.local/share/sandbox-studio.
    static QString defaultDirectory();
    static QString defaultSocketPath();
    // The default for an engine whose state directory is `stateDirectory`.
    static QString directoryFor(const QString &stateDirectory);
    // The state directory every program uses when none is configured (as above).
    static QString defaultStateDirectory();
    static QString lockPathFor(const QString &socketPath);

    // Creates the directory (0700) when missing and verifies it as above.
    static Status ensure(const QString &directory);
    // Verifies an existing directory without creating it (clients use this before connecting).
    static Status verify(const QString &directory);
    // An error naming `socketPath` when it is too long to be a unix socket's path.
    static Status checkSocketPath(const QString &socketPath);
};

} // namespace sandbox
