#pragma once

namespace sandbox {

class Engine;

// Registers the built-in launchers (builtin:auto, and builtin:vm when it is built).
void registerBuiltinLaunchers(Engine &engine);

} // namespace sandbox
