#pragma once

#include "protocol/Error.h"

#include <QString>

namespace sandbox {

// Starting Studio on login, as the user's opt-in: an XDG autostart entry
// (~/.config/autostart/sandbox-studio.desktop) on Linux and other XDG desktops.
class Autostart final
{
public:
    // `executable` is what the entry starts (normally QCoreApplication::applicationFilePath()).
    explicit Autostart(QString executable);

    static bool isSupported();
    QString entryPath() const;
    bool isEnabled() const;
    Status setEnabled(bool enabled);

private:
    QString entryText() const;

    QString m_executable;
};

} // namespace sandbox
