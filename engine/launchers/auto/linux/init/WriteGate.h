#pragma once

#include "launchers/auto/linux/handoff/InitConfigFormat.h"

#include <linux/seccomp.h>
#include <string>
#include <vector>

namespace sandbox::init {

// Refuses, at the moment of the write, every change a sandboxed command could make to the
// files that make the host's git run code, in every repository under the guarded
// (writable) roots, existing or new, at any depth. seccomp hands the command's
// path-changing calls to sandbox-init by user notification: opens that create, write or
// truncate, mkdir, mknod, symlink, link, rename, unlink and rmdir. The path (and any
// second path or link target) is read once from the caller's memory, resolved here
// component by component as the kernel would (the caller's working directory and
// descriptors through /proc/PID, /proc/self taken as the caller's), judged, and the call
// is then made by sandbox-init itself on the directory it resolved, so nothing the command
// changes afterwards redirects it. An opened file is installed into the caller.
//
// Judged, beneath a guarded root, by the rules every backend shares (core/workspace/RepositoryRules.h):
// - no entry named .git is created, written, renamed or removed (no new repository, no
//   .git file pointing elsewhere, no repository moved aside), and nothing is changed
//   through a .git that is not a git directory;
// - inside a git directory (a directory with HEAD and objects/ or commondir: a .git, a
//   bare repository, modules/*, worktrees/*) only what git writes during ordinary work
//   changes (objects, refs, logs, index, HEAD and the other state files, packed-refs,
//   *.lock, in-progress rebase and sequencer state); config, hooks, info, commondir,
//   gitdir, config.worktree, objects/info/alternates and anything else stay as they are;
// - no HEAD is created outside a git directory (no new bare repository), and nothing is
//   moved into or out of a git directory;
// - the policy's read-only paths inside writable ones, and the directories holding them,
//   are neither changed nor moved;
// - nothing beneath a path the policy denies is made, changed, moved or removed (anywhere,
//   guarded root or not), and such a refusal names the denied path;
// - no guarded root, and no directory holding one, is moved (the roots are known by path).
// Rebase and sequencer state the command created and left is removed when it ends.
class WriteGate final
{
public:
    explicit WriteGate(const InitConfig &config);
    ~WriteGate();
    WriteGate(const WriteGate &) = delete;
    WriteGate &operator=(const WriteGate &) = delete;

    // True when the configuration asks for the gate (it has guarded roots).
    static bool wanted(const InitConfig &config);
    // True when `nr` is one of the calls judged here.
    static bool handles(int nr);

    // Answers `request`. Returns true when the answer is given elsewhere (a FIFO opened
    // aside answers once its other end comes); otherwise `response` holds the answer to
    // send (an opened file is already installed in the caller). `refused` receives what
    // was refused and why, when it was, and `deniedBy` the denied path of the policy that
    // refused it, when one did.
    bool answer(int notifyFd, const seccomp_notif &request, seccomp_notif_resp &response, std::string &refused,
                std::string &deniedBy);

    // Why changing the existing entry `fd` (any descriptor of it) is refused, judged by
    // where it is; empty when it is not.
    std::string judgeEntry(int fd) const;

    // Removes the rebase and sequencer state the command created and left behind.
    void removeLeftovers();

private:
    struct Target
    {
        int parent = -1; // O_PATH directory holding `name`
        std::string name;
        int object = -1; // O_PATH of the entry, when it exists (after the links followed)
        std::string parentPath; // canonical path of `parent`
    };

    int resolve(unsigned pid, int base, const std::string &path, bool followLast, Target &out) const;
    int openBase(unsigned pid, int dirfd, const std::string &path) const;
    // What a call does to an entry: makes a directory there, moves it away or replaces it by
    // a rename, or anything else (creates, writes, links, removes).
    enum class Change { Write, MakeDirectory, Move };
    // Why changing `name` in `directory` is refused, or empty when it is not.
    std::string judge(const std::string &directory, const std::string &name, Change change) const;
    std::string nearestGitDirectory(const std::string &directory) const;
    bool underGuardedRoot(const std::string &path) const;
    // The denied path of the policy that `path` lies beneath, or empty.
    std::string deniedPathOf(const std::string &path) const;
    // Tier 2: whether the command may change the entry at `path` (or, `isParent`, make
    // entries in the directory at `path`), as Landlock would let it.
    bool mayWrite(const std::string &path, bool isParent) const;
    // judgeEntry(fd) for an entry whose path is known already.
    std::string judgeEntry(int fd, const std::string &real) const;
    std::string objectPath(int fd) const;

    int m_tier = 1;
    bool m_guest = false; // a VM guest: nothing on its sysfs is written
    std::vector<std::string> m_roots; // canonical guarded roots
    std::vector<std::string> m_readOnly; // read-only paths inside them, resolved (resolveKeepingLinks)
    std::vector<std::string> m_linksToReadOnly; // the symbolic links on the way to them
    std::vector<std::string> m_denied; // the policy's denied paths, as given and canonical
    std::vector<std::string> m_writable; // tier 2: where the command may write at all
    std::vector<std::string> m_devices; // tier 2: device nodes it may open for writing
    std::vector<std::string> m_createdState; // rebase/sequencer directories made by the command
};

} // namespace sandbox::init
