#include "SshAgentService.h"

#include "protocol/RuntimeDirectory.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QUuid>

namespace sandbox {

SshAgentService::SshAgentService(QString baseDirectory)
    : m_baseDirectory(std::move(baseDirectory))
{ }

SshAgentService::~SshAgentService()
{
    QMutexLocker lock(&m_mutex);
    if (!m_thread.isRunning())
        return;
    // The filters and their connections die on their own thread.
    QMetaObject::invokeMethod(m_home, &QObject::deleteLater, Qt::QueuedConnection);
    m_thread.quit();
    m_thread.wait();
    for (const QString &path : m_filters.keys())
        QDir().rmdir(QFileInfo(path).absolutePath());
}

Status SshAgentService::start()
{
    if (m_thread.isRunning())
        return Status::success();
    if (Status base = RuntimeDirectory::ensure(m_baseDirectory); !base)
        return Error{ QStringLiteral("policy.sshAgent"),
                      QCoreApplication::translate("sandbox::SshAgentService",
                                                  "cannot use the engine's runtime directory for the SSH agent: %1")
                          .arg(base.error().toString()),
                      {} };
    m_home = new QObject;
    m_home->moveToThread(&m_thread);
    QObject::connect(&m_thread, &QThread::finished, m_home, &QObject::deleteLater);
    m_thread.setObjectName(QStringLiteral("ssh-agents"));
    m_thread.start();
    return Status::success();
}

Result<QString> SshAgentService::open(const PolicySshAgent &policy, const QString &upstreamSocket, Ask ask,
                                      SshAgentRefusalListener refused)
{
    QMutexLocker lock(&m_mutex);
    if (Status started = start(); !started)
        return started.error();
    const QString directory
        = m_baseDirectory + QStringLiteral("/ssh-agent-") + QUuid::createUuid().toString(QUuid::Id128).left(12);
    const QString path = directory + QStringLiteral("/agent.sock");
    Status listening;
    SshAgentFilter *made = nullptr;
    QMetaObject::invokeMethod(
        m_home,
        [&] {
            auto *filter = new SshAgentFilter(policy, upstreamSocket, m_home);
            filter->setRefusalListener(std::move(refused));
            filter->setConfirmHandler(
                [filter, ask](const SshAgentConfirmation &request, std::function<void(bool)> answer) {
                    // The watcher is the filter's: a signature still waiting when the command ends is
                    // forgotten with it.
                    auto *watcher = new QFutureWatcher<bool>(filter);
                    QObject::connect(watcher, &QFutureWatcherBase::finished, filter, [watcher, answer] {
                        const bool allowed
                            = !watcher->isCanceled() && watcher->future().resultCount() > 0 && watcher->result();
                        watcher->deleteLater();
                        answer(allowed);
                    });
                    watcher->setFuture(ask ? ask(request) : QtFuture::makeReadyFuture(false));
                });
            listening = filter->listen(path);
            if (listening.ok())
                made = filter;
            else
                delete filter;
        },
        Qt::BlockingQueuedConnection);
    if (!made) {
        QDir().rmdir(directory);
        return listening.error();
    }
    m_filters.insert(path, made);
    return path;
}

void SshAgentService::close(const QString &socketPath)
{
    QMutexLocker lock(&m_mutex);
    SshAgentFilter *filter = m_filters.take(socketPath);
    if (!filter)
        return;
    QMetaObject::invokeMethod(
        m_home,
        [filter] {
            filter->close();
            delete filter;
        },
        Qt::BlockingQueuedConnection);
    QDir().rmdir(QFileInfo(socketPath).absolutePath());
}

int SshAgentService::count() const
{
    QMutexLocker lock(&m_mutex);
    return static_cast<int>(m_filters.size());
}

} // namespace sandbox
