#include "VmLauncher.h"

#include "VmLauncherCommon.h"
#include "VmMachine.h"

#include <QMutexLocker>
#include <QThread>

Q_LOGGING_CATEGORY(lcVmFetch, "sandbox.vm.fetch", QtWarningMsg)
Q_LOGGING_CATEGORY(lcVmBoot, "sandbox.vm.boot", QtInfoMsg)

namespace sandbox {

using namespace vmlauncher;

VmLauncher::VmLauncher() = default;

VmLauncher::~VmLauncher()
{
    QList<std::shared_ptr<VmMachine>> machines;
    {
        QMutexLocker lock(&m_mutex);
        machines.swap(m_machines);
    }
    for (const std::shared_ptr<VmMachine> &machine : std::as_const(machines)) {
        VmMachine *raw = machine.get();
        if (QThread::currentThread() == raw->thread())
            raw->stop();
        else
            QMetaObject::invokeMethod(
                raw, [raw] { raw->stop(); }, Qt::BlockingQueuedConnection);
    }
    // The VMs are gone, so a restore's driver steps end at once.
    QList<QFuture<void>> restores;
    {
        QMutexLocker lock(&m_mutex);
        restores.swap(m_restores);
    }
    for (QFuture<void> &restore : restores)
        restore.waitForFinished();
    machines.clear();
    // Their run directories and leases go in the I/O thread: done before this returns (a
    // launcher that never ran a VM, like every catalog instance, queued nothing there).
    QObject *context = VmMachine::startedIoContext();
    if (context && QThread::currentThread() != context->thread())
        QMetaObject::invokeMethod(
            context, [] {}, Qt::BlockingQueuedConnection);
}

QString VmLauncher::kind() const
{
    return QStringLiteral("vm");
}

QString VmLauncher::defaultHelperSource()
{
    return QStringLiteral("https://sandbox-studio.dev/releases/" SANDBOX_VERSION "/vm-helpers/");
}

QStringList VmLauncher::requiredHelpers()
{
    return { QStringLiteral("sandbox-vm-agent"), QStringLiteral("sandbox-vm-gate"),
             QStringLiteral("sandbox-vm-gvforwarder") };
}

qint64 VmLauncher::lastBootMs() const
{
    QMutexLocker lock(&m_mutex);
    return m_lastBootMs;
}

bool VmLauncher::accelerated() const
{
    QMutexLocker lock(&m_mutex);
    return m_prepared && m_acceleration == VmDriver::Acceleration::Hardware;
}

bool VmLauncher::lastPrepareRestored() const
{
    QMutexLocker lock(&m_mutex);
    return m_lastPrepareRestored;
}

QString VmLauncher::baselineDirectory() const
{
    LauncherHost *launcherHost = host();
    return launcherHost ? launcherHost->stateDirectory() + QStringLiteral("/baselines") : QString();
}

QFuture<Availability> VmLauncher::isAvailable()
{
    QMutexLocker lock(&m_mutex);
    if (!m_prepared)
        return ready(Availability{ false, tr("the VM backend has not been prepared") });
    return ready(Availability{ true, QString() });
}

std::shared_ptr<Launcher> createVmLauncher()
{
    return std::make_shared<VmLauncher>();
}

} // namespace sandbox
