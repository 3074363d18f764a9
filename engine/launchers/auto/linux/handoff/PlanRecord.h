#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sandbox {

// A builtin:auto plan the engine recorded (PlanRecorder, beside this file), read back by
// sandboxctl's run front (app/sandboxctl/front), plain C++ like it: sandbox-init's exact configuration, the command's
// arguments left out, and the identity of everything the plan was built from. It is used only while every input is as
// recorded; anything else (no record, a record that is not the user's alone, malformed, another cwd, --policy,
// environment, kernel, mount table, binary, or any entry of a directory the build consulted) sends the run to the full
// program, which builds the plan again and records it anew.
//
// The format, written by PlanRecorder: NUL-terminated tokens. Each item is a tag followed
// by a fixed number of fields; a blob item (plan-head, plan-tail) is its tag, its length in
// decimal, then that many bytes and a NUL. In order: "sandbox-run-plan" "1", then uid, cwd,
// policy, env, full, init, spawnms (one field each), any number of content (path, sha256 or
// "-"), uname (release, version), entry (path, identity), list (directory, digest), then
// plan-head, plan-tail and "end", which is the last byte's item.
class PlanRecord final
{
public:
    static constexpr std::size_t kMaxBytes = 16 << 20;

    // nullopt for anything that is not one complete, well-formed record.
    static std::optional<PlanRecord> parse(std::string_view bytes);
    // The record for this user, `cwd` and --policy argument in the engine's state directory,
    // read only from a directory and file nobody else can write (owner-only, no link);
    // nullopt when there is none or it cannot be trusted.
    static std::optional<PlanRecord> find(const std::string &cwd, const std::string &policyArgument);

    // Whether every input is as recorded for a run from `cwd` with `policyArgument` that
    // would otherwise exec `fullProgram`; `stale` gets the first input that is not.
    bool current(const std::string &cwd, const std::string &policyArgument, const std::string &fullProgram,
                 std::string *stale) const;
    // sandbox-init's configuration for `argv` (UTF-8, none empty in first place).
    std::string configuration(const std::vector<std::string> &argv) const;
    const std::string &initPath() const { return m_init; }
    long long spawnBoundMs() const { return m_spawnMs; }

    // The engine's state directory, as the full program finds it (RuntimeDirectory,
    // ConfigurationLocation): $SANDBOX_STATE_DIR, else $XDG_DATA_HOME/sandbox-studio, else
    // ~/.local/share/sandbox-studio; nullopt when none of them is set.
    static std::optional<std::string> stateDirectory();

private:
    struct Check
    {
        enum class Kind { Content, Entry, List, Uname } kind;
        std::string path; // the release for Uname
        std::string expected; // the version for Uname
    };

    std::string m_uid;
    std::string m_cwd;
    std::string m_policy;
    std::string m_env;
    std::string m_full;
    std::string m_init;
    long long m_spawnMs = 0;
    std::vector<Check> m_checks;
    std::string m_head;
    std::string m_tail;
};

} // namespace sandbox
