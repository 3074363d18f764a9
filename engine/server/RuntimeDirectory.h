#pragma once

#include "protocol/Error.h"

#include <QString>

namespace sandbox {

// Where the engine's socket and owner lock live: $XDG_RUNTIME_DIR/sandbox-studio, or
// /tmp/sandbox-studio-<uid> where there is no runtime directory. The directory must be
// ours: created 0700, verified to be a real directory (not a symlink) owned by our uid
// with no access for group or others, so nobody else can plant a socket there.
class RuntimeDirectory final
{
public:
    static QString defaultDirectory();
    static QString defaultSocketPath();
    static QString lockPathFor(const QString &socketPath);

    // Creates the directory (0700) when missing and verifies it as above.
    static Status ensure(const QString &directory);
    // Verifies an existing directory without creating it (clients use this before connecting).
    static Status verify(const QString &directory);
};

} // namespace sandbox
