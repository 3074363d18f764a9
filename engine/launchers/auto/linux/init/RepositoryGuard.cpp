#include "RepositoryGuard.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sandbox::init {

namespace {

constexpr size_t kBudget = 64u << 20; // bytes of protected content the guard keeps
constexpr size_t kMaxEntries = 100000;
constexpr off_t kLargestFile = 4 << 20;

std::string join(const std::string &a, const std::string &b)
{
    if (a.empty())
        return b;
    return b.empty() ? a : a + "/" + b;
}

std::string baseName(const std::string &relative)
{
    const size_t slash = relative.rfind('/');
    return slash == std::string::npos ? relative : relative.substr(slash + 1);
}

std::string parentName(const std::string &relative)
{
    const size_t slash = relative.rfind('/');
    return slash == std::string::npos ? std::string() : baseName(relative.substr(0, slash));
}

bool endsWith(const std::string &text, const char *suffix)
{
    const size_t n = std::strlen(suffix);
    return text.size() >= n && text.compare(text.size() - n, n, suffix) == 0;
}

// What git writes in a git directory during ordinary work; none of it makes git run code.
bool isWorkState(const std::string &name)
{
    static const char *const names[] = { "objects",     "refs",           "logs",
                                         "index",       "HEAD",           "ORIG_HEAD",
                                         "FETCH_HEAD",  "MERGE_HEAD",     "MERGE_MSG",
                                         "MERGE_MODE",  "MERGE_RR",       "MERGE_AUTOSTASH",
                                         "AUTO_MERGE",  "REBASE_HEAD",    "CHERRY_PICK_HEAD",
                                         "REVERT_HEAD", "COMMIT_EDITMSG", "TAG_EDITMSG",
                                         "SQUASH_MSG",  "NOTES_EDITMSG",  "packed-refs",
                                         "shallow",     "gc.pid",         "gc.log",
                                         "lfs",         "rr-cache" };
    for (const char *known : names) {
        if (name == known)
            return true;
    }
    return name.rfind("BISECT_", 0) == 0 || name.rfind("index.stash.", 0) == 0 || name.rfind("sharedindex.", 0) == 0
        || endsWith(name, ".lock");
}

bool readEntry(const std::string &path, const struct stat &st, std::string &data, size_t &budget, bool &overflow)
{
    if (S_ISLNK(st.st_mode)) {
        char target[4096];
        const ssize_t n = readlink(path.c_str(), target, sizeof target);
        if (n < 0)
            return false;
        data.assign(target, static_cast<size_t>(n));
        return true;
    }
    if (!S_ISREG(st.st_mode))
        return true;
    if (st.st_size > kLargestFile || static_cast<size_t>(st.st_size) > budget) {
        overflow = true;
        data = "\x01large " + std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec);
        return true;
    }
    const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return false;
    char buffer[65536];
    ssize_t n;
    while ((n = read(fd, buffer, sizeof buffer)) > 0)
        data.append(buffer, static_cast<size_t>(n));
    close(fd);
    budget -= std::min(budget, data.size());
    return true;
}

// The names in a directory, without "." and ".."; false when it cannot be opened.
bool listNames(const std::string &path, std::vector<std::string> &names)
{
    DIR *dir = opendir(path.c_str());
    if (!dir)
        return false;
    while (dirent *entry = readdir(dir)) {
        if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0)
            names.push_back(entry->d_name);
    }
    closedir(dir);
    return true;
}

void removeTree(const std::string &path)
{
    struct stat st = {};
    if (lstat(path.c_str(), &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        std::vector<std::string> names;
        if (listNames(path, names)) {
            for (const std::string &name : names)
                removeTree(path + "/" + name);
        }
        if (rmdir(path.c_str()) != 0)
            std::fprintf(stderr, "sandbox: cannot remove %s: %s\n", path.c_str(), std::strerror(errno));
        return;
    }
    if (unlink(path.c_str()) != 0)
        std::fprintf(stderr, "sandbox: cannot remove %s: %s\n", path.c_str(), std::strerror(errno));
}

std::string trim(const std::string &text)
{
    size_t a = 0;
    size_t b = text.size();
    while (a < b && std::isspace(static_cast<unsigned char>(text[a])))
        ++a;
    while (b > a && std::isspace(static_cast<unsigned char>(text[b - 1])))
        --b;
    return text.substr(a, b - a);
}

std::string lower(std::string text)
{
    for (char &c : text)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

// A config made only of keys that name data, never a program: what `git init`, `git clone`
// and `git submodule update` write.
bool isPlainConfig(const std::string &content)
{
    static const std::pair<const char *, const char *> allowed[] = {
        { "core", "repositoryformatversion" },
        { "core", "filemode" },
        { "core", "bare" },
        { "core", "logallrefupdates" },
        { "core", "ignorecase" },
        { "core", "precomposeunicode" },
        { "core", "symlinks" },
        { "core", "worktree" },
        { "remote", "url" },
        { "remote", "fetch" },
        { "remote", "pushurl" },
        { "remote", "tagopt" },
        { "branch", "remote" },
        { "branch", "merge" },
        { "submodule", "url" },
        { "submodule", "active" },
        { "extensions", "objectformat" },
        { "init", "defaultbranch" },
        { "user", "name" },
        { "user", "email" },
    };
    std::string section;
    size_t start = 0;
    while (start <= content.size()) {
        size_t end = content.find('\n', start);
        if (end == std::string::npos)
            end = content.size();
        const std::string line = trim(content.substr(start, end - start));
        start = end + 1;
        if (line.empty() || line[0] == '#' || line[0] == ';')
            continue;
        if (line.back() == '\\')
            return false; // continued lines: not worth parsing, not plain
        if (line[0] == '[') {
            const size_t close = line.find(']');
            if (close != line.size() - 1)
                return false;
            std::string name = line.substr(1, close - 1);
            const size_t space = name.find_first_of(" \t\".");
            section = lower(trim(space == std::string::npos ? name : name.substr(0, space)));
            continue;
        }
        const size_t equals = line.find('=');
        const std::string key = lower(trim(equals == std::string::npos ? line : line.substr(0, equals)));
        bool known = false;
        for (const auto &[s, k] : allowed)
            known = known || (section == s && key == k);
        if (!known)
            return false;
    }
    return true;
}

// `path` with "." and ".." resolved lexically.
std::string normalize(const std::string &path)
{
    std::vector<std::string> parts;
    size_t start = 0;
    while (start <= path.size()) {
        size_t end = path.find('/', start);
        if (end == std::string::npos)
            end = path.size();
        const std::string part = path.substr(start, end - start);
        start = end + 1;
        if (part.empty() || part == ".")
            continue;
        if (part == "..") {
            if (!parts.empty())
                parts.pop_back();
            continue;
        }
        parts.push_back(part);
    }
    std::string out;
    for (const std::string &part : parts)
        out += "/" + part;
    return out.empty() ? "/" : out;
}

} // namespace

void RepositoryGuard::addRepository(const std::string &root)
{
    m_areas.push_back({ Kind::GitDirectory, root + "/.git", root, {} });
    // The submodules' checkouts point at their git directories with a .git file.
    const int fd = open((root + "/.gitmodules").c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return;
    std::string content;
    char buffer[65536];
    ssize_t n;
    while ((n = read(fd, buffer, sizeof buffer)) > 0 && content.size() < (1u << 20))
        content.append(buffer, static_cast<size_t>(n));
    close(fd);
    size_t start = 0;
    while (start < content.size()) {
        size_t end = content.find('\n', start);
        if (end == std::string::npos)
            end = content.size();
        const std::string line = trim(content.substr(start, end - start));
        start = end + 1;
        const size_t equals = line.find('=');
        if (equals == std::string::npos || lower(trim(line.substr(0, equals))) != "path")
            continue;
        const std::string path = trim(line.substr(equals + 1));
        const std::string full = normalize(root + "/" + path);
        if (!path.empty() && full.rfind(root + "/", 0) == 0)
            m_areas.push_back({ Kind::Pointer, full + "/.git", root, {} });
    }
}

void RepositoryGuard::addReadOnly(const std::string &path)
{
    m_areas.push_back({ Kind::Subtree, path, std::string(), {} });
}

void RepositoryGuard::collectSubtree(const std::string &base, const std::string &relative,
                                     std::map<std::string, Entry> &out, size_t &budget, bool &overflow) const
{
    const std::string path = relative.empty() ? base : base + "/" + relative;
    struct stat st = {};
    if (lstat(path.c_str(), &st) != 0)
        return;
    if (out.size() >= kMaxEntries) {
        overflow = true;
        return;
    }
    Entry entry;
    entry.type = S_ISDIR(st.st_mode) ? 'd' : S_ISLNK(st.st_mode) ? 'l' : 'f';
    entry.mode = st.st_mode & 07777;
    if (!readEntry(path, st, entry.data, budget, overflow))
        entry.data = "\x01unreadable";
    out[relative] = entry;
    if (entry.type != 'd')
        return;
    std::vector<std::string> names;
    if (!listNames(path, names))
        return;
    for (const std::string &name : names)
        collectSubtree(base, join(relative, name), out, budget, overflow);
}

void RepositoryGuard::collectGitDirectory(const std::string &base, const std::string &relative,
                                          std::map<std::string, Entry> &out, size_t &budget, bool &overflow) const
{
    const std::string path = relative.empty() ? base : base + "/" + relative;
    std::vector<std::string> names;
    if (!listNames(path, names))
        return;
    for (const std::string &name : names) {
        const std::string childRelative = join(relative, name);
        const std::string childPath = path + "/" + name;
        struct stat st = {};
        if (lstat(childPath.c_str(), &st) != 0 || isWorkState(name))
            continue;
        if ((name == "modules" || name == "worktrees") && S_ISDIR(st.st_mode)) {
            // Each entry is a git directory of its own (a submodule's, a worktree's); a
            // submodule name may have slashes, so directories without HEAD are containers.
            std::vector<std::string> stack{ childRelative };
            while (!stack.empty()) {
                const std::string container = stack.back();
                stack.pop_back();
                const std::string containerPath = base + "/" + container;
                std::vector<std::string> innerNames;
                if (!listNames(containerPath, innerNames))
                    continue;
                for (const std::string &innerName : innerNames) {
                    const std::string innerRelative = container + "/" + innerName;
                    struct stat innerStat = {};
                    if (lstat((base + "/" + innerRelative).c_str(), &innerStat) != 0)
                        continue;
                    if (!S_ISDIR(innerStat.st_mode)) {
                        collectSubtree(base, innerRelative, out, budget, overflow);
                        continue;
                    }
                    struct stat head = {};
                    if (lstat((base + "/" + innerRelative + "/HEAD").c_str(), &head) == 0)
                        collectGitDirectory(base, innerRelative, out, budget, overflow);
                    else
                        stack.push_back(innerRelative);
                }
            }
            continue;
        }
        collectSubtree(base, childRelative, out, budget, overflow);
    }
}

bool RepositoryGuard::collect(const Area &area, std::map<std::string, Entry> &out, std::string &error) const
{
    size_t budget = kBudget;
    bool overflow = false;
    struct stat st = {};
    if (lstat(area.path.c_str(), &st) == 0) {
        if (area.kind == Kind::GitDirectory && S_ISDIR(st.st_mode)) {
            out[""] = Entry{ 'd', static_cast<unsigned>(st.st_mode & 07777), {} };
            collectGitDirectory(area.path, std::string(), out, budget, overflow);
        } else {
            collectSubtree(area.path, std::string(), out, budget, overflow);
        }
    }
    if (overflow)
        error = "the files guarded in " + area.path + " exceed what the sandbox keeps (64 MiB, 100000 entries)";
    return !overflow;
}

bool RepositoryGuard::snapshot(std::string &error)
{
    for (Area &area : m_areas) {
        area.saved.clear();
        if (!collect(area, area.saved, error))
            return false;
    }
    return true;
}

bool RepositoryGuard::keepsNew(const Area &area, const std::string &relative, const Entry &entry) const
{
    if (area.kind == Kind::Subtree)
        return false;
    if (area.kind == Kind::Pointer) {
        // "gitdir: <path>" into this repository's own .git/modules (git submodule update).
        if (!relative.empty() || entry.type != 'f' || entry.data.rfind("gitdir: ", 0) != 0)
            return false;
        const std::string target = trim(entry.data.substr(8));
        const std::string directory = area.path.substr(0, area.path.size() - 5);
        const std::string resolved = normalize(target.front() == '/' ? target : directory + "/" + target);
        return resolved.rfind(area.repository + "/.git/modules/", 0) == 0;
    }
    // A repository created by the command (git init, clone, submodule update): its
    // directories and the files that cannot run anything.
    const std::string name = baseName(relative);
    const std::string parent = parentName(relative);
    if (relative.empty())
        return entry.type == 'd';
    if (entry.type == 'd')
        return name == "info" || name == "hooks";
    if (entry.type != 'f')
        return false;
    return (name == "config" && isPlainConfig(entry.data)) || name == "description"
        || (parent == "info" && name == "exclude") || (parent == "hooks" && endsWith(name, ".sample"));
}

void RepositoryGuard::restore()
{
    for (const Area &area : m_areas) {
        std::map<std::string, Entry> current;
        std::string ignored;
        collect(area, current, ignored);
        // Deepest first: what is not as it was, and is not harmless and new, goes.
        for (auto it = current.rbegin(); it != current.rend(); ++it) {
            const auto saved = area.saved.find(it->first);
            const bool same = saved != area.saved.end() && saved->second == it->second;
            const bool keep = same || (saved == area.saved.end() && keepsNew(area, it->first, it->second))
                || (saved != area.saved.end() && saved->second.type == 'd' && it->second.type == 'd');
            if (!keep)
                removeTree(it->first.empty() ? area.path : area.path + "/" + it->first);
        }
        // Parents first: put back what was there.
        for (const auto &[relative, entry] : area.saved) {
            const std::string path = relative.empty() ? area.path : area.path + "/" + relative;
            struct stat st = {};
            const bool exists = lstat(path.c_str(), &st) == 0;
            if (entry.type == 'd') {
                if (!exists && mkdir(path.c_str(), entry.mode) != 0)
                    std::fprintf(stderr, "sandbox: cannot restore %s: %s\n", path.c_str(), std::strerror(errno));
                else if (exists && (st.st_mode & 07777) != entry.mode)
                    chmod(path.c_str(), entry.mode);
                continue;
            }
            if (exists)
                continue; // unchanged (anything changed was removed above)
            if (entry.type == 'l') {
                if (symlink(entry.data.c_str(), path.c_str()) != 0)
                    std::fprintf(stderr, "sandbox: cannot restore %s: %s\n", path.c_str(), std::strerror(errno));
                continue;
            }
            const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
            if (fd < 0) {
                std::fprintf(stderr, "sandbox: cannot restore %s: %s\n", path.c_str(), std::strerror(errno));
                continue;
            }
            size_t done = 0;
            while (done < entry.data.size()) {
                const ssize_t n = write(fd, entry.data.data() + done, entry.data.size() - done);
                if (n <= 0)
                    break;
                done += static_cast<size_t>(n);
            }
            fchmod(fd, entry.mode);
            close(fd);
        }
    }
}

} // namespace sandbox::init
