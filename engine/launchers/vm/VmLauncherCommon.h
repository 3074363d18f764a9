#pragma once

#include <QFuture>
#include <QLoggingCategory>
#include <QPromise>
#include <QString>

// What the files of VmLauncher share: where its errors are reported, its limits and the
// guest kernel's command line.

// Fetch progress, also in the log (QT_LOGGING_RULES="sandbox.vm.fetch.info=true"); the
// activation's events carry it live.
Q_DECLARE_LOGGING_CATEGORY(lcVmFetch)
// How the VMs for workspaces started (restored or cold booted, and why).
Q_DECLARE_LOGGING_CATEGORY(lcVmBoot)

namespace sandbox::vmlauncher {

inline const QString kWhere = QStringLiteral("builtin:vm");
inline constexpr int kSoftwareBootTimeoutMs = 240 * 1000;
inline constexpr int kHardwareProbeTimeoutMs = 20 * 1000;
inline constexpr int kMaxMachines = 4;
inline constexpr int kRestoreTimeoutMs = 60 * 1000;
inline const QString kCommandLine = QStringLiteral("console=ttyS0 quiet panic=-1 rdinit=/init");
// For a VM a baseline may be saved from or restored into: freed pages (the unpacked
// initramfs archive above all) are zero, which a baseline then stores as nothing. It costs
// the boot the clearing of all guest memory (about 3 s of 512 MiB under TCG), so no other
// VM pays it.
inline const QString kBaselineCommandLine = QStringLiteral(" init_on_free=1");

template <typename T> QFuture<T> ready(T value)
{
    QPromise<T> promise;
    promise.start();
    promise.addResult(std::move(value));
    promise.finish();
    return promise.future();
}

} // namespace sandbox::vmlauncher
