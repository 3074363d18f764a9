#include "InitConfigFormat.h"

#include <cerrno>
#include <cstdlib>
#include <map>

namespace sandbox::init {

namespace {

bool toInt(const std::string &text, long long min, long long max, long long &out)
{
    if (text.empty())
        return false;
    char *end = nullptr;
    errno = 0;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (errno != 0 || *end != '\0' || value < min || value > max)
        return false;
    out = value;
    return true;
}

struct MountKindName
{
    MountOp::Kind kind;
    const char *name;
};
constexpr MountKindName kMountKinds[] = { { MountOp::Kind::BindReadOnly, "ro" },
                                          { MountOp::Kind::BindWritable, "rw" },
                                          { MountOp::Kind::Tmpfs, "tmpfs" },
                                          { MountOp::Kind::Mask, "mask" } };

const char *networkName(InitConfig::Network network)
{
    switch (network) {
    case InitConfig::Network::None:
        return "none";
    case InitConfig::Network::Allowlist:
        return "allowlist";
    case InitConfig::Network::Full:
        return "full";
    }
    return "none";
}

} // namespace

bool mountKindFromName(std::string_view name, MountOp::Kind &kind)
{
    for (const MountKindName &known : kMountKinds) {
        if (name == known.name) {
            kind = known.kind;
            return true;
        }
    }
    return false;
}

void appendRecord(std::string &out, std::string_view name, std::initializer_list<std::string_view> fields)
{
    out.append(name).push_back('\0');
    for (const std::string_view field : fields)
        out.append(field).push_back('\0');
}

std::string writeConfig(const InitConfig &config)
{
    std::string out;
    appendRecord(out, key::kVersion, { kFormatVersion });
    appendRecord(out, key::kTier, { std::to_string(config.tier) });
    for (const std::string &arg : config.argv)
        appendRecord(out, key::kArg, { arg });
    for (const std::string &entry : config.env)
        appendRecord(out, key::kEnv, { entry });
    appendRecord(out, key::kCwd, { config.cwd });
    if (config.hostname != InitConfig().hostname)
        appendRecord(out, key::kHostname, { config.hostname });
    appendRecord(out, key::kNet, { networkName(config.network) });
    if (!config.proxySocket.empty())
        appendRecord(out, key::kProxy, { config.proxySocket });
    if (config.proxyPort != 0)
        appendRecord(out, key::kProxyPort, { std::to_string(config.proxyPort) });
    for (const int port : config.landlockConnectPorts)
        appendRecord(out, key::kLandlockConnect, { std::to_string(port) });
    for (const MountOp &mount : config.mounts) {
        const char *kind = "ro";
        for (const MountKindName &known : kMountKinds) {
            if (known.kind == mount.kind)
                kind = known.name;
        }
        appendRecord(out, key::kMount, { kind, mount.source, mount.target });
    }
    for (const auto &[target, link] : config.symlinks)
        appendRecord(out, key::kSymlink, { target, link });
    for (const std::string &path : config.landlockReadable)
        appendRecord(out, key::kLandlockReadable, { path });
    for (const std::string &path : config.landlockDirectories)
        appendRecord(out, key::kLandlockDirectory, { path });
    for (const std::string &path : config.landlockWritable)
        appendRecord(out, key::kLandlockWritable, { path });
    for (const std::string &path : config.landlockDevices)
        appendRecord(out, key::kLandlockDevice, { path });
    if (!config.agentSocket.empty())
        appendRecord(out, key::kAgent, { config.agentSocket });
    appendRecord(out, key::kUnix, { config.denyUnixSockets ? "deny" : config.superviseConnect ? "proxy" : "allow" });
    appendRecord(out, key::kHostExecution, { config.exposeHostExecution ? "allow" : "deny" });
    for (const auto &[name, value] : config.rlimits)
        appendRecord(out, key::kRlimit, { name, std::to_string(value) });
    for (const std::string &path : config.guardRepositories)
        appendRecord(out, key::kGuardRepositories, { path });
    for (const std::string &path : config.guardReadOnly)
        appendRecord(out, key::kGuardReadOnly, { path });
    for (const std::string &path : config.guardDenied)
        appendRecord(out, key::kGuardDenied, { path });
    if (config.terminalRows > 0)
        appendRecord(out, key::kTerminal,
                     { std::to_string(config.terminalRows), std::to_string(config.terminalColumns) });
    return out;
}

bool parseConfig(const std::string &data, InitConfig &config, std::string &error)
{
    static const std::map<std::string, int, std::less<>> arity = {
        { key::kVersion, 1 },
        { key::kTier, 1 },
        { key::kArg, 1 },
        { key::kEnv, 1 },
        { key::kCwd, 1 },
        { key::kHostname, 1 },
        { key::kNet, 1 },
        { key::kProxy, 1 },
        { key::kProxyPort, 1 },
        { key::kMount, 3 },
        { key::kSymlink, 2 },
        { key::kLandlockReadable, 1 },
        { key::kLandlockWritable, 1 },
        { key::kLandlockDirectory, 1 },
        { key::kLandlockDevice, 1 },
        { key::kLandlockConnect, 1 },
        { key::kUnix, 1 },
        { key::kRlimit, 2 },
        { key::kHostExecution, 1 },
        { key::kGuardRepositories, 1 },
        { key::kGuardReadOnly, 1 },
        { key::kGuardDenied, 1 },
        { key::kTerminal, 2 },
        { key::kAgent, 1 },
    };
    std::vector<std::string> tokens;
    size_t pos = 0;
    while (pos < data.size()) {
        const size_t nul = data.find('\0', pos);
        if (nul == std::string::npos) {
            error = "configuration: unterminated field at byte " + std::to_string(pos);
            return false;
        }
        tokens.emplace_back(data, pos, nul - pos);
        pos = nul + 1;
    }
    bool sawVersion = false;
    for (size_t i = 0; i < tokens.size();) {
        const std::string &record = tokens[i];
        const auto it = arity.find(record);
        if (it == arity.end()) {
            error = "configuration: unknown record '" + record + "'";
            return false;
        }
        if (i + static_cast<size_t>(it->second) >= tokens.size()) {
            error = "configuration: record '" + record + "' is truncated";
            return false;
        }
        const std::string &a = tokens[i + 1];
        long long number = 0;
        if (record == key::kVersion) {
            if (a != kFormatVersion) {
                error = "configuration: unsupported version " + a;
                return false;
            }
            sawVersion = true;
        } else if (record == key::kTier) {
            if (!toInt(a, 1, 2, number)) {
                error = "configuration: bad tier '" + a + "'";
                return false;
            }
            config.tier = static_cast<int>(number);
        } else if (record == key::kArg) {
            config.argv.push_back(a);
        } else if (record == key::kEnv) {
            if (a.find('=') == std::string::npos || a.front() == '=') {
                error = "configuration: bad environment entry '" + a + "'";
                return false;
            }
            config.env.push_back(a);
        } else if (record == key::kCwd) {
            config.cwd = a;
        } else if (record == key::kHostname) {
            config.hostname = a;
        } else if (record == key::kNet) {
            if (a == "none")
                config.network = InitConfig::Network::None;
            else if (a == "allowlist")
                config.network = InitConfig::Network::Allowlist;
            else if (a == "full")
                config.network = InitConfig::Network::Full;
            else {
                error = "configuration: bad network mode '" + a + "'";
                return false;
            }
        } else if (record == key::kProxy) {
            config.proxySocket = a;
        } else if (record == key::kTerminal) {
            long long columns = 0;
            if (!toInt(a, 1, 65535, number) || !toInt(tokens[i + 2], 1, 65535, columns)) {
                error = "configuration: bad terminal size '" + a + "' x '" + tokens[i + 2] + "'";
                return false;
            }
            config.terminalRows = static_cast<int>(number);
            config.terminalColumns = static_cast<int>(columns);
        } else if (record == key::kAgent) {
            if (a.empty() || a.front() != '/') {
                error = "configuration: SSH agent socket '" + a + "' is not absolute";
                return false;
            }
            config.agentSocket = a;
        } else if (record == key::kProxyPort) {
            if (!toInt(a, 1, 65535, number)) {
                error = "configuration: bad proxy port '" + a + "'";
                return false;
            }
            config.proxyPort = static_cast<int>(number);
        } else if (record == key::kMount) {
            MountOp op;
            if (!mountKindFromName(a, op.kind)) {
                error = "configuration: bad mount kind '" + a + "'";
                return false;
            }
            op.source = tokens[i + 2];
            op.target = tokens[i + 3];
            if (op.target.empty() || op.target.front() != '/') {
                error = "configuration: mount target '" + op.target + "' is not absolute";
                return false;
            }
            config.mounts.push_back(op);
        } else if (record == key::kSymlink) {
            const std::string &link = tokens[i + 2];
            if (link.empty() || link.front() != '/' || link.find("/..") != std::string::npos) {
                error = "configuration: bad symlink path '" + link + "'";
                return false;
            }
            config.symlinks.emplace_back(a, link);
        } else if (record == key::kLandlockReadable) {
            config.landlockReadable.push_back(a);
        } else if (record == key::kLandlockDirectory) {
            config.landlockDirectories.push_back(a);
        } else if (record == key::kLandlockWritable) {
            config.landlockWritable.push_back(a);
        } else if (record == key::kLandlockDevice) {
            config.landlockDevices.push_back(a);
        } else if (record == key::kLandlockConnect) {
            if (!toInt(a, 1, 65535, number)) {
                error = "configuration: bad port '" + a + "'";
                return false;
            }
            config.landlockConnectPorts.push_back(static_cast<int>(number));
        } else if (record == key::kUnix) {
            if (a != "allow" && a != "deny" && a != "proxy") {
                error = "configuration: bad unix socket mode '" + a + "'";
                return false;
            }
            config.denyUnixSockets = a == "deny";
            config.superviseConnect = a == "proxy";
        } else if (record == key::kGuardRepositories || record == key::kGuardReadOnly || record == key::kGuardDenied) {
            if (a.empty() || a.front() != '/') {
                error = "configuration: guarded path '" + a + "' is not absolute";
                return false;
            }
            (record == key::kGuardRepositories   ? config.guardRepositories
                 : record == key::kGuardReadOnly ? config.guardReadOnly
                                                 : config.guardDenied)
                .push_back(a);
        } else if (record == key::kHostExecution) {
            if (a != "allow" && a != "deny") {
                error = "configuration: bad host execution mode '" + a + "'";
                return false;
            }
            config.exposeHostExecution = a == "allow";
        } else if (record == key::kRlimit) {
            if (!toInt(tokens[i + 2], -1, (1LL << 62), number)) {
                error = "configuration: bad rlimit value '" + tokens[i + 2] + "'";
                return false;
            }
            config.rlimits.emplace_back(a, number);
        }
        i += 1 + static_cast<size_t>(it->second);
    }
    if (!sawVersion) {
        error = "configuration: no version record";
        return false;
    }
    if (config.tier == 0) {
        error = "configuration: no tier";
        return false;
    }
    if (config.argv.empty()) {
        error = "configuration: no command";
        return false;
    }
    if (config.cwd.empty() || config.cwd.front() != '/') {
        error = "configuration: working directory missing or not absolute";
        return false;
    }
    if (config.superviseConnect && config.proxySocket.empty() && config.agentSocket.empty()) {
        error = "configuration: supervised unix connections need a proxy or an SSH agent socket";
        return false;
    }
    if (config.superviseConnect && config.tier == 1 && config.agentSocket.empty()) {
        error = "configuration: tier 1 supervises unix connections only for an SSH agent socket";
        return false;
    }
    if (config.network == InitConfig::Network::Allowlist && config.proxySocket.empty()) {
        error = "configuration: allowlist network without a proxy socket";
        return false;
    }
    return true;
}

} // namespace sandbox::init
