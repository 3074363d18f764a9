#include "VmLauncher.h"
#include "VmLauncherCommon.h"
#include "VmMachine.h"

#include <QMutexLocker>

namespace sandbox {

using namespace vmlauncher;

QStringList VmLauncher::takeWorkspaceBootNotes()
{
    QMutexLocker lock(&m_mutex);
    return std::exchange(m_workspaceBootNotes, {});
}

void VmLauncher::noteWorkspaceBoot(const QString &note, VmMachine *machine)
{
    qCInfo(lcVmBoot, "%s", qUtf8Printable(note));
    {
        QMutexLocker lock(&m_mutex);
        m_workspaceBootNotes.append(note);
    }
    if (machine)
        QMetaObject::invokeMethod(machine, [machine, note] { machine->noteBoot(note); });
}

void VmLauncher::stopIdleMachines(const QString &keepKey)
{
    QList<std::shared_ptr<VmMachine>> idle;
    {
        QMutexLocker lock(&m_mutex);
        for (auto it = m_machines.begin(); it != m_machines.end();) {
            // Only the launcher and no process hold it; a failed one goes too.
            if (((*it)->layoutKey() != keepKey && it->use_count() == 1) || (*it)->hasFailed()) {
                idle.append(*it);
                it = m_machines.erase(it);
            } else {
                ++it;
            }
        }
    }
    for (const std::shared_ptr<VmMachine> &machine : std::as_const(idle)) {
        VmMachine *raw = machine.get();
        QMetaObject::invokeMethod(raw, [raw] { raw->stop(); });
    }
}

Result<std::shared_ptr<VmMachine>> VmLauncher::machineFor(const GuestLayout &layout, bool wait)
{
    const QString key = layout.key();
    {
        QMutexLocker lock(&m_mutex);
        // The VM of this very layout first, else the first that serves it, each as it is now:
        // a directory removed since it started (another program's temporary folder beside a
        // denied path) takes no VM out of service, nor makes every later spawn boot one.
        std::shared_ptr<VmMachine> serving;
        for (const std::shared_ptr<VmMachine> &machine : std::as_const(m_machines)) {
            if (machine->hasFailed() || !layout.isServedBy(machine->servingLayout()))
                continue;
            if (machine->layoutKey() == key)
                return machine;
            if (!serving)
                serving = machine;
        }
        if (serving)
            return serving;
    }
    stopIdleMachines(key);
    VmDriver::Acceleration acceleration;
    {
        QMutexLocker lock(&m_mutex);
        if (m_machines.size() >= kMaxMachines)
            return Error{ kWhere,
                          tr("%1 VMs are already running commands for other workspaces or policies; wait for "
                             "them to finish")
                              .arg(kMaxMachines),
                          {} };
        acceleration = m_acceleration;
    }
    QString coldBootNote;
    if (!wait) {
        if (std::shared_ptr<VmMachine> restored = restoreForWorkspace(layout, acceleration, &coldBootNote))
            return restored;
    }
    Result<std::shared_ptr<VmMachine>> booted = boot(
        layout, acceleration,
        acceleration == VmDriver::Acceleration::Hardware ? kHardwareProbeTimeoutMs : kSoftwareBootTimeoutMs, wait);
    if (!coldBootNote.isEmpty())
        noteWorkspaceBoot(coldBootNote, booted.ok() ? booted.value().get() : nullptr);
    return booted;
}

QFuture<Status> VmLauncher::disposeIdle()
{
    stopIdleMachines(QStringLiteral("-"));
    return ready(Status::success());
}

} // namespace sandbox
