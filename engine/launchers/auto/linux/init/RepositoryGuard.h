#pragma once

#include <map>
#include <string>
#include <vector>

namespace sandbox::init {

// Keeps what a sandboxed command leaves in a repository from making the host's git run
// code afterwards. Before the command starts it records every file in .git that git does
// not write during ordinary work (config, hooks, info, commondir, config.worktree,
// worktrees/*/{commondir,gitdir}, the same inside modules/*, in-progress rebase and
// sequencer state), the .git entry itself (directory, or a file pointing elsewhere) and the
// .git pointer files of the submodules named in .gitmodules, plus any other read-only
// path it is given. When the command and everything it started have ended, it puts each of
// them back as it was and removes what appeared among them, keeping only what cannot run
// anything: a new repository's config made solely of plain keys (core format settings,
// remote url/fetch, branch remote/merge, submodule url), its description, info/exclude and
// *.sample hooks, and submodule pointers into this repository's .git/modules. Everything
// git writes while committing, fetching, rebasing or stashing (objects, refs, logs, index,
// HEAD and the other state files, packed-refs, *.lock) is left alone.
//
// It runs outside the sandbox (tier 1: the process that created the namespaces; tier 2:
// the supervisor), after every sandboxed process is gone, so nothing races it; it never
// follows a symbolic link the command may have planted.
class RepositoryGuard final
{
public:
    void addRepository(const std::string &root);
    void addReadOnly(const std::string &path);

    // Records the protected state; false with `error` when it is larger than the guard
    // keeps (the command is then not run).
    bool snapshot(std::string &error);
    // Puts the protected state back; problems are reported on stderr.
    void restore();

private:
    enum class Kind { GitDirectory, Subtree, Pointer };
    struct Entry
    {
        char type = 0; // 'f' file, 'd' directory, 'l' symbolic link
        unsigned mode = 0;
        std::string data; // file content or link target
        friend bool operator==(const Entry &, const Entry &) = default;
    };
    struct Area
    {
        Kind kind = Kind::Subtree;
        std::string path; // absolute: <repo>/.git, a read-only path, <repo>/<submodule>/.git
        std::string repository; // the repository root (pointers and GitDirectory)
        std::map<std::string, Entry> saved; // relative path ("" is the area itself)
    };

    bool collect(const Area &area, std::map<std::string, Entry> &out, std::string &error) const;
    void collectGitDirectory(const std::string &base, const std::string &relative, std::map<std::string, Entry> &out,
                             size_t &budget, bool &overflow) const;
    void collectSubtree(const std::string &base, const std::string &relative, std::map<std::string, Entry> &out,
                        size_t &budget, bool &overflow) const;
    bool keepsNew(const Area &area, const std::string &relative, const Entry &entry) const;

    std::vector<Area> m_areas;
};

} // namespace sandbox::init
