#pragma once

#include "launchers/auto/windows/WindowsPlan.h"
#include "protocol/Error.h"
#include "protocol/Policy.h"

#include <QString>

namespace sandbox {

// Compiles a policy into the plan sandbox-init.exe carries out on Windows. A pure function
// of its input (nothing here looks at the disk), built and tested on every platform.
//
// Paths: "~" and ${workspace} as everywhere; "/" (readable or writable) names the user's
// home, since the system's own locations are readable to an AppContainer already and never
// writable; /tmp names the user's temporary directory; any other rooted path lies on the
// system drive, as Windows itself reads one.
class WindowsPlanBuilder final
{
public:
    struct Input
    {
        Policy policy;
        QString home; // "C:/Users/name", resolved
        QString workspace; // resolved: what ${workspace} names
        QString temporaryDirectory; // what /tmp names
        QString systemDrive = QStringLiteral("C:");
        quint16 proxyPort = 0; // allowlist: the engine proxy's port on loopback
        bool exposeHostExecution = false; // hostExecution allow, or ask answered yes
        windows::Plan::Identity identity = windows::Plan::Identity::AppContainer;
        QString identityName; // empty: kDefaultAppContainer or kDefaultAccount
        int activeProcessLimit = 1024;
    };

    static inline const QString kDefaultAppContainer = QStringLiteral("SandboxStudio.Sandbox");
    static inline const QString kDefaultAccount = QStringLiteral("SandboxStudioRun");

    static Result<windows::Plan> build(const Input &input);

    // `path` ("/"-separated, absolute, after "~" and ${workspace}) as Windows names it.
    static QString nativePath(const QString &path, const Input &input);
};

} // namespace sandbox
