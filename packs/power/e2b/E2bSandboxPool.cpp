#include "E2bSandboxPool.h"

#include <QDeadlineTimer>

namespace sandbox::power {

E2bSandboxPool::E2bSandboxPool(E2bApi api, std::function<void()> keyRefused)
    : m_api(std::move(api))
{
    m_api.setKeyRefusedListener(std::move(keyRefused));
}

E2bSandboxPool::~E2bSandboxPool()
{
    if (const Status killed = killAll(killBoundMs); !killed.ok())
        qWarning("%s", qPrintable(killed.error().toString()));
}

Result<E2bSandboxPool::Lease> E2bSandboxPool::create(bool internet, const QString &replacing)
{
    Result<E2bSandbox> created = m_api.create(internet);
    if (!created.ok())
        return created.error();
    m_sandboxes.insert(internet, created.value());
    m_refreshed[created.value().id].start();
    Lease lease{ created.value(), std::exchange(m_notice, {}) };
    if (!replacing.isEmpty()) {
        const QString notice = tr("The E2B sandbox %1 had ended (its timeout passed while it was not used); a new "
                                  "sandbox, %2, was created: files and processes of the old one are gone.")
                                   .arg(replacing, created.value().id);
        qWarning("e2b: %s", qPrintable(notice));
        lease.notice += tr("sandbox: %1\n").arg(notice);
    }
    return lease;
}

Result<E2bSandboxPool::Lease> E2bSandboxPool::sandboxFor(bool internet)
{
    QMutexLocker locker(&m_mutex);
    if (const auto it = m_sandboxes.constFind(internet); it != m_sandboxes.cend())
        return Lease{ *it, std::exchange(m_notice, {}) };
    return create(internet, m_ended.take(internet));
}

Result<E2bSandboxPool::Lease> E2bSandboxPool::replaceGone(bool internet, const QString &goneId)
{
    QMutexLocker locker(&m_mutex);
    const auto it = m_sandboxes.constFind(internet);
    // Another command found it gone first and replaced it already.
    if (it != m_sandboxes.cend() && it->id != goneId)
        return Lease{ *it, {} };
    if (it == m_sandboxes.cend() && !m_ended.contains(internet))
        return create(internet, {});
    if (it != m_sandboxes.cend()) {
        Result<bool> exists = m_api.exists(goneId);
        if (!exists.ok())
            return exists.error();
        if (exists.value())
            return Error{ goneId, tr("The E2B sandbox %1 exists but its envd did not answer.").arg(goneId), {} };
        m_sandboxes.remove(internet);
        m_refreshed.remove(goneId);
    }
    m_ended.remove(internet);
    return create(internet, goneId);
}

void E2bSandboxPool::keepAlive(const QString &sandboxId, int whenOlderThanMs)
{
    {
        QMutexLocker locker(&m_mutex);
        auto it = m_refreshed.find(sandboxId);
        if (it == m_refreshed.end())
            return; // not (or no longer) this pool's
        if (whenOlderThanMs > 0 && !it->hasExpired(whenOlderThanMs))
            return;
        it->start();
    }
    bool gone = false;
    const Status refreshed = m_api.refresh(sandboxId, &gone);
    if (refreshed.ok())
        return;
    QMutexLocker locker(&m_mutex);
    if (gone) {
        for (auto it = m_sandboxes.begin(); it != m_sandboxes.end(); ++it) {
            if (it->id == sandboxId) {
                m_ended.insert(it.key(), sandboxId);
                m_sandboxes.erase(it);
                break;
            }
        }
        m_refreshed.remove(sandboxId);
        return;
    }
    const QString why = refreshed.error().message;
    qWarning("e2b: the timeout of the sandbox %s was not extended: %s", qPrintable(sandboxId), qPrintable(why));
    m_notice += tr("sandbox: E2B did not extend the timeout of the sandbox %1: %2\n").arg(sandboxId, why);
}

Status E2bSandboxPool::killAll(int boundMs)
{
    QMutexLocker locker(&m_mutex);
    const QDeadlineTimer deadline(boundMs);
    QStringList left;
    QString why;
    for (auto it = m_sandboxes.cbegin(); it != m_sandboxes.cend(); ++it) {
        const int remaining = int(qMax<qint64>(1, deadline.remainingTime()));
        const Status killed = m_api.kill(it->id, remaining);
        if (!killed.ok()) {
            left.append(it->id);
            if (why.isEmpty())
                why = killed.error().message;
        }
    }
    m_sandboxes.clear();
    m_refreshed.clear();
    m_ended.clear();
    if (left.isEmpty())
        return {};
    return Error{ left.join(QLatin1String(", ")),
                  tr("These E2B sandboxes could not be deleted and may run until their timeout: %1 (%2)")
                      .arg(left.join(QLatin1String(", ")), why),
                  {} };
}

} // namespace sandbox::power
