#pragma once

// The plan's access changes on paths: an ACE for the identity's SID on each path (inherited
// below it, but for keep-entry), and their removal when the command has ended.

#include "launchers/auto/windows/WindowsPlan.h"

#include <string>
#include <vector>
#include <windows.h>

namespace sandbox::windows::init {

struct PathChange
{
    Plan::Access access;
    std::wstring path;
};

// The plan's path rules with every "*" component of a deny rule expanded to the names that
// exist there now; rules on paths that do not exist are left out (nothing to change there).
std::vector<PathChange> pathChanges(const Plan &plan);

// Adds the ACE of every change for `sid`. Stops at the first failure, naming the path.
bool applyPathChanges(const std::vector<PathChange> &changes, PSID sid, std::string &error);

// Removes every explicit ACE naming `sid` from the paths of `changes` (the SID is the
// plan's own, so every such ACE is one sandbox-init.exe added). Returns what could not be
// undone, one message each.
std::vector<std::string> undoPathChanges(const std::vector<PathChange> &changes, PSID sid);

} // namespace sandbox::windows::init
