#include "RecordedEntry.h"

#include "Sha256.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

extern char **environ;

namespace sandbox {

namespace {

std::string number(unsigned long long value)
{
    return std::to_string(value);
}

} // namespace

std::string RecordedEntry::identity(const std::string &path, struct stat *status)
{
    struct stat st = {};
    if (::lstat(path.c_str(), &st) != 0)
        return errno == ENOENT || errno == ENOTDIR ? "-" : "";
    if (status)
        *status = st;
    const std::string owner = number(st.st_dev) + ' ' + number(st.st_ino) + ' ' + number(st.st_mode) + ' '
        + number(st.st_uid) + ' ' + number(st.st_gid);
    if (S_ISLNK(st.st_mode)) {
        char target[PATH_MAX];
        const ssize_t length = ::readlink(path.c_str(), target, sizeof target);
        if (length <= 0 || size_t(length) >= sizeof target)
            return "";
        return "l " + std::string(target, size_t(length));
    }
    if (S_ISDIR(st.st_mode))
        return "d " + owner;
    if (S_ISREG(st.st_mode))
        return "f " + owner + ' ' + number(st.st_size) + ' ' + number(st.st_mtim.tv_sec) + ' '
            + number(st.st_mtim.tv_nsec) + ' ' + number(st.st_ctim.tv_sec) + ' ' + number(st.st_ctim.tv_nsec);
    return "o " + owner + ' ' + number(st.st_rdev);
}

std::string RecordedEntry::listing(const std::string &directory)
{
    DIR *dir = ::opendir(directory.c_str());
    if (!dir)
        return "-";
    std::vector<std::pair<std::string, char>> entries;
    while (const dirent *entry = ::readdir(dir)) {
        const std::string name(entry->d_name);
        if (name == "." || name == "..")
            continue;
        unsigned char type = entry->d_type;
        if (type == DT_UNKNOWN) {
            struct stat st = {};
            if (::fstatat(::dirfd(dir), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
                ::closedir(dir);
                return "";
            }
            type = S_ISDIR(st.st_mode) ? DT_DIR
                : S_ISLNK(st.st_mode)  ? DT_LNK
                : S_ISSOCK(st.st_mode) ? DT_SOCK
                : S_ISREG(st.st_mode)  ? DT_REG
                                       : DT_FIFO;
        }
        const char letter = type == DT_DIR ? 'd'
            : type == DT_LNK               ? 'l'
            : type == DT_SOCK              ? 's'
            : type == DT_REG               ? 'f'
                                           : 'o';
        entries.emplace_back(name, letter);
    }
    ::closedir(dir);
    std::sort(entries.begin(), entries.end());
    Sha256 hash;
    for (const auto &[name, letter] : entries) {
        hash.add(std::string_view(name.c_str(), name.size() + 1));
        const char typed[2] = { letter, '\0' };
        hash.add(std::string_view(typed, 2));
    }
    return hash.hex();
}

std::string RecordedEntry::environment()
{
    std::vector<std::string> variables;
    for (char **entry = environ; entry && *entry; ++entry)
        variables.emplace_back(*entry);
    std::sort(variables.begin(), variables.end());
    Sha256 hash;
    for (const std::string &variable : variables)
        hash.add(std::string_view(variable.c_str(), variable.size() + 1));
    return hash.hex();
}

std::string RecordedEntry::recordName(const std::string &cwd, const std::string &policyArgument)
{
    const std::string key = std::to_string(::geteuid()) + '\0' + cwd + '\0' + policyArgument + '\0';
    return Sha256::hexOf(key);
}

} // namespace sandbox
