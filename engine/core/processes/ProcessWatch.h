#pragma once

#include "protocol/BackendRef.h"
#include "protocol/Refusal.h"
#include "protocol/SpawnRequest.h"

#include <functional>
#include <memory>

namespace sandbox {

class ProcessTable;
class SandboxProcess;

// Follows the processes the engine spawned, keeping their rows in the process table: their
// start (pid), notes, refusals and end, and the two bounds the engine owns for every
// launcher (launchers run no timer of their own): a sandbox that has not started within its
// launcher's spawn bound is killed, and so is a command still running at its timeout; the
// end of either is reported as timed out.
// The processes may outlive the engine: after stop() nothing more is reported.
class ProcessWatch final
{
public:
    // Called on the process object's thread.
    struct Reports
    {
        std::function<void(const ProcessInfo &info)> noted; // its pid is known, or a note was added
        std::function<void(Refusal refusal)> refused; // tied to its process, command and backend
        std::function<void(quint64 id, ExitStatus status)> ended; // its row is finished
    };

    ProcessWatch(ProcessTable &table, Reports reports);
    ~ProcessWatch();

    // Follows `process`, listed as `id`, spawned for `request` by the backend `ref`.
    // `spawnMs`: how long it may take to start.
    void watch(quint64 id, SandboxProcess *process, const SpawnRequest &request, const BackendRef &ref, int spawnMs);
    void stop();

private:
    struct State;
    std::shared_ptr<State> m_state;
};

} // namespace sandbox
