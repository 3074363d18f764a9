#pragma once

#include <optional>
#include <string>
#include <vector>

namespace sandbox {
class PlanRecord;
}

namespace sandbox::front {

// `sandboxctl run -- CMD...` with the engine embedded, from a plan the engine recorded
// (PlanRecord): sandbox-init started here as the embedded engine starts it (InitHandoff:
// its configuration in a sealed memfd on fd 3, its status on fd 4, the environment
// SANDBOX_INIT=1, / as working directory; stdin, stdout and stderr through pipes relayed
// to ours), and ended as the engine ends it: the --timeout and the launcher's start-up
// bound kill the sandbox (InitHandoff's end request, SIGKILL kKillFallbackMs later),
// as do SIGINT, SIGTERM and SIGHUP to sandboxctl. Exit status and messages are the full
// sandboxctl's: CMD's status, 128+signal, or 125 with the reason when the sandbox could
// not be set up, and the timeout's message.
//
// What the embedded engine does beyond that is for its own clients only, and none attaches
// to this one: the engine an embedding sandboxctl hosts serves its socket while the command
// runs, so `sandboxctl ps`, `kill` and `events` from elsewhere reach it; a run from here is
// not listed there (nothing serves the socket) and the refusals sandbox-init reports
// ("refused" status lines, tier 2's supervisors) go to no one, as they would reach only such
// a client. The run itself (what is confined, how, what the command sees) is the same.
class RecordedRun final
{
public:
    struct Request
    {
        std::vector<std::string> argv;
        long long timeoutMs = 0; // 0: none
        std::string timeoutText;
    };

    // Runs `request` to its end; nullopt when sandbox-init could not be started at all
    // (nothing ran: the full program may try).
    static std::optional<int> run(const PlanRecord &record, const Request &request);
};

} // namespace sandbox::front
