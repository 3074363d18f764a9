#pragma once

#include "launchers/auto/linux/handoff/InitConfigFormat.h"

#include <string>

namespace sandbox::init {

// Tier 1, inside the new user + mount namespaces: assembles the sandbox's root on a
// tmpfs from the configuration's mount plan, with a fresh /proc (the caller must already
// be pid 1 of the new pid namespace), a minimal /dev and the masks, then pivots into it.
// `proxyFd` receives an O_PATH descriptor of the proxy socket (or -1) so the bridge can
// reach it after the host's tree is gone.
bool buildRoot(const InitConfig &config, int &proxyFd, std::string &error);

// Writes uid_map/gid_map for the calling process (just after it created its user
// namespace) so the caller keeps its own ids inside.
bool mapIds(uid_t uid, gid_t gid, std::string &error);

} // namespace sandbox::init
