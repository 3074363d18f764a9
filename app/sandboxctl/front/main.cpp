// sandboxctl as the user runs it. `sandboxctl run` through a running engine owner (sandboxd
// or Studio) is served here without loading Qt: an AI coding agent pays this process's
// start-up on every command it runs. With no owner running, a run whose builtin:auto plan
// the embedded engine recorded, with nothing it was built from changed since, is run here
// too, from that plan (PlanRecord, RecordedRun). Everything else (other commands and
// options, text that is not UTF-8, a policy the engine refuses, no usable record) is the
// full sandboxctl's, which this program becomes with the same arguments and environment.
//
// SANDBOXCTL_RUN_PATH_REPORT=FILE (for tests and diagnosis): this program appends one line
// to FILE saying which path served the run: "daemon", "recorded" or "full", the last
// followed by why no recorded plan served when one was looked for ("no record", "no
// Landlock", or the first input that changed).
#include "DaemonRun.h"
#include "RecordedRun.h"
#include "RunInvocation.h"
#include "launchers/auto/linux/handoff/PlanRecord.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <string>
#include <sys/syscall.h>
#include <unistd.h>

namespace {

std::string fullProgramPath()
{
    char self[PATH_MAX];
    const ssize_t length = ::readlink("/proc/self/exe", self, sizeof self - 1);
    std::string path;
    if (length > 0) {
        path.assign(self, size_t(length));
        path = path.substr(0, path.rfind('/') + 1);
    }
    return path + SANDBOX_FULL_SANDBOXCTL;
}

void reportPath(const std::string &path)
{
    const char *file = std::getenv("SANDBOXCTL_RUN_PATH_REPORT");
    if (!file || !*file)
        return;
    const int fd = ::open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    const std::string line = path + "\n";
    [[maybe_unused]] const ssize_t n = ::write(fd, line.data(), line.size());
    ::close(fd);
}

[[noreturn]] void becomeFullSandboxctl(char **argv, const std::string &why = std::string())
{
    reportPath(why.empty() ? std::string("full") : "full " + why);
    const std::string path = fullProgramPath();
    ::execv(path.c_str(), argv);
    std::fprintf(stderr, "sandboxctl: cannot start %s: %s\n", path.c_str(), std::strerror(errno));
    std::exit(125);
}

// The kernel's Landlock ABI (0: none). Every plan keeps the recorded plans out of reach
// through Landlock as well as through its mounts (AutoLauncher::spawn denies their
// directory): only with Landlock is that true of the directories above it in tier 1.
int landlockAbi()
{
#ifdef SYS_landlock_create_ruleset
    const long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, 1U);
    return abi > 0 ? int(abi) : 0;
#else
    return 0;
#endif
}

} // namespace

int main(int argc, char **argv)
{
    using sandbox::PlanRecord;
    using sandbox::front::DaemonRun;
    using sandbox::front::RecordedRun;
    using sandbox::front::RunInvocation;
    const std::optional<RunInvocation> invocation = RunInvocation::parse(argc, argv);
    if (!invocation)
        becomeFullSandboxctl(argv);
    std::optional<DaemonRun> engine = DaemonRun::connect(invocation->socketPath());
    if (engine) {
        // With --embedded the full program says that an engine already runs.
        if (invocation->embedded())
            becomeFullSandboxctl(argv);
        reportPath("daemon");
        const std::optional<int> status = engine->run(invocation->request());
        if (!status)
            becomeFullSandboxctl(argv);
        return *status;
    }
    // No owner: the engine the full program would embed. Its recorded plan serves when every
    // input is unchanged; only plans with network none or full (no filtering proxy in this
    // process) and host execution denied (no question, and no unix socket through which the
    // command could notice that no engine serves) are recorded (AutoLauncher::recordable).
    const DaemonRun::Request &request = invocation->request();
    const std::optional<PlanRecord> record = PlanRecord::find(request.cwd, invocation->policyPath());
    if (!record)
        becomeFullSandboxctl(argv, "no record");
    if (landlockAbi() < 1)
        becomeFullSandboxctl(argv, "no Landlock");
    std::string stale;
    if (!record->current(request.cwd, invocation->policyPath(), fullProgramPath(), &stale))
        becomeFullSandboxctl(argv, stale);
    reportPath("recorded");
    const std::optional<int> status
        = RecordedRun::run(*record, RecordedRun::Request{ request.argv, request.timeoutMs, request.timeoutText });
    if (!status)
        becomeFullSandboxctl(argv);
    return *status;
}
