#pragma once

#include "protocol/BackendDescriptor.h"

#include <QString>

namespace sandbox {

// How long the engine lets each launcher call run before it cancels the call, in
// milliseconds. The engine's defaults, under what a backend's descriptor states
// ("timeouts"), under what the engine's options override (0: not overridden).
struct LauncherBounds
{
    int configureMs = 0;
    int prepareMs = 0;
    int probeMs = 0;
    int spawnMs = 0; // from spawn() until the sandbox reports started
    int disposeMs = 0;

    static LauncherBounds defaults();
    static LauncherBounds resolve(const BackendDescriptor &descriptor, const LauncherBounds &overrides);
    // "30", "0.2": a bound as the seconds an error message names.
    static QString seconds(int ms);

    friend bool operator==(const LauncherBounds &, const LauncherBounds &) = default;
};

} // namespace sandbox
