#pragma once

#include "core/launcher/Launcher.h"

namespace sandbox::bench {

// Runs one command through `launcher` and waits for its end in an event loop (at most a
// minute); true when it started and exited with status 0.
bool spawnAndWait(Launcher &launcher, const SpawnRequest &request, const Policy &policy);

} // namespace sandbox::bench
