#pragma once

#include "core/launcher/Launcher.h"
#include "linux/SandboxPlan.h"

#include <QMutex>
#include <QString>

#include <memory>
#include <optional>

namespace sandbox {

class FilteringProxy;
class SshAgentService;
class RefusalRoute;
struct KernelProbe;
class PlanRecorder;
class PlanRecording;
class SandboxPlanCache;

// builtin:auto — the strongest lightweight OS sandbox this host offers, chosen at
// prepare(). On Linux: tier 1 (user/mount/pid/net/ipc/uts/cgroup namespaces, a root
// built from the policy, Landlock, seccomp) or tier 2 (Landlock + seccomp, where user
// namespaces are refused). What enforces each policy dimension is reported as data in
// descriptor().enforcement. Nothing runs unconfined: without a tier it is unavailable.
class AutoLauncher final : public Launcher
{
public:
    enum class Tier { None, Namespaces, LandlockSeccomp };

    // `planRecording`: where this engine's plans are recorded for sandboxctl's run front (none:
    // not recorded).
    explicit AutoLauncher(std::shared_ptr<PlanRecording> planRecording = nullptr);
    ~AutoLauncher() override;

    QString kind() const override { return QStringLiteral("auto"); }
    BackendDescriptor descriptor() const override;
    QFuture<Status> configure(const ResolvedSettings &settings) override;
    QFuture<Status> prepare() override;
    QFuture<Availability> isAvailable() override;
    Result<std::shared_ptr<SandboxProcess>> spawn(const SpawnRequest &request, const Policy &policy) override;
    QFuture<Status> disposeIdle() override;
    // sandbox-init gives the command a new terminal of the sandbox's own (tier 1: in its own
    // devpts instance), whose master side only the engine holds.
    QString terminalRefusal() const override { return {}; }

    Tier tier() const;
    // Where sandbox-init is looked for: $SANDBOX_INIT_PATH, next to the executable,
    // ../libexec/sandbox-studio/.
    static QString locateInit();

private:
    struct Choice
    {
        Tier tier = Tier::None;
        int landlockAbi = 0;
        QString initPath;
        QString reason; // why no tier, or why tier 2 although tier 1 was wanted
        bool forced = false;
    };
    // `probeCacheFile`: where the kernel probe's result is remembered (KernelProbe::cachedOrRun).
    static Choice choose(bool forceLandlockSeccomp, const QString &probeCacheFile);
    // The tier `probe` of the helper at `initPath` allows.
    static Choice choose(bool forceLandlockSeccomp, const QString &initPath, const KernelProbe &probe);
    QString probeCacheFile() const;
    Status prepareNow();
    // What preparing would choose, probed once and remembered until prepare() or a tier
    // change (m_preview). Called without m_mutex held.
    Choice preview() const;
    // Serves from now on as `choice` says.
    Status adopt(const Choice &choice);
    // <state>/run-plans, created owner-only.
    QString planRecordDirectory() const;
    // Starts this command's filtering SSH agent (policy.sshAgent); its socket's path. Its
    // refusals go through `route`, its confirmations through Host Interaction.
    Result<QString> openSshAgent(const PolicySshAgent &policy, const SpawnRequest &request,
                                 const std::shared_ptr<RefusalRoute> &route);
    static bool recordable(const Policy &policy);
    // Builds the plan for `input` and hands it to `recorder` with what it was built from.
    Result<SandboxPlan> planAndRecord(const PlanRecorder &recorder, const SandboxPlan::Input &input,
                                      const Policy &requested, const QString &initPath, const QString &recordDirectory);
    static QMap<QString, QString> enforcementFor(Tier tier, int landlockAbi, const QString &unavailableReason);
    // Credential injection, the same in both tiers.
    static QString credentialsClaim();
    // The filtering SSH agent, the same in both tiers.
    static QString sshAgentClaim();
    static QString upstreamProxyClaim();
    // sandbox-init's write gate, the same in both tiers.
    static QString writeGateClaim();
    // Which refusals this tier reports as they happen (descriptor().refusals).
    static QString refusalsFor(Tier tier);

    mutable QMutex m_mutex;
    bool m_forceLandlockSeccomp = false;
    bool m_prepared = false;
    Tier m_tier = Tier::None;
    int m_landlockAbi = 0;
    QString m_unavailableReason;
    QString m_initPath;
    std::shared_ptr<FilteringProxy> m_proxy;
    std::shared_ptr<SshAgentService> m_agents; // started by the first policy with an SSH agent
    mutable std::optional<Choice> m_preview; // descriptor() before prepare()
    // Plans reused while nothing they were built from changed (has a mutex of its own).
    std::unique_ptr<SandboxPlanCache> m_plans;
    std::shared_ptr<PlanRecording> m_planRecording;
};

} // namespace sandbox
