#pragma once

// The one definition of which files of a git repository a sandboxed command may change:
// the ones that make the host's git run code (config, hooks, info, commondir, gitdir,
// alternates, a .git file or folder, a new repository) stay as they are; what git writes
// during ordinary work (objects, refs, logs, index, HEAD and the other state files) may
// change. Plain C++ without Qt: sandbox-init compiles it too, and every backend that
// writes into a workspace applies it.

#include <functional>
#include <string>
#include <vector>

namespace sandbox::repository {

// What a directory is, relative to the guarded root ("" for the root itself).
enum class DirectoryKind {
    Ordinary,
    // A git directory as it is now: a .git, a bare repository, modules/*, worktrees/*.
    GitDirectory,
    // Not a git directory now, but one once the change being judged is made (a new
    // repository): nothing inside it may be written.
    NewGitDirectory,
};

// Tells what the directory at a relative path ("" for the root, "/"-separated) is. Only
// directories at or under the root are asked.
using DirectoryTest = std::function<DirectoryKind(const std::string &relativeDirectory)>;

// Whether the in-progress rebase or sequencer state `state` (relative path of the
// rebase-merge, rebase-apply or sequencer entry of a git directory) may change at
// `relative` (the state itself or something inside it).
using StateTest = std::function<bool(const std::string &state, const std::string &relative)>;

// What git writes in a git directory during ordinary work (`name`: the first component
// below the git directory); none of it makes git run code.
bool isWorkState(const std::string &name);

// In-progress rebase, cherry-pick and revert state (`name`: the first component below the
// git directory): its todo list can hold commands the host's git would run on --continue.
bool isTransientState(const std::string &name);

// The names isTransientState accepts.
const std::vector<std::string> &transientStateEntries();

// The entries of a git directory that make git run code or point it elsewhere, by their
// path inside it: config, hooks, info, commondir, gitdir, config.worktree and the object
// alternates. What lies inside them is a control file too.
const std::vector<std::string> &controlEntries();

// The folders of a git directory that hold further git directories (submodules' and
// worktrees'), at any depth below them.
const std::vector<std::string> &nestedGitDirectoryFolders();

// The non-empty components of a "/"-separated path, in order.
std::vector<std::string> components(const std::string &path);

// True when `path` exists (links not followed) and is a directory (`directory`) or anything
// else (not `directory`).
bool entryIs(const std::string &path, bool directory);

// True when the directory at the absolute or working-directory-relative `path` is one git
// would take as a git directory: HEAD, and objects/ or a commondir file (links not followed).
bool isGitDirectory(const std::string &path);

// Why creating, changing or removing the entry at `relative` (a path relative to the
// guarded root, "/"-separated, without "." or ".." components) is refused; empty when it
// is allowed. Refused:
// - an entry named .git, and any path through a .git that is not a git directory;
// - inside a git directory, anything but work state (transient state only as
//   `mayChangeState` allows) and the object alternates;
// - a HEAD outside a git directory (a new bare repository), and a commondir, objects or
//   refs beside a HEAD that is already there (`root` joined with the relative directory
//   is looked at);
// - anything inside a directory that `isGitDirectory` calls a new git directory.
// `root` is the guarded root's absolute path: it names the repository in the reason, and a
// HEAD beside the entry is looked for below it.
std::string refusal(const std::string &root, const std::string &relative, const DirectoryTest &isGitDirectory,
                    const StateTest &mayChangeState);

} // namespace sandbox::repository
