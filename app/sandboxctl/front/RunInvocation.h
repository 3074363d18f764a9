#pragma once

#include "DaemonRun.h"

#include <optional>
#include <string>

namespace sandbox::front {

// A command line the run front serves itself: `[--socket PATH] [--embedded] run [--socket PATH]
// [--policy FILE] [--timeout S] [--] CMD...`, every text UTF-8, the policy file readable
// JSON, and no terminal to ask Host Interaction questions on. Anything else (another command, another option, --help, a
// value the full sandboxctl would reject or explain) is not one, and the full sandboxctl gets it.
class RunInvocation final
{
public:
    static std::optional<RunInvocation> parse(int argc, char **argv);

    const std::string &socketPath() const { return m_socketPath; }
    // --embedded: never through a running engine owner.
    bool embedded() const { return m_embedded; }
    // --policy FILE as given; empty: the engine's stored policy.
    const std::string &policyPath() const { return m_policyPath; }
    const DaemonRun::Request &request() const { return m_request; }

private:
    bool takeOption(const std::string &name, const std::string &value);
    bool complete();

    std::string m_socketPath;
    std::string m_policyPath;
    bool m_embedded = false;
    DaemonRun::Request m_request;
};

} // namespace sandbox::front
