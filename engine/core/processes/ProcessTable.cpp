#include "core/processes/ProcessTable.h"

#include <QDateTime>
#include <QTimer>

namespace sandbox {

void ProcessTable::setIdleCallback(std::function<void(const Launcher *)> callback)
{
    QMutexLocker locker(&m_mutex);
    m_idleCallback = std::move(callback);
}

void ProcessTable::pin(const Launcher *launcher)
{
    QMutexLocker locker(&m_mutex);
    ++m_use[launcher];
}

void ProcessTable::unpin(const Launcher *launcher)
{
    QList<const Launcher *> nowIdle;
    {
        QMutexLocker locker(&m_mutex);
        releaseLocked(launcher, &nowIdle);
    }
    notifyIdle(nowIdle);
}

void ProcessTable::releaseLocked(const Launcher *launcher, QList<const Launcher *> *nowIdle)
{
    auto it = m_use.find(launcher);
    if (it == m_use.end())
        return;
    if (--it.value() <= 0) {
        m_use.erase(it);
        nowIdle->append(launcher);
    }
}

void ProcessTable::notifyIdle(const QList<const Launcher *> &launchers)
{
    std::function<void(const Launcher *)> callback;
    {
        QMutexLocker locker(&m_mutex);
        callback = m_idleCallback;
    }
    if (!callback)
        return;
    for (const Launcher *launcher : launchers)
        callback(launcher);
}

quint64 ProcessTable::add(const BackendRef &owner, std::shared_ptr<Launcher> launcher,
                          std::shared_ptr<SandboxProcess> process, const SpawnRequest &request)
{
    QMutexLocker locker(&m_mutex);
    Row row;
    row.info.id = m_nextId++;
    row.info.pid = process->pid();
    row.info.owner = owner;
    row.info.argv = request.argv;
    row.info.cwd = request.cwd;
    row.info.running = true;
    row.info.startedAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    ++m_use[launcher.get()];
    row.launcher = std::move(launcher);
    row.process = std::move(process);
    m_rows.append(std::move(row));
    return m_rows.last().info.id;
}

std::optional<ProcessInfo> ProcessTable::setPid(quint64 id, qint64 pid)
{
    QMutexLocker locker(&m_mutex);
    for (Row &row : m_rows) {
        if (row.info.id == id) {
            row.info.pid = pid;
            return row.info;
        }
    }
    return std::nullopt;
}

std::optional<ProcessInfo> ProcessTable::addNote(quint64 id, const QString &note)
{
    QMutexLocker locker(&m_mutex);
    for (Row &row : m_rows) {
        if (row.info.id == id) {
            row.info.notes.append(note);
            return row.info;
        }
    }
    return std::nullopt;
}

std::optional<ProcessInfo> ProcessTable::finish(quint64 id, const ExitStatus &status)
{
    QList<const Launcher *> nowIdle;
    std::optional<ProcessInfo> result;
    std::shared_ptr<Launcher> launcher;
    std::shared_ptr<SandboxProcess> process;
    {
        QMutexLocker locker(&m_mutex);
        for (Row &row : m_rows) {
            if (row.info.id != id || !row.info.running)
                continue;
            row.info.running = false;
            row.info.exit = status;
            result = row.info;
            // Dropped outside the lock: the last reference may destroy a launcher.
            launcher = std::move(row.launcher);
            process = std::move(row.process);
            releaseLocked(launcher.get(), &nowIdle);
            break;
        }
        int finished = 0;
        for (const Row &row : std::as_const(m_rows))
            finished += row.info.running ? 0 : 1;
        for (auto it = m_rows.begin(); finished > finishedKept && it != m_rows.end();) {
            if (!it->info.running) {
                it = m_rows.erase(it);
                --finished;
            } else {
                ++it;
            }
        }
    }
    notifyIdle(nowIdle);
    // finish() runs inside the process's own finished signal: the process, then its
    // launcher, are released once that signal has returned.
    if (process || launcher)
        QTimer::singleShot(0, [process = std::move(process), launcher = std::move(launcher)]() mutable {
            process.reset();
            launcher.reset();
        });
    return result;
}

bool ProcessTable::isIdle(const Launcher *launcher) const
{
    QMutexLocker locker(&m_mutex);
    return !m_use.contains(launcher);
}

int ProcessTable::runningCount(const Launcher *launcher) const
{
    QMutexLocker locker(&m_mutex);
    int count = 0;
    for (const Row &row : m_rows)
        count += (row.info.running && row.launcher.get() == launcher) ? 1 : 0;
    return count;
}

QList<ProcessInfo> ProcessTable::list() const
{
    QMutexLocker locker(&m_mutex);
    QList<ProcessInfo> infos;
    for (const Row &row : m_rows)
        infos.append(row.info);
    return infos;
}

std::optional<ProcessInfo> ProcessTable::info(quint64 id) const
{
    QMutexLocker locker(&m_mutex);
    for (const Row &row : m_rows) {
        if (row.info.id == id)
            return row.info;
    }
    return std::nullopt;
}

std::shared_ptr<SandboxProcess> ProcessTable::process(quint64 id) const
{
    QMutexLocker locker(&m_mutex);
    for (const Row &row : m_rows) {
        if (row.info.id == id)
            return row.process;
    }
    return nullptr;
}

QList<std::shared_ptr<SandboxProcess>> ProcessTable::takeRunning()
{
    QList<Row> rows;
    {
        QMutexLocker locker(&m_mutex);
        rows.swap(m_rows);
        m_use.clear();
    }
    QList<std::shared_ptr<SandboxProcess>> running;
    for (const Row &row : std::as_const(rows)) {
        if (row.info.running && row.process)
            running.append(row.process);
    }
    return running;
}

} // namespace sandbox
