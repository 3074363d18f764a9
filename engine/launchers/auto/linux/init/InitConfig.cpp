#include "InitConfig.h"

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

} // namespace

bool parseConfig(const std::string &data, InitConfig &config, std::string &error)
{
    static const std::map<std::string, int> arity = {
        { "version", 1 },   { "tier", 1 },      { "arg", 1 },      { "env", 1 },       { "cwd", 1 },
        { "hostname", 1 },  { "net", 1 },       { "proxy", 1 },    { "proxyport", 1 }, { "mount", 3 },
        { "symlink", 2 },   { "llro", 1 },      { "llrw", 1 },     { "lldir", 1 },     { "lldev", 1 },
        { "llconnect", 1 }, { "unix", 1 },      { "rlimit", 2 },   { "hostexec", 1 },  { "guardgit", 1 },
        { "guardro", 1 },   { "guarddeny", 1 }, { "terminal", 2 }, // rows, columns
        { "agent", 1 },
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
        const std::string &key = tokens[i];
        const auto it = arity.find(key);
        if (it == arity.end()) {
            error = "configuration: unknown record '" + key + "'";
            return false;
        }
        if (i + static_cast<size_t>(it->second) >= tokens.size()) {
            error = "configuration: record '" + key + "' is truncated";
            return false;
        }
        const std::string &a = tokens[i + 1];
        long long number = 0;
        if (key == "version") {
            if (a != "1") {
                error = "configuration: unsupported version " + a;
                return false;
            }
            sawVersion = true;
        } else if (key == "tier") {
            if (!toInt(a, 1, 2, number)) {
                error = "configuration: bad tier '" + a + "'";
                return false;
            }
            config.tier = static_cast<int>(number);
        } else if (key == "arg") {
            config.argv.push_back(a);
        } else if (key == "env") {
            if (a.find('=') == std::string::npos || a.front() == '=') {
                error = "configuration: bad environment entry '" + a + "'";
                return false;
            }
            config.env.push_back(a);
        } else if (key == "cwd") {
            config.cwd = a;
        } else if (key == "hostname") {
            config.hostname = a;
        } else if (key == "net") {
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
        } else if (key == "proxy") {
            config.proxySocket = a;
        } else if (key == "terminal") {
            long long columns = 0;
            if (!toInt(a, 1, 65535, number) || !toInt(tokens[i + 2], 1, 65535, columns)) {
                error = "configuration: bad terminal size '" + a + "' x '" + tokens[i + 2] + "'";
                return false;
            }
            config.terminalRows = static_cast<int>(number);
            config.terminalColumns = static_cast<int>(columns);
        } else if (key == "agent") {
            if (a.empty() || a.front() != '/') {
                error = "configuration: SSH agent socket '" + a + "' is not absolute";
                return false;
            }
            config.agentSocket = a;
        } else if (key == "proxyport") {
            if (!toInt(a, 1, 65535, number)) {
                error = "configuration: bad proxy port '" + a + "'";
                return false;
            }
            config.proxyPort = static_cast<int>(number);
        } else if (key == "mount") {
            MountOp op;
            if (a == "ro")
                op.kind = MountOp::Kind::BindReadOnly;
            else if (a == "rw")
                op.kind = MountOp::Kind::BindWritable;
            else if (a == "tmpfs")
                op.kind = MountOp::Kind::Tmpfs;
            else if (a == "mask")
                op.kind = MountOp::Kind::Mask;
            else {
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
        } else if (key == "symlink") {
            const std::string &link = tokens[i + 2];
            if (link.empty() || link.front() != '/' || link.find("/..") != std::string::npos) {
                error = "configuration: bad symlink path '" + link + "'";
                return false;
            }
            config.symlinks.emplace_back(a, link);
        } else if (key == "llro") {
            config.landlockReadable.push_back(a);
        } else if (key == "lldir") {
            config.landlockDirectories.push_back(a);
        } else if (key == "llrw") {
            config.landlockWritable.push_back(a);
        } else if (key == "lldev") {
            config.landlockDevices.push_back(a);
        } else if (key == "llconnect") {
            if (!toInt(a, 1, 65535, number)) {
                error = "configuration: bad port '" + a + "'";
                return false;
            }
            config.landlockConnectPorts.push_back(static_cast<int>(number));
        } else if (key == "unix") {
            if (a != "allow" && a != "deny" && a != "proxy") {
                error = "configuration: bad unix socket mode '" + a + "'";
                return false;
            }
            config.denyUnixSockets = a == "deny";
            config.superviseConnect = a == "proxy";
        } else if (key == "guardgit" || key == "guardro" || key == "guarddeny") {
            if (a.empty() || a.front() != '/') {
                error = "configuration: guarded path '" + a + "' is not absolute";
                return false;
            }
            (key == "guardgit"      ? config.guardRepositories
                 : key == "guardro" ? config.guardReadOnly
                                    : config.guardDenied)
                .push_back(a);
        } else if (key == "hostexec") {
            if (a != "allow" && a != "deny") {
                error = "configuration: bad host execution mode '" + a + "'";
                return false;
            }
            config.exposeHostExecution = a == "allow";
        } else if (key == "rlimit") {
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
