#include "PlanRecord.h"

#include "InitConfigFormat.h"
#include "RecordedEntry.h"
#include "Sha256.h"
#include "fdio/FileText.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <utility>

namespace sandbox {

namespace {

class Tokens
{
public:
    explicit Tokens(std::string_view bytes)
        : m_bytes(bytes)
    { }

    bool atEnd() const { return m_at == m_bytes.size(); }

    std::optional<std::string_view> next()
    {
        const size_t end = m_bytes.find('\0', m_at);
        if (end == std::string_view::npos)
            return std::nullopt;
        const std::string_view token = m_bytes.substr(m_at, end - m_at);
        m_at = end + 1;
        return token;
    }

    // `length` raw bytes and the NUL after them.
    std::optional<std::string_view> take(size_t length)
    {
        if (length >= m_bytes.size() - m_at || m_bytes[m_at + length] != '\0')
            return std::nullopt;
        const std::string_view token = m_bytes.substr(m_at, length);
        m_at += length + 1;
        return token;
    }

private:
    std::string_view m_bytes;
    size_t m_at = 0;
};

std::optional<long long> decimal(std::string_view text, long long max)
{
    if (text.empty() || text.size() > 12 || text.find_first_not_of("0123456789") != std::string_view::npos)
        return std::nullopt;
    const long long value = std::strtoll(std::string(text).c_str(), nullptr, 10);
    return value <= max ? std::optional<long long>(value) : std::nullopt;
}

// Where the engine keeps builtin:auto's state, as the full program finds it (the
// environment is part of every record, so a record found here was written by an engine
// that computed the same place).
std::optional<std::string> recordDirectory()
{
    const std::optional<std::string> root = PlanRecord::stateDirectory();
    if (!root)
        return std::nullopt;
    return *root + "/backends/builtin_auto/run-plans";
}

bool ownersAlone(const struct stat &st)
{
    return st.st_uid == ::geteuid() && (st.st_mode & 077) == 0;
}

} // namespace

std::optional<std::string> PlanRecord::stateDirectory()
{
    const char *state = std::getenv("SANDBOX_STATE_DIR");
    if (state && *state)
        return std::string(state);
    const char *data = std::getenv("XDG_DATA_HOME");
    const char *home = std::getenv("HOME");
    if (data && data[0] == '/')
        return std::string(data) + "/sandbox-studio";
    if (home && home[0] == '/')
        return std::string(home) + "/.local/share/sandbox-studio";
    return std::nullopt;
}

std::optional<PlanRecord> PlanRecord::parse(std::string_view bytes)
{
    if (bytes.size() > kMaxBytes)
        return std::nullopt;
    Tokens tokens(bytes);
    PlanRecord record;
    const std::optional<std::string_view> magic = tokens.next();
    const std::optional<std::string_view> version = tokens.next();
    if (!magic || *magic != "sandbox-run-plan" || !version || *version != "1")
        return std::nullopt;
    std::string *singles[]
        = { &record.m_uid, &record.m_cwd, &record.m_policy, &record.m_env, &record.m_full, &record.m_init };
    const char *singleTags[] = { "uid", "cwd", "policy", "env", "full", "init" };
    bool seen[6] = {};
    bool spawnSeen = false;
    bool headSeen = false;
    bool tailSeen = false;
    for (;;) {
        const std::optional<std::string_view> tag = tokens.next();
        if (!tag)
            return std::nullopt;
        if (*tag == "end")
            break;
        bool single = false;
        for (size_t i = 0; i < 6; ++i) {
            if (*tag != singleTags[i])
                continue;
            const std::optional<std::string_view> value = tokens.next();
            if (seen[i] || !value || headSeen)
                return std::nullopt;
            seen[i] = true;
            *singles[i] = std::string(*value);
            single = true;
        }
        if (single)
            continue;
        if (*tag == "spawnms") {
            const std::optional<std::string_view> value = tokens.next();
            const std::optional<long long> ms = value ? decimal(*value, 24LL * 3600 * 1000) : std::nullopt;
            if (spawnSeen || !ms || *ms <= 0 || headSeen)
                return std::nullopt;
            spawnSeen = true;
            record.m_spawnMs = *ms;
            continue;
        }
        if (*tag == "plan-head" || *tag == "plan-tail") {
            const bool head = *tag == "plan-head";
            const std::optional<std::string_view> length = tokens.next();
            const std::optional<long long> size = length ? decimal(*length, kMaxBytes) : std::nullopt;
            const std::optional<std::string_view> blob = size ? tokens.take(size_t(*size)) : std::nullopt;
            // The head comes first, the tail right after it, nothing but "end" after both.
            if (!blob || (head ? headSeen : (!headSeen || tailSeen)))
                return std::nullopt;
            (head ? record.m_head : record.m_tail) = std::string(*blob);
            (head ? headSeen : tailSeen) = true;
            continue;
        }
        Check check{ Check::Kind::Content, {}, {} };
        if (*tag == "content")
            check.kind = Check::Kind::Content;
        else if (*tag == "entry")
            check.kind = Check::Kind::Entry;
        else if (*tag == "list")
            check.kind = Check::Kind::List;
        else if (*tag == "uname")
            check.kind = Check::Kind::Uname;
        else
            return std::nullopt;
        const std::optional<std::string_view> path = tokens.next();
        const std::optional<std::string_view> expected = tokens.next();
        if (!path || !expected || headSeen)
            return std::nullopt;
        if (check.kind != Check::Kind::Uname && (path->empty() || expected->empty()))
            return std::nullopt;
        check.path = std::string(*path);
        check.expected = std::string(*expected);
        record.m_checks.push_back(std::move(check));
    }
    for (const bool present : seen) {
        if (!present)
            return std::nullopt;
    }
    if (!spawnSeen || !headSeen || !tailSeen || !tokens.atEnd() || record.m_init.empty() || record.m_full.empty()
        || record.m_head.empty())
        return std::nullopt;
    return record;
}

std::optional<PlanRecord> PlanRecord::find(const std::string &cwd, const std::string &policyArgument)
{
    const std::optional<std::string> directory = recordDirectory();
    if (!directory)
        return std::nullopt;
    const int dirFd = ::open(directory->c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd < 0)
        return std::nullopt;
    struct stat dirStat = {};
    if (::fstat(dirFd, &dirStat) != 0 || !S_ISDIR(dirStat.st_mode) || !ownersAlone(dirStat)) {
        ::close(dirFd);
        return std::nullopt;
    }
    const std::string name = RecordedEntry::recordName(cwd, policyArgument);
    const int fd = ::openat(dirFd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    ::close(dirFd);
    if (fd < 0)
        return std::nullopt;
    struct stat st = {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || !ownersAlone(st) || st.st_nlink != 1
        || size_t(st.st_size) > kMaxBytes) {
        ::close(fd);
        return std::nullopt;
    }
    std::string bytes;
    bytes.resize(size_t(st.st_size));
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += size_t(n);
    }
    char extra = 0;
    const bool whole = done == bytes.size() && ::read(fd, &extra, 1) == 0;
    ::close(fd);
    if (!whole)
        return std::nullopt;
    return parse(bytes);
}

bool PlanRecord::current(const std::string &cwd, const std::string &policyArgument, const std::string &fullProgram,
                         std::string *stale) const
{
    const std::pair<bool, const char *> header[] = { { m_uid == std::to_string(::geteuid()), "uid" },
                                                     { m_cwd == cwd, "cwd" },
                                                     { m_policy == policyArgument, "policy" },
                                                     { m_full == fullProgram, "full" },
                                                     { m_env == RecordedEntry::environment(), "env" } };
    for (const auto &[same, what] : header) {
        if (!same) {
            *stale = what;
            return false;
        }
    }
    for (const Check &check : m_checks) {
        switch (check.kind) {
        case Check::Kind::Uname: {
            struct utsname kernel = {};
            if (::uname(&kernel) != 0 || check.path != kernel.release || check.expected != kernel.version) {
                *stale = "uname";
                return false;
            }
            break;
        }
        case Check::Kind::Content: {
            bool absent = false;
            const std::optional<std::string> text = fdio::readFileText(check.path, kMaxBytes, &absent);
            const std::string now = text ? Sha256::hexOf(*text) : absent ? "-" : "";
            if (now.empty() || now != check.expected) {
                *stale = "content " + check.path;
                return false;
            }
            break;
        }
        case Check::Kind::Entry: {
            const std::string now = RecordedEntry::identity(check.path);
            if (now.empty() || now != check.expected) {
                *stale = "entry " + check.path;
                return false;
            }
            break;
        }
        case Check::Kind::List: {
            const std::string now = RecordedEntry::listing(check.path);
            if (now.empty() || now != check.expected) {
                *stale = "list " + check.path;
                return false;
            }
            break;
        }
        }
    }
    return true;
}

std::string PlanRecord::configuration(const std::vector<std::string> &argv) const
{
    std::string out = m_head;
    for (const std::string &arg : argv)
        init::appendRecord(out, init::key::kArg, { arg });
    out += m_tail;
    return out;
}

} // namespace sandbox
