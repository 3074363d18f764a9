#include "core/processes/ProcessWatch.h"

#include "core/launcher/SandboxProcess.h"
#include "core/processes/ProcessTable.h"

#include <QAtomicInt>
#include <QMutex>
#include <QSet>
#include <QTimer>

namespace sandbox {

struct ProcessWatch::State
{
    ProcessTable *table = nullptr;
    Reports reports;
    QAtomicInt alive = 1;
    QMutex mutex;
    QSet<quint64> timedOut;

    void timeOut(quint64 id)
    {
        QMutexLocker locker(&mutex);
        timedOut.insert(id);
    }

    void end(quint64 id, ExitStatus status)
    {
        {
            QMutexLocker locker(&mutex);
            if (timedOut.remove(id))
                status.timedOut = true;
        }
        std::shared_ptr<SandboxProcess> process = table->process(id);
        if (!table->finish(id, status))
            return;
        reports.ended(id, status);
        // The process object may be in the middle of emitting; release it from its event loop.
        if (process)
            QMetaObject::invokeMethod(
                process.get(), [process] {}, Qt::QueuedConnection);
    }

    void noted(const std::optional<ProcessInfo> &info)
    {
        if (info)
            reports.noted(*info);
    }
};

ProcessWatch::ProcessWatch(ProcessTable &table, Reports reports)
    : m_state(std::make_shared<State>())
{
    m_state->table = &table;
    m_state->reports = std::move(reports);
}

ProcessWatch::~ProcessWatch()
{
    stop();
}

void ProcessWatch::stop()
{
    m_state->alive.storeRelease(0);
}

void ProcessWatch::watch(quint64 id, SandboxProcess *object, const SpawnRequest &request, const BackendRef &ref,
                         int spawnMs)
{
    const std::shared_ptr<State> state = m_state;
    auto settled = std::make_shared<QAtomicInt>(0); // started, failed to start, or finished
    QObject::connect(object, &SandboxProcess::started, object, [state, id, object, settled] {
        settled->storeRelease(1);
        if (!state->alive.loadAcquire())
            return;
        // Listed at spawn before it had a pid: every client learns the pid now.
        state->noted(state->table->setPid(id, object->pid()));
    });
    QObject::connect(object, &SandboxProcess::finished, object, [state, id, settled](const ExitStatus &status) {
        settled->storeRelease(1);
        if (state->alive.loadAcquire())
            state->end(id, status);
    });
    QObject::connect(object, &SandboxProcess::refused, object,
                     [state, id, command = Refusal::shortCommand(request.argv), ref](const Refusal &seen) {
                         if (!state->alive.loadAcquire())
                             return;
                         Refusal refusal = seen;
                         refusal.processId = id;
                         refusal.command = command;
                         refusal.ref = ref;
                         state->reports.refused(std::move(refusal));
                     });
    QObject::connect(object, &SandboxProcess::noted, object, [state, id](const QString &note) {
        if (!state->alive.loadAcquire())
            return;
        state->noted(state->table->addNote(id, note));
    });
    QObject::connect(object, &SandboxProcess::failedToStart, object, [state, id, settled](const Error &) {
        settled->storeRelease(1);
        if (state->alive.loadAcquire())
            state->end(id, ExitStatus{ 127, false, 0, false });
    });
    // Starting is a launcher call too: a sandbox that has not started within its bound is
    // killed, and its end is reported as timed out.
    QTimer::singleShot(spawnMs, object, [state, id, object, settled] {
        if (!state->alive.loadAcquire() || settled->loadAcquire())
            return;
        state->timeOut(id);
        object->kill();
    });
    // kill() ends the whole sandbox in whatever state it is (a sandbox still being set up
    // reports the kill as its end, not as a failure to start).
    if (request.timeoutMs > 0) {
        QTimer::singleShot(request.timeoutMs, object, [state, id, object] {
            if (!state->alive.loadAcquire() || !object->isRunning())
                return;
            state->timeOut(id);
            object->kill();
        });
    }
}

} // namespace sandbox
