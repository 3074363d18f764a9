#pragma once

#include <QString>

namespace sandbox {

// Sandbox Studio's log: every Qt message goes to standard error as before and is also
// appended to a file in the user's state directory, which Help → Log Location shows.
// The file is started afresh when it grows past 1 MiB (the previous one is kept as .1).
class StudioLog final
{
public:
    // The log file: <AppLocalDataLocation>/studio.log.
    static QString path();
    // Installs the message handler; returns false when the file cannot be opened.
    static bool install();
};

} // namespace sandbox
