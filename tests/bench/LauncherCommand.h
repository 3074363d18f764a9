#pragma once

#include "core/launcher/Launcher.h"

#include <functional>

namespace sandbox::bench {

// Runs one command through `launcher` and waits for its end in an event loop (at most a
// minute); true when it started and exited with status 0. `onOutput`, when given, is
// called with each piece of the command's standard output as it arrives; `why`, when
// given, says what failed otherwise (with what the command wrote to its standard error).
bool spawnAndWait(Launcher &launcher, const SpawnRequest &request, const Policy &policy,
                  const std::function<void(const QByteArray &)> &onOutput = {}, QString *why = nullptr);

} // namespace sandbox::bench
