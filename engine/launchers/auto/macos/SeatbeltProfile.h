#pragma once

#include "protocol/Error.h"
#include "protocol/Policy.h"

#include <QString>
#include <QStringList>

namespace sandbox {

// Compiles a policy into a macOS Seatbelt profile (SBPL), the text `sandbox-exec -p` and
// sandbox_init() take. A pure function of its input: the caller resolves the home and the
// workspace; nothing here looks at the disk, so it builds and is tested on every platform.
//
// Grants match paths with `subpath` (the path and everything below it) and `literal` (the
// directories above a granted path, for their metadata only): both compare names, so a path
// needs only string escaping. Carve-outs (denied and read-only paths, the repositories'
// control files) add a `regex` in any letter case, since macOS volumes are
// case-insensitive by default; a denied path with a `*` component is matched by the regex
// alone. Every character of a path taken into a regex is escaped. SBPL takes the last rule
// that matches, so every deny comes after the allows it narrows.
class SeatbeltProfile final
{
public:
    struct Input
    {
        Policy policy;
        QString home; // resolved, absolute
        QString workspace; // resolved, absolute: what ${workspace} names
        quint16 proxyPort = 0; // allowlist: the engine proxy's port on loopback
        bool exposeHostExecution = false; // hostExecution allow, or ask answered yes
    };

    static Result<QString> build(const Input &input);

    // The Mach services any command may look up while host execution is denied.
    static const QStringList &baseMachServices();
    // System locations every program needs to start (the dynamic linker's cache, the
    // system libraries), readable whatever the policy's readable paths are.
    static const QStringList &runtimeReadable();

    // `text` as an SBPL string literal: `"` and `\` escaped.
    static QString quoted(const QString &text);
    // A regular expression (POSIX extended) for the path `path` and everything below it, in
    // any letter case; a `*` component stands for any one name.
    static QString pathRegex(const QString &path);
    // `path` and the other name macOS shows it under: /tmp, /var and /etc are links into
    // /private, and the kernel checks the name a link leads to.
    static QStringList aliases(const QString &path);
};

} // namespace sandbox
