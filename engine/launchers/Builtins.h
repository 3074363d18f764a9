#pragma once

#include <memory>

namespace sandbox {

class Engine;
class PlanRecording;

// Registers the built-in launchers (builtin:auto, and builtin:vm when it is built).
// `planRecording`: where builtin:auto records its plans for sandboxctl's run front (Linux;
// none: not recorded).
void registerBuiltinLaunchers(Engine &engine, std::shared_ptr<PlanRecording> planRecording = nullptr);

} // namespace sandbox
