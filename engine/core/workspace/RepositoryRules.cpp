#include "core/workspace/RepositoryRules.h"

#include <cstring>
#include <sys/stat.h>

namespace sandbox::repository {

namespace {

std::string joined(const std::string &directory, const std::string &name)
{
    if (directory.empty())
        return name;
    if (name.empty())
        return directory;
    return directory == "/" ? "/" + name : directory + "/" + name;
}

} // namespace

std::vector<std::string> components(const std::string &path)
{
    std::vector<std::string> parts;
    size_t start = 0;
    while (start <= path.size()) {
        size_t end = path.find('/', start);
        if (end == std::string::npos)
            end = path.size();
        if (end > start)
            parts.push_back(path.substr(start, end - start));
        start = end + 1;
    }
    return parts;
}

bool entryIs(const std::string &path, bool directory)
{
    struct stat st = {};
    return lstat(path.c_str(), &st) == 0 && (directory ? S_ISDIR(st.st_mode) : !S_ISDIR(st.st_mode));
}

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
    const auto endsWith = [&](const char *suffix) {
        const size_t n = std::strlen(suffix);
        return name.size() >= n && name.compare(name.size() - n, n, suffix) == 0;
    };
    return name.rfind("BISECT_", 0) == 0 || name.rfind("index.stash.", 0) == 0 || name.rfind("sharedindex.", 0) == 0
        || endsWith(".lock");
}

const std::vector<std::string> &transientStateEntries()
{
    static const std::vector<std::string> entries = { "rebase-merge", "rebase-apply", "sequencer" };
    return entries;
}

bool isTransientState(const std::string &name)
{
    for (const std::string &entry : transientStateEntries()) {
        if (name == entry)
            return true;
    }
    return false;
}

const std::vector<std::string> &controlEntries()
{
    static const std::vector<std::string> entries = { "config",
                                                      "hooks",
                                                      "info",
                                                      "commondir",
                                                      "gitdir",
                                                      "config.worktree",
                                                      "objects/info/alternates",
                                                      "objects/info/http-alternates" };
    return entries;
}

const std::vector<std::string> &nestedGitDirectoryFolders()
{
    static const std::vector<std::string> folders = { "modules", "worktrees" };
    return folders;
}

bool isGitDirectory(const std::string &path)
{
    return entryIs(joined(path, "HEAD"), false)
        && (entryIs(joined(path, "objects"), true) || entryIs(joined(path, "commondir"), false));
}

std::string refusal(const std::string &root, const std::string &path, const DirectoryTest &isGitDirectory,
                    const StateTest &mayChangeState)
{
    const std::vector<std::string> parts = components(path);
    if (parts.empty())
        return {};
    std::string relative;
    for (const std::string &part : parts)
        relative = joined(relative, part);
    const std::string &name = parts.back();
    if (name == ".git")
        return "a repository's .git";
    // The directories holding the entry, from the root down: the deepest git directory
    // among them is the entry's repository.
    bool inRepository = false;
    std::string gitDirectory;
    std::string directory;
    for (size_t i = 0; i < parts.size(); ++i) {
        if (i > 0)
            directory = joined(directory, parts[i - 1]);
        const DirectoryKind kind = isGitDirectory(directory);
        if (kind == DirectoryKind::NewGitDirectory)
            return "inside a new repository " + joined(root, directory);
        if (i > 0 && parts[i - 1] == ".git" && kind != DirectoryKind::GitDirectory)
            return "inside " + joined(root, directory) + ", which is not a git directory (a new repository)";
        if (kind == DirectoryKind::GitDirectory) {
            inRepository = true;
            gitDirectory = directory;
        }
    }
    if (!inRepository) {
        if (name == "HEAD")
            return "a HEAD outside a git directory (a new repository)";
        // A folder that already holds a HEAD becomes a git directory with these beside it.
        if ((name == "commondir" || name == "objects" || name == "refs")
            && entryIs(joined(joined(root, directory), "HEAD"), false))
            return "a " + name + " beside the HEAD in " + joined(root, directory) + " (a new repository)";
        return {};
    }
    const std::string inside = gitDirectory.empty() ? relative : relative.substr(gitDirectory.size() + 1);
    const std::string first = inside.substr(0, inside.find('/'));
    const std::string repository = joined(root, gitDirectory);
    if (inside == "objects/info/alternates" || inside == "objects/info/http-alternates")
        return "the object alternates of the repository " + repository;
    if (isWorkState(first))
        return {};
    if (isTransientState(first)) {
        if (mayChangeState && mayChangeState(joined(gitDirectory, first), relative))
            return {};
        return "the in-progress rebase or sequencer state of the repository " + repository
            + " (only a command's own may change)";
    }
    return "a control file of the repository " + repository;
}

} // namespace sandbox::repository
