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
    for (const QString &folder : std::as_const(m_ownFolders))
        QDir().rmdir(folder);
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
                                      SshAgentRefusalListener refused, const QString &socketPath)
{
    QMutexLocker lock(&m_mutex);
    if (Status started = start(); !started)
        return started.error();
    const bool ownFolder = socketPath.isEmpty();
    const QString directory = ownFolder
        ? m_baseDirectory + QStringLiteral("/ssh-agent-") + QUuid::createUuid().toString(QUuid::Id128).left(12)
        : QFileInfo(socketPath).absolutePath();
    const QString path = ownFolder ? directory + QStringLiteral("/agent.sock") : socketPath;
    if (m_filters.contains(path))
        return Error{ path,
                      QCoreApplication::translate("sandbox::SshAgentService", "an SSH agent already listens here"),
                      {} };
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
        if (ownFolder)
            QDir().rmdir(directory);
        return listening.error();
    }
    m_filters.insert(path, made);
    if (ownFolder)
        m_ownFolders.insert(directory);
    return path;
}

Result<QString> SshAgentService::openForCommand(const PolicySshAgent &policy, const QString &command,
                                                const BackendRef &ref, HostAsk ask,
                                                std::function<void(const Refusal &)> refused, const QString &socketPath)
{
    const QString upstream = qEnvironmentVariable("SSH_AUTH_SOCK");
    if (upstream.isEmpty())
        return Error{ QStringLiteral("policy.sshAgent"),
                      QCoreApplication::translate("sandbox::SshAgentService",
                                                  "The engine has no SSH agent to filter: SSH_AUTH_SOCK is not set "
                                                  "where it runs. Start the engine from a session with an SSH agent. "
                                                  "Nothing was run."),
                      {} };
    const QString named = command.left(200);
    auto confirm = [ask = std::move(ask), named, ref](const SshAgentConfirmation &signature) {
        HostInteractionRequest question;
        question.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
        question.subject = QStringLiteral("ssh-signature");
        question.ref = ref;
        question.hasRef = true;
        question.kind = HostInteractionRequest::Kind::Confirm;
        question.title = QCoreApplication::translate("sandbox::SshAgentService", "Allow an SSH signature?");
        question.message
            = QCoreApplication::translate("sandbox::SshAgentService",
                                          "The command '%1' asks your SSH agent to sign with the key %2 (%3%4). "
                                          "Allow this signature?")
                  .arg(named, signature.fingerprint, signature.keyType,
                       signature.comment.isEmpty() ? QString() : QStringLiteral(", ") + signature.comment);
        return ask(question).then([](const HostInteractionResponse &response) { return response.accepted; });
    };
    auto report = [refused = std::move(refused)](const QString &fingerprint, const QString &what) {
        Refusal refusal;
        refusal.kind = Refusal::Kind::Credential;
        refusal.what = fingerprint.isEmpty()
            ? QCoreApplication::translate("sandbox::SshAgentService", "SSH agent")
            : QCoreApplication::translate("sandbox::SshAgentService", "SSH agent, key %1").arg(fingerprint);
        refusal.rule = QCoreApplication::translate("sandbox::SshAgentService", "ssh agent: %1").arg(what);
        refused(refusal);
    };
    return open(policy, upstream, confirm, report, socketPath);
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
    const QString folder = QFileInfo(socketPath).absolutePath();
    if (m_ownFolders.remove(folder))
        QDir().rmdir(folder);
}

int SshAgentService::count() const
{
    QMutexLocker lock(&m_mutex);
    return static_cast<int>(m_filters.size());
}

} // namespace sandbox
