#include "UnconfinedPolicy.h"

namespace sandbox::test {

Policy unconfinedPolicy()
{
    Policy policy;
    policy.readable = { QStringLiteral("/") };
    policy.writable = { QStringLiteral("/") };
    policy.processes = Policy::ProcessConfinement::Shared;
    policy.network = Policy::NetworkMode::Full;
    policy.hostExecution = Policy::HostExecution::Allow;
    return policy;
}

} // namespace sandbox::test
