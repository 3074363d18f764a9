#pragma once

#include "launchers/auto/linux/FilesystemReads.h"
#include "launchers/auto/linux/SandboxPlan.h"

#include <QByteArray>
#include <QMutex>
#include <QString>
#include <QStringList>

#include <ctime>
#include <memory>

namespace sandbox {

// Records a builtin:auto plan (network none or full, host execution denied: see
// AutoLauncher::recordable) for sandboxctl's run front (its reader PlanRecord, beside this file),
// which runs sandbox-init with it itself, without loading Qt or hosting an engine, for as
// long as everything the plan was built from is unchanged: the exact sandbox-init
// configuration (the command's arguments left out) beside the identities of its inputs.
// The record format is PlanRecord's (both sides say the same in their comments).
//
// Inputs, and how each is named so that an unchanged name proves an unchanged input:
// - the process's whole environment (a digest): the host environment of the plan, HOME,
//   the request's LANG/LC_ALL/TERM, and every variable that decides which files the
//   engine reads (SANDBOX_CONFIG_DIR, SANDBOX_STATE_DIR, XDG_*, SANDBOX_INIT_PATH);
// - the effective user, the working directory, the --policy argument as given;
// - the policy file and settings.json by their bytes, recorded only after those bytes
//   were parsed again here and gave the very policy the plan used and a selection of
//   builtin:auto in the tier the launcher runs: no race with a writer can pair a plan
//   with bytes it was not built from;
// - every directory the build consulted (FilesystemReads): the directory itself, each name
//   looked up there and the listing of each directory read whole, plus the binaries
//   (sandbox-init, sandboxctl, sandboxctl-full, every library loaded) and the kernel probe
//   cache by lookup;
// - the mount table, the kernel's release and the probe's conditions (boot id, the
//   sysctls that decide user namespaces, AppArmor's profiles when they restrict them).
// A record is written only when nothing it names changed while it was read: no directory,
// link or other entry since the build started and no regular file (binaries, the probe
// cache) since the process started, by its status change time, which user space cannot
// set, older than the coarse clock then. What the build read is then what is recorded
// (engine/launchers/vm/baseline/FileDigest.cpp says why the rule holds).
class PlanRecorder final
{
public:
    // The coarse clock and the environment as this process got them: called first thing
    // in main(), before anything is read.
    static void captureStart();
    // The program printed a warning (its message handler calls this): a run from the plan
    // would not, so nothing is recorded by this process.
    static void noteMessage();
    // Whether captureStart() was called: without it no record can vouch for anything.
    static bool startCaptured();

    // What the program that embeds the engine reads at start-up besides the engine's own
    // files, where a change could make it say something (a migration's report, a pack that
    // does not load): files looked up and directories listed, recorded like the plan's reads.
    struct StartUp
    {
        QStringList paths;
        QStringList directories;
    };

    // `policyArgument`: the --policy FILE as given and the bytes that were parsed from it;
    // empty: the policy stored in `configDirectory`.
    PlanRecorder(QString configDirectory, QString stateDirectory, QString policyArgument, QByteArray policyBytes,
                 StartUp startUp);

    struct Evidence
    {
        SandboxPlan::Input input;
        Policy requestedPolicy; // before the launcher's own additions
        QByteArray serialized; // sandbox-init's configuration for input.request.argv
        FilesystemReads reads;
        QByteArray mountsBefore; // /proc/self/mountinfo before the build
        timespec buildStart{}; // CLOCK_REALTIME_COARSE before the build
        QString initPath;
        QString probeCacheFile;
        QString recordDirectory;
        bool landlockSeccompSelected = false; // the tier setting builtin:auto runs with
        int spawnBoundMs = 0;
    };
    // Writes the record for `evidence`, or nothing when any input cannot be vouched for.
    void record(Evidence evidence) const;

    // The file name of the record for this user, working directory and --policy argument.
    static QString recordName(const QString &cwd, const QString &policyArgument);
    static constexpr int kMaxRecords = 64;

private:
    bool policyMatches(const Policy &policy, const QString &cwd, QByteArray *bytes, QString *path, bool *absent) const;
    bool settingsMatch(bool landlockSeccompSelected, QByteArray *bytes, bool *absent) const;

    QString m_configDirectory;
    QString m_stateDirectory;
    QString m_policyArgument;
    QByteArray m_policyBytes;
    StartUp m_startUp;
};

// Where one engine's builtin:auto finds the recorder it reports its spawns to: given to the
// engine as it is built (EngineProvider::Options::planRecording, registerBuiltinLaunchers) and
// filled by the program that hosts it once it knows what a record may vouch for (sandboxctl
// run: after reading its --policy). Empty, or in a process whose start was not captured,
// nothing is recorded.
class PlanRecording final
{
public:
    void install(std::shared_ptr<PlanRecorder> recorder);
    std::shared_ptr<PlanRecorder> recorder() const;

private:
    mutable QMutex m_mutex;
    std::shared_ptr<PlanRecorder> m_recorder;
};

} // namespace sandbox
