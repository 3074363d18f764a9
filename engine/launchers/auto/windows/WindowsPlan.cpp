#include "WindowsPlan.h"

#include <charconv>
#include <set>

namespace sandbox::windows {

namespace {

constexpr const char *kHeader = "sandbox-windows-plan";

std::string escaped(std::string_view field)
{
    std::string out;
    for (char c : field) {
        switch (c) {
        case '%':
            out += "%25";
            break;
        case '\t':
            out += "%09";
            break;
        case '\n':
            out += "%0A";
            break;
        case '\r':
            out += "%0D";
            break;
        default:
            out += c;
        }
    }
    return out;
}

// Undoes escaped(); false on a '%' followed by anything but 25, 09, 0A or 0D.
bool unescaped(std::string_view field, std::string &out)
{
    out.clear();
    for (size_t i = 0; i < field.size(); ++i) {
        if (field[i] != '%') {
            out += field[i];
            continue;
        }
        const std::string_view code = field.substr(i + 1, 2);
        if (code == "25")
            out += '%';
        else if (code == "09")
            out += '\t';
        else if (code == "0A")
            out += '\n';
        else if (code == "0D")
            out += '\r';
        else
            return false;
        i += 2;
    }
    return true;
}

const char *yesNo(bool value)
{
    return value ? "yes" : "no";
}

std::string portRange(const Plan::FirewallRule &rule)
{
    if (rule.firstPort == 0 && rule.lastPort == 0)
        return "any";
    return std::to_string(rule.firstPort) + "-" + std::to_string(rule.lastPort);
}

bool hasControlCharacter(std::string_view text)
{
    for (unsigned char c : text) {
        if (c < 0x20 || c == 0x7f)
            return true;
    }
    return false;
}

// Why `path` is not an absolute native path a plan may name; empty when it is.
std::string pathProblem(const std::string &path, bool wildcards)
{
    if (path.size() < 3 || !((path[0] >= 'A' && path[0] <= 'Z') || (path[0] >= 'a' && path[0] <= 'z')) || path[1] != ':'
        || path[2] != '\\')
        return "'" + path + "' is not an absolute path with a drive letter (C:\\...)";
    if (path.size() > 32767)
        return "the path is longer than Windows allows";
    if (hasControlCharacter(path))
        return "the path contains a control character";
    if (path.find('/') != std::string::npos)
        return "'" + path + "' contains '/'; plans use '\\'";
    size_t start = 3;
    while (start <= path.size()) {
        size_t end = path.find('\\', start);
        if (end == std::string::npos)
            end = path.size();
        const std::string_view component(path.data() + start, end - start);
        if (component.empty() && end != path.size())
            return "'" + path + "' contains an empty component";
        if (component == "." || component == "..")
            return "'" + path + "' contains a '.' or '..' component";
        if (component.find_first_of("*?") != std::string_view::npos && !(wildcards && component == "*"))
            return "'" + path + "' contains a wildcard (only a whole '*' component, and only in a deny rule)";
        if (component.find_first_of("<>:\"|") != std::string_view::npos)
            return "'" + path + "' contains a character Windows does not allow in a name";
        start = end + 1;
    }
    return {};
}

std::optional<int> number(const std::string &text, int low, int high)
{
    int value = 0;
    const char *end = text.data() + text.size();
    const auto [next, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || error != std::errc() || next != end || text[0] == '+' || (text.size() > 1 && text[0] == '0')
        || value < low || value > high)
        return std::nullopt;
    return value;
}

std::optional<bool> flag(const std::string &text)
{
    if (text == "yes")
        return true;
    if (text == "no")
        return false;
    return std::nullopt;
}

std::optional<Plan::Access> accessFromName(const std::string &name)
{
    for (Plan::Access access : { Plan::Access::Read, Plan::Access::Write, Plan::Access::ReadOnly,
                                 Plan::Access::KeepEntry, Plan::Access::Deny }) {
        if (name == Plan::accessName(access))
            return access;
    }
    return std::nullopt;
}

bool validIdentityName(Plan::Identity identity, const std::string &name)
{
    // AppContainer profile names: up to 64 characters; account names: up to 20, without
    // the characters Windows reserves in them.
    if (name.empty() || hasControlCharacter(name) || name.find(' ') != std::string::npos)
        return false;
    if (identity == Plan::Identity::AppContainer)
        return name.size() <= 64 && name.find_first_of("\\/") == std::string::npos;
    return name.size() <= 20 && name.find_first_of("\"/\\[]:;|=,+*?<>@") == std::string::npos;
}

bool validCapability(const std::string &name)
{
    if (name.empty() || name.size() > 64)
        return false;
    for (char c : name) {
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
            return false;
    }
    return true;
}

} // namespace

const char *Plan::accessName(Access access)
{
    switch (access) {
    case Access::Read:
        return "read";
    case Access::Write:
        return "write";
    case Access::ReadOnly:
        return "read-only";
    case Access::KeepEntry:
        return "keep-entry";
    case Access::Deny:
        return "deny";
    }
    return "";
}

const char *Plan::networkName(Network network)
{
    switch (network) {
    case Network::Off:
        return "off";
    case Network::Proxy:
        return "proxy";
    case Network::Full:
        return "full";
    }
    return "";
}

const char *Plan::identityKindName(Identity identity)
{
    return identity == Identity::AppContainer ? "appcontainer" : "account";
}

std::string Plan::serialize() const
{
    std::string out;
    auto line = [&out](std::initializer_list<std::string_view> fields) {
        bool first = true;
        for (std::string_view field : fields) {
            if (!first)
                out += '\t';
            out += escaped(field);
            first = false;
        }
        out += '\n';
    };
    line({ kHeader, std::to_string(kVersion) });
    line({ "identity", identityKindName(identity), identityName });
    for (const std::string &capability : capabilities)
        line({ "capability", capability });
    line({ "token", "restricted", yesNo(restrictedToken) });
    line({ "token", "integrity", integrity });
    line({ "job", "kill-on-close", yesNo(killOnJobClose) });
    line({ "job", "breakaway", yesNo(allowBreakaway) });
    line({ "job", "active-processes", std::to_string(activeProcessLimit) });
    line({ "job", "die-on-unhandled-exception", yesNo(dieOnUnhandledException) });
    line({ "job", "ui-restrictions", yesNo(uiRestrictions) });
    for (const PathRule &rule : paths)
        line({ "path", accessName(rule.access), rule.path });
    line({ "network", networkName(network) });
    if (network == Network::Proxy)
        line({ "proxy-port", std::to_string(proxyPort) });
    line({ "loopback-exemption", yesNo(loopbackExemption) });
    for (const FirewallRule &rule : blocked)
        line({ "block", rule.protocol, rule.remoteAddress, portRange(rule) });
    line({ "end" });
    return out;
}

ParsedPlan Plan::parse(std::string_view text)
{
    Plan plan;
    std::set<std::string> seen;
    bool ended = false;
    size_t lineNumber = 0;
    size_t start = 0;
    auto fail = [&lineNumber](const std::string &field, const std::string &what) {
        return ParsedPlan{ std::nullopt, "line " + std::to_string(lineNumber) + ": " + field + ": " + what };
    };
    if (text.empty())
        return ParsedPlan{ std::nullopt, "line 1: sandbox-windows-plan: the plan is empty" };
    while (start < text.size()) {
        ++lineNumber;
        const size_t newline = text.find('\n', start);
        if (newline == std::string_view::npos)
            return fail("end", "the plan is cut off (its last line has no line feed)");
        const std::string_view raw = text.substr(start, newline - start);
        start = newline + 1;
        if (ended)
            return fail("end", "nothing may follow the line \"end\"");
        std::vector<std::string> fields;
        size_t fieldStart = 0;
        while (true) {
            const size_t tab = raw.find('\t', fieldStart);
            const std::string_view piece
                = raw.substr(fieldStart, tab == std::string_view::npos ? std::string_view::npos : tab - fieldStart);
            std::string field;
            if (!unescaped(piece, field))
                return fail(fields.empty() ? std::string("(key)") : fields.front(),
                            "a '%' not followed by 25, 09, 0A or 0D");
            fields.push_back(std::move(field));
            if (tab == std::string_view::npos)
                break;
            fieldStart = tab + 1;
        }
        const std::string key = fields.front();
        auto expect = [&](size_t count, const std::string &name) -> std::optional<ParsedPlan> {
            if (fields.size() != count)
                return fail(name,
                            "expected " + std::to_string(count - 1) + " value(s), found "
                                + std::to_string(fields.size() - 1));
            return std::nullopt;
        };
        auto once = [&](const std::string &name) -> std::optional<ParsedPlan> {
            if (!seen.insert(name).second)
                return fail(name, "given twice");
            return std::nullopt;
        };
        if (lineNumber == 1) {
            if (key != kHeader)
                return fail(kHeader, "not a sandbox plan for Windows (the first line must name it)");
            if (auto bad = expect(2, kHeader))
                return *bad;
            if (fields[1] != std::to_string(kVersion))
                return fail(kHeader,
                            "version '" + fields[1] + "' is not supported (only " + std::to_string(kVersion) + ")");
            continue;
        }
        if (key == "end") {
            if (auto bad = expect(1, "end"))
                return *bad;
            ended = true;
            continue;
        }
        if (key == "identity") {
            if (auto bad = expect(3, key); bad)
                return *bad;
            if (auto bad = once(key); bad)
                return *bad;
            if (fields[1] == "appcontainer")
                plan.identity = Identity::AppContainer;
            else if (fields[1] == "account")
                plan.identity = Identity::Account;
            else
                return fail(key, "'" + fields[1] + "' is neither appcontainer nor account");
            if (!validIdentityName(plan.identity, fields[2]))
                return fail(key, "'" + fields[2] + "' is not a valid " + fields[1] + " name");
            plan.identityName = fields[2];
        } else if (key == "capability") {
            if (auto bad = expect(2, key); bad)
                return *bad;
            if (!validCapability(fields[1]))
                return fail(key, "'" + fields[1] + "' is not a capability name");
            plan.capabilities.push_back(fields[1]);
        } else if (key == "token" || key == "job") {
            if (fields.size() < 2)
                return fail(key, "the setting is missing");
            const std::string name = key + " " + fields[1];
            if (auto bad = expect(3, name); bad)
                return *bad;
            if (auto bad = once(name); bad)
                return *bad;
            const std::string &value = fields[2];
            bool *target = nullptr;
            if (name == "token restricted")
                target = &plan.restrictedToken;
            else if (name == "job kill-on-close")
                target = &plan.killOnJobClose;
            else if (name == "job breakaway")
                target = &plan.allowBreakaway;
            else if (name == "job die-on-unhandled-exception")
                target = &plan.dieOnUnhandledException;
            else if (name == "job ui-restrictions")
                target = &plan.uiRestrictions;
            if (target) {
                const std::optional<bool> parsed = flag(value);
                if (!parsed)
                    return fail(name, "'" + value + "' is neither yes nor no");
                *target = *parsed;
            } else if (name == "token integrity") {
                if (value != "low" && value != "medium")
                    return fail(name, "'" + value + "' is neither low nor medium");
                plan.integrity = value;
            } else if (name == "job active-processes") {
                const std::optional<int> limit = number(value, 1, kMaxActiveProcesses);
                if (!limit)
                    return fail(
                        name, "'" + value + "' is not a whole number from 1 to " + std::to_string(kMaxActiveProcesses));
                plan.activeProcessLimit = *limit;
            } else {
                return fail(name, "unknown setting");
            }
        } else if (key == "path") {
            if (auto bad = expect(3, key); bad)
                return *bad;
            const std::optional<Access> access = accessFromName(fields[1]);
            if (!access)
                return fail(key, "'" + fields[1] + "' is not one of read, write, read-only, keep-entry, deny");
            if (const std::string problem = pathProblem(fields[2], *access == Access::Deny); !problem.empty())
                return fail(key + " " + fields[1], problem);
            plan.paths.push_back({ *access, fields[2] });
        } else if (key == "network") {
            if (auto bad = expect(2, key); bad)
                return *bad;
            if (auto bad = once(key); bad)
                return *bad;
            if (fields[1] == "off")
                plan.network = Network::Off;
            else if (fields[1] == "proxy")
                plan.network = Network::Proxy;
            else if (fields[1] == "full")
                plan.network = Network::Full;
            else
                return fail(key, "'" + fields[1] + "' is not one of off, proxy, full");
        } else if (key == "proxy-port") {
            if (auto bad = expect(2, key); bad)
                return *bad;
            if (auto bad = once(key); bad)
                return *bad;
            const std::optional<int> port = number(fields[1], 1, 65535);
            if (!port)
                return fail(key, "'" + fields[1] + "' is not a port from 1 to 65535");
            plan.proxyPort = *port;
        } else if (key == "loopback-exemption") {
            if (auto bad = expect(2, key); bad)
                return *bad;
            if (auto bad = once(key); bad)
                return *bad;
            const std::optional<bool> parsed = flag(fields[1]);
            if (!parsed)
                return fail(key, "'" + fields[1] + "' is neither yes nor no");
            plan.loopbackExemption = *parsed;
        } else if (key == "block") {
            if (auto bad = expect(4, key); bad)
                return *bad;
            FirewallRule rule;
            rule.protocol = fields[1];
            if (rule.protocol != "tcp" && rule.protocol != "udp" && rule.protocol != "any")
                return fail(key, "protocol '" + rule.protocol + "' is not one of tcp, udp, any");
            rule.remoteAddress = fields[2];
            if (rule.remoteAddress != "127.0.0.1" && rule.remoteAddress != "::1" && rule.remoteAddress != "any"
                && rule.remoteAddress != "non-loopback")
                return fail(key,
                            "address '" + rule.remoteAddress + "' is not one of 127.0.0.1, ::1, non-loopback, any");
            if (fields[3] != "any") {
                const size_t dash = fields[3].find('-');
                const std::optional<int> first
                    = dash == std::string::npos ? std::nullopt : number(fields[3].substr(0, dash), 1, 65535);
                const std::optional<int> last
                    = dash == std::string::npos ? std::nullopt : number(fields[3].substr(dash + 1), 1, 65535);
                if (!first || !last || *first > *last)
                    return fail(key, "ports '" + fields[3] + "' are neither any nor a range N-M within 1-65535");
                rule.firstPort = *first;
                rule.lastPort = *last;
            }
            plan.blocked.push_back(rule);
        } else {
            return fail(key.empty() ? std::string("(key)") : key, "unknown line");
        }
    }
    if (!ended)
        return fail("end", "the plan is cut off (no line \"end\")");
    for (const char *required : { "identity", "token restricted", "token integrity", "job kill-on-close",
                                  "job breakaway", "job active-processes", "job die-on-unhandled-exception",
                                  "job ui-restrictions", "network", "loopback-exemption" }) {
        if (!seen.count(required))
            return fail(required, "missing");
    }
    if ((plan.network == Network::Proxy) != (seen.count("proxy-port") != 0))
        return fail("proxy-port",
                    plan.network == Network::Proxy ? "missing (network proxy needs the proxy's port)"
                                                   : "given, but the network is not proxy");
    if (plan.identity != Identity::AppContainer && !plan.capabilities.empty())
        return fail("capability", "only an AppContainer holds capabilities");
    return ParsedPlan{ std::move(plan), {} };
}

std::vector<std::string> Plan::undoSteps() const
{
    std::vector<std::string> steps;
    for (const PathRule &rule : paths)
        steps.push_back("remove-ace\t" + std::string(accessName(rule.access)) + "\t" + escaped(rule.path));
    for (const FirewallRule &rule : blocked)
        steps.push_back("remove-firewall-rule\t" + rule.protocol + "\t" + rule.remoteAddress + "\t" + portRange(rule));
    if (loopbackExemption)
        steps.push_back("remove-loopback-exemption\t" + escaped(identityName));
    if (identity == Identity::AppContainer)
        steps.push_back("delete-appcontainer-profile\t" + escaped(identityName));
    return steps;
}

} // namespace sandbox::windows
