#pragma once

#include "launchers/auto/linux/handoff/InitConfigFormat.h"

#include <initializer_list>
#include <string>

namespace sandbox::init {

// The Landlock ABI the running kernel offers (0 when Landlock is unavailable).
int landlockAbi();

// Each step returns false and sets `error` when it cannot be applied; the caller then
// refuses to run the command (never unconfined).
bool applyRlimits(const InitConfig &config, std::string &error);
bool dropPrivileges(std::string &error);

// Drops every capability but `keep` from the bounding set (needs CAP_SETPCAP in effect).
bool limitBoundingSet(std::initializer_list<int> keep, std::string &error);
// Makes the effective set `effective`, as far as the permitted set allows; the others stay.
bool limitEffectiveCapabilities(std::initializer_list<int> effective, std::string &error);
bool applyLandlock(const InitConfig &config, std::string &error);

// The steps above and applySeccomp (SeccompFilter.h), in the order that keeps each step possible; in a container
// (config.inContainer, tier 1's rules) only the seccomp deny list and the command's filter.
bool confine(const InitConfig &config, int *notifyFd, std::string &error);

} // namespace sandbox::init
