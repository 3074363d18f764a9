#pragma once

namespace sandbox::init {

// `sandbox-init --ssh-proxy HOST PORT`: the ProxyCommand of the sandbox's SSH configuration
// (policy.sshAgent.hosts). Opens a tunnel to HOST:PORT through the engine's filtering proxy,
// the sandbox's only way out, which allows the policy's SSH hosts and nothing else beyond
// its allowed domains, then relays standard input and output to it until either side ends.
// The proxy is SANDBOX_PROXY_SOCKET (tier 2: the channel's unix socket) or the bridge at
// 127.0.0.1 on SANDBOX_PROXY's port (tier 1). Returns the exit status: 0 after a relay
// that ended, 1 when the proxy refused or could not be reached (its answer on stderr),
// 2 for bad arguments. `program` names the speaker of its messages (the VM's guest agent
// runs it too, where SANDBOX_PROXY is the guest's network forwarder).
int runSshProxy(const char *host, const char *port, const char *program = "sandbox-init");

} // namespace sandbox::init
