#pragma once

// The plan's network rules: outbound Windows Firewall block rules for the AppContainer's
// SID, and its loopback exemption (so that it may reach the engine proxy's port at all).

#include "launchers/auto/windows/WindowsPlan.h"

#include <string>
#include <vector>
#include <windows.h>

namespace sandbox::windows::init {

// Adds the plan's block rules for `sid` (named after the plan's identity, one per rule) and
// its loopback exemption. Stops at the first failure.
bool applyNetworkRules(const Plan &plan, const std::wstring &sid, PSID sidValue, std::string &error);

// Removes the rules applyNetworkRules() adds and the exemption; what could not be undone,
// one message each.
std::vector<std::string> undoNetworkRules(const Plan &plan, PSID sidValue);

} // namespace sandbox::windows::init
