// sandboxctl as the user runs it. `sandboxctl run` through a running engine owner (sandboxd
// or Studio) is served here without loading Qt: an AI coding agent pays this process's
// start-up on every command it runs. Everything else (other commands and options, no engine
// running, text that is not UTF-8, a policy the engine refuses) is the full sandboxctl's,
// which this program becomes with the same arguments and environment.
#include "DaemonRun.h"
#include "RunInvocation.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <unistd.h>

namespace {

[[noreturn]] void becomeFullSandboxctl(char **argv)
{
    char self[PATH_MAX];
    const ssize_t length = ::readlink("/proc/self/exe", self, sizeof self - 1);
    std::string path;
    if (length > 0) {
        path.assign(self, size_t(length));
        path = path.substr(0, path.rfind('/') + 1);
    }
    path += SANDBOX_FULL_SANDBOXCTL;
    ::execv(path.c_str(), argv);
    std::fprintf(stderr, "sandboxctl: cannot start %s: %s\n", path.c_str(), std::strerror(errno));
    std::exit(125);
}

} // namespace

int main(int argc, char **argv)
{
    using sandbox::front::DaemonRun;
    using sandbox::front::RunInvocation;
    const std::optional<RunInvocation> invocation = RunInvocation::parse(argc, argv);
    if (!invocation)
        becomeFullSandboxctl(argv);
    std::optional<DaemonRun> engine = DaemonRun::connect(invocation->socketPath());
    if (!engine)
        becomeFullSandboxctl(argv);
    const std::optional<int> status = engine->run(invocation->request());
    if (!status)
        becomeFullSandboxctl(argv);
    return *status;
}
