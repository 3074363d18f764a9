#include "RunInvocation.h"

#include "JsonValue.h"
#include "fdio/FileText.h"
#include "launchers/auto/linux/handoff/PlanRecord.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace sandbox::front {

namespace {

constexpr size_t maxPolicyFile = 4 * 1024 * 1024;

// Where the running engine serves when no --socket is given, as the full sandboxctl finds it.
std::optional<std::string> defaultSocketPath()
{
    const char *runtime = std::getenv("XDG_RUNTIME_DIR");
    if (runtime && runtime[0] != '\0') {
        if (!isValidUtf8(runtime))
            return std::nullopt;
        if (runtime[0] == '/')
            return std::string(runtime) + "/sandbox-studio/engine.sock";
    }
    const std::optional<std::string> state = PlanRecord::stateDirectory();
    if (!state || !isValidUtf8(*state))
        return std::nullopt;
    std::string directory = *state;
    while (directory.size() > 1 && directory.back() == '/')
        directory.pop_back();
    return directory + "/run/engine.sock";
}

// "S" of --timeout S as plain digits with an optional fraction; the full sandboxctl reads
// (and refuses) every other spelling.
std::optional<long long> timeoutMs(const std::string &text)
{
    const size_t dot = text.find('.');
    const std::string whole = text.substr(0, dot);
    const std::string fraction = dot == std::string::npos ? std::string() : text.substr(dot + 1);
    auto digits = [](const std::string &part) { return part.find_first_not_of("0123456789") == std::string::npos; };
    if (whole.empty() || whole.size() > 9 || !digits(whole) || (dot != std::string::npos && fraction.empty())
        || !digits(fraction))
        return std::nullopt;
    const double seconds = std::strtod(text.c_str(), nullptr);
    if (!(seconds > 0))
        return std::nullopt;
    return static_cast<long long>(seconds * 1000);
}

} // namespace

bool RunInvocation::takeOption(const std::string &name, const std::string &value)
{
    if (value.empty() || !isValidUtf8(value))
        return false;
    if (name == "socket") {
        // A relative name means something else to the full sandboxctl's socket class.
        if (value[0] != '/')
            return false;
        m_socketPath = value;
    } else if (name == "policy") {
        m_policyPath = value;
    } else if (name == "timeout") {
        const std::optional<long long> ms = timeoutMs(value);
        if (!ms)
            return false;
        m_request.timeoutMs = *ms;
        m_request.timeoutText = value;
    } else {
        return false;
    }
    return true;
}

std::optional<RunInvocation> RunInvocation::parse(int argc, char **argv)
{
    RunInvocation invocation;
    // Takes `--NAME VALUE` or `--NAME=VALUE` at argv[i], for the names allowed there.
    auto option = [&](int &i, std::initializer_list<const char *> names) {
        const std::string arg = argv[i];
        for (const char *name : names) {
            const std::string flag = std::string("--") + name;
            if (arg == flag) {
                if (i + 1 >= argc || argv[i + 1][0] == '-')
                    return false;
                return invocation.takeOption(name, argv[++i]);
            }
            if (arg.rfind(flag + "=", 0) == 0)
                return invocation.takeOption(name, arg.substr(flag.size() + 1));
        }
        return false;
    };
    int i = 1;
    for (; i < argc && std::strcmp(argv[i], "run") != 0; ++i) {
        if (std::strcmp(argv[i], "--embedded") == 0 && !invocation.m_embedded) {
            invocation.m_embedded = true;
            continue;
        }
        if (!option(i, { "socket" }))
            return std::nullopt;
    }
    if (i >= argc)
        return std::nullopt;
    for (++i; i < argc; ++i) {
        if (std::strcmp(argv[i], "--") == 0) {
            ++i;
            break;
        }
        if (argv[i][0] != '-')
            break;
        if (!option(i, { "socket", "policy", "timeout" }))
            return std::nullopt;
    }
    if (i >= argc || argv[i][0] == '\0')
        return std::nullopt;
    for (; i < argc; ++i) {
        if (!isValidUtf8(argv[i]))
            return std::nullopt;
        invocation.m_request.argv.emplace_back(argv[i]);
    }
    if (!invocation.complete())
        return std::nullopt;
    return invocation;
}

bool RunInvocation::complete()
{
    // On a terminal the engine's questions are asked and answered: the full sandboxctl's part.
    if (::isatty(STDIN_FILENO) && ::isatty(STDERR_FILENO))
        return false;
    if (m_socketPath.empty()) {
        const std::optional<std::string> path = defaultSocketPath();
        if (!path)
            return false;
        m_socketPath = *path;
    }
    char cwd[PATH_MAX];
    if (!::getcwd(cwd, sizeof cwd) || !isValidUtf8(cwd))
        return false;
    m_request.cwd = cwd;
    for (const char *name : { "LANG", "LC_ALL", "TERM" }) {
        const char *value = std::getenv(name);
        if (!value)
            continue;
        if (!isValidUtf8(value))
            return false;
        m_request.env.emplace_back(name, value);
    }
    if (!m_policyPath.empty()) {
        const std::optional<std::string> text = fdio::readFileText(m_policyPath, maxPolicyFile);
        const std::optional<JsonValue> policy = text ? JsonValue::parse(*text) : std::nullopt;
        if (!policy || !policy->isObject())
            return false;
        m_request.policyJson = policy->toJson();
    }
    return true;
}

} // namespace sandbox::front
