// builtin:vm against auto tier 1: cold activation (configure + prepare: helpers verified,
// initramfs assembled, a VM booted to "agent ready"), the first command in a workspace
// (which boots the VM that shares it), and the latency of /bin/true once that VM runs.
// Then baselines side by side with the cold boot: the activation that saves one, then
// interleaved pairs (SANDBOX_BENCH_VM_PAIRS, default 1: the restore is about ten times faster,
// which one pair shows, and each cold one takes half a minute under TCG) of a cold activation
// and one restored from it, each followed by the first command in a workspace (whose VM is
// restored from the same baseline, its shares given to it on restore, or cold booted); medians.
// Helpers come from the build's bundle through a file: URL. Measures only: it fails when
// a backend cannot run, never because of a figure.
#include "LauncherRun.h"
#include "launchers/vm/VmLauncher.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QUrl>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace sandbox;
using namespace sandbox::test;

namespace {

double percentile(std::vector<double> values, double p)
{
    std::sort(values.begin(), values.end());
    const size_t index = std::min(values.size() - 1, size_t(p * double(values.size() - 1) + 0.5));
    return values[index];
}

bool measure(Launcher &launcher, const Policy &policy, const QString &workspace, int runs, std::vector<double> &times)
{
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer clock;
        clock.start();
        const RunResult result = runIn(launcher, { QStringLiteral("/bin/true") }, policy, workspace, {}, 0, 300000);
        const double ms = double(clock.nsecsElapsed()) / 1e6;
        if (!result.started || result.status.exitCode != 0) {
            std::fprintf(stderr, "bench: /bin/true failed: %s\n", qPrintable(result.error));
            return false;
        }
        times.push_back(ms);
    }
    return true;
}

struct Activation
{
    double activationMs = 0;
    double firstCommandMs = 0;
    double readyMs = 0;
    bool restored = false;
    bool workspaceRestored = false;
};

// configure + prepare, then the first command in `workspace`; false when either fails.
bool activateAndRun(LauncherHost &host, bool baselines, const Policy &policy, const QString &workspace,
                    Activation &measured)
{
    auto vm = std::make_shared<VmLauncher>();
    vm->attach(&host);
    ResolvedSettings settings;
    settings.values.values.insert(QStringLiteral("helperSource"),
                                  QUrl::fromLocalFile(QStringLiteral(SANDBOX_VM_BUNDLE_DIR "/")).toString());
    settings.values.values.insert(QStringLiteral("baselineEnabled"), baselines);
    QElapsedTimer clock;
    clock.start();
    if (const Status configured = vm->configure(settings).result(); !configured) {
        std::fprintf(stderr, "bench: %s\n", qPrintable(configured.error().toString()));
        return false;
    }
    QFuture<Status> prepared = vm->prepare();
    prepared.waitForFinished();
    measured.activationMs = double(clock.nsecsElapsed()) / 1e6;
    if (!prepared.result()) {
        std::fprintf(stderr, "bench: the vm backend did not prepare: %s\n",
                     qPrintable(prepared.result().error().toString()));
        return false;
    }
    measured.readyMs = double(vm->lastBootMs());
    measured.restored = vm->lastPrepareRestored();
    std::vector<double> first;
    if (!measure(*vm, policy, workspace, 1, first))
        return false;
    measured.firstCommandMs = double(clock.nsecsElapsed()) / 1e6;
    for (const QString &note : vm->takeWorkspaceBootNotes()) {
        if (note.startsWith(QStringLiteral("workspace VM restored from baseline")))
            measured.workspaceRestored = true;
        std::fprintf(stderr, "bench: %s (activation %.0f ms, first command done at %.0f ms)\n", qPrintable(note),
                     measured.activationMs, measured.firstCommandMs);
    }
    return true;
}

double medianOf(const std::vector<Activation> &runs, double Activation::*field)
{
    std::vector<double> values;
    for (const Activation &run : runs)
        values.push_back(run.*field);
    return percentile(values, 0.5);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int runs = qEnvironmentVariableIntValue("SANDBOX_BENCH_VM_RUNS") > 0
        ? qEnvironmentVariableIntValue("SANDBOX_BENCH_VM_RUNS")
        : 10;
    QTemporaryDir state;
    QTemporaryDir workspace(QStringLiteral("/var/tmp/bench_vm-XXXXXX"));
    if (!state.isValid() || !workspace.isValid()) {
        std::fprintf(stderr, "bench: cannot create temporary directories\n");
        return 1;
    }
    const Policy policy = defaultPolicy();

    FixedAnswerHost host(false, state.path());
    auto vm = std::make_shared<VmLauncher>();
    vm->attach(&host);
    ResolvedSettings settings;
    settings.values.values.insert(QStringLiteral("helperSource"),
                                  QUrl::fromLocalFile(QStringLiteral(SANDBOX_VM_BUNDLE_DIR "/")).toString());
    QElapsedTimer clock;
    clock.start();
    if (const Status configured = vm->configure(settings).result(); !configured) {
        std::fprintf(stderr, "bench: %s\n", qPrintable(configured.error().toString()));
        return 1;
    }
    QFuture<Status> prepared = vm->prepare();
    prepared.waitForFinished();
    const double activationMs = double(clock.nsecsElapsed()) / 1e6;
    if (!prepared.result()) {
        std::fprintf(stderr, "bench: the vm backend did not prepare: %s\n",
                     qPrintable(prepared.result().error().toString()));
        return 1;
    }
    const double bootMs = double(vm->lastBootMs());
    std::vector<double> first;
    clock.restart();
    if (!measure(*vm, policy, workspace.path(), 1, first))
        return 1;
    std::vector<double> vmTimes;
    if (!measure(*vm, policy, workspace.path(), runs, vmTimes))
        return 1;

    QString error;
    std::shared_ptr<AutoLauncher> tier1 = preparedLauncher(QStringLiteral("strongest"), &error);
    std::vector<double> autoTimes;
    if (!tier1 || tier1->tier() != AutoLauncher::Tier::Namespaces) {
        std::fprintf(stderr, "bench: auto tier 1 is not available here: %s\n", qPrintable(error));
    } else {
        clock.restart();
        std::vector<double> warm;
        measure(*tier1, policy, workspace.path(), 3, warm);
        if (!measure(*tier1, policy, workspace.path(), runs, autoTimes))
            return 1;
    }

    std::printf("\nbuiltin:vm (%s) against auto tier 1, wall time in ms\n\n",
                vm->accelerated() ? "QEMU + KVM" : "QEMU TCG, software emulation");
    std::printf("| %-58s | %10s | %10s |\n", "measure", "median", "p95");
    std::printf("|%s|%s|%s|\n", std::string(60, '-').c_str(), std::string(12, '-').c_str(),
                std::string(12, '-').c_str());
    std::printf("| %-58s | %10.0f | %10s |\n", "vm: cold activation (fetch, image, boot to agent ready)", activationMs,
                "-");
    std::printf("| %-58s | %10.0f | %10s |\n", "vm: of which the boot to agent ready", bootMs, "-");
    std::printf("| %-58s | %10.0f | %10s |\n", "vm: first command in a workspace (boots its VM)", first.front(), "-");
    std::printf("| %-58s | %10.2f | %10.2f |\n", qPrintable(QStringLiteral("vm: /bin/true, %1 runs").arg(runs)),
                percentile(vmTimes, 0.5), percentile(vmTimes, 0.95));
    if (!autoTimes.empty()) {
        std::printf("| %-58s | %10.2f | %10.2f |\n",
                    qPrintable(QStringLiteral("auto tier 1: /bin/true, %1 runs").arg(runs)), percentile(autoTimes, 0.5),
                    percentile(autoTimes, 0.95));
    }
    std::printf("\n");

    // Baselines: a state directory of their own, so the cold figures above stay cold.
    QTemporaryDir baselineState;
    FixedAnswerHost baselineHost(false, baselineState.path());
    const int pairs = qEnvironmentVariableIntValue("SANDBOX_BENCH_VM_PAIRS") > 0
        ? qEnvironmentVariableIntValue("SANDBOX_BENCH_VM_PAIRS")
        : 1;
    Activation saving;
    if (!activateAndRun(baselineHost, true, policy, workspace.path(), saving))
        return 1;
    auto artifactMiB = [&] {
        qint64 bytes = 0;
        for (const QFileInfo &entry :
             QDir(baselineState.path() + QStringLiteral("/baselines")).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot))
            bytes += QFileInfo(entry.absoluteFilePath() + QStringLiteral("/state")).size();
        return double(bytes) / 1048576.0;
    };
    std::fprintf(stderr,
                 "bench: the activation that saves the baseline: boot to agent ready %.0f ms, %d share slots, "
                 "artifact %.1f MiB\n",
                 saving.readyMs, VmLauncher::kBaselineShareSlots, artifactMiB());
    std::vector<Activation> cold, restored;
    std::vector<double> ratios;
    for (int i = 0; i < pairs; ++i) {
        Activation coldRun, restoredRun;
        if (!activateAndRun(host, false, policy, workspace.path(), coldRun)
            || !activateAndRun(baselineHost, true, policy, workspace.path(), restoredRun))
            return 1;
        if (!restoredRun.restored || !restoredRun.workspaceRestored) {
            std::fprintf(stderr, "bench: an activation with baselines (or its workspace's VM) did not restore\n");
            return 1;
        }
        cold.push_back(coldRun);
        restored.push_back(restoredRun);
        ratios.push_back(coldRun.firstCommandMs / std::max(1.0, restoredRun.firstCommandMs));
    }
    std::printf("builtin:vm baselines against a cold boot, wall time in ms, medians of %d interleaved pairs "
                "(baseline artifact: %.1f MiB, %d share slots)\n\n",
                pairs, artifactMiB(), VmLauncher::kBaselineShareSlots);
    std::printf("| %-50s | %10s | %10s | %10s | %8s |\n", "measure", "cold boot", "saving", "restored", "speed-up");
    std::printf("|%s|%s|%s|%s|%s|\n", std::string(52, '-').c_str(), std::string(12, '-').c_str(),
                std::string(12, '-').c_str(), std::string(12, '-').c_str(), std::string(10, '-').c_str());
    auto row = [&](const char *label, double Activation::*field) {
        const double coldMs = medianOf(cold, field);
        const double restoredMs = medianOf(restored, field);
        std::printf("| %-50s | %10.0f | %10.0f | %10.0f | %7.1fx |\n", label, coldMs, saving.*field, restoredMs,
                    coldMs / std::max(1.0, restoredMs));
    };
    row("VM start to agent ready (boot or restore)", &Activation::readyMs);
    row("activation (configure + prepare)", &Activation::activationMs);
    row("activation to first command in a workspace", &Activation::firstCommandMs);
    std::printf("\nThe first command in a workspace starts the VM that shares it: cold booted in the cold column, "
                "restored from the baseline in the others (its 9p shares in the baseline's pre-plugged slots, the "
                "agent mounting them). Per-pair speed-up of "
                "activation to first command: median %.1fx, lowest %.1fx.\n\n",
                percentile(ratios, 0.5), percentile(ratios, 0.0));
    return 0;
}
