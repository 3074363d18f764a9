#include "KeychainSecretStore.h"

#include <QEventLoop>
#include <QThread>
#include <QTimer>
#include <qt6keychain/keychain.h>

#include <functional>

namespace sandbox {

namespace {

// A keychain that waits for an unlock prompt nobody can answer must not hang the engine.
constexpr int jobTimeoutMs = 30000;

struct JobOutcome
{
    QKeychain::Error error = QKeychain::OtherError;
    QString errorString;
    bool timedOut = false;
};

// Runs a job to completion. The job is deleted here, except when the keychain never
// answered: it is then left to delete itself once QtKeychain's executor is done with it.
template <typename Job> JobOutcome runJob(Job *job, const std::function<void(Job *)> &onSuccess = {})
{
    QEventLoop loop;
    bool finished = false;
    QObject::connect(job, &QKeychain::Job::finished, &loop, [&] {
        finished = true;
        loop.quit();
    });
    QTimer::singleShot(jobTimeoutMs, &loop, &QEventLoop::quit);
    job->setAutoDelete(false);
    job->start();
    loop.exec();
    JobOutcome outcome;
    outcome.timedOut = !finished;
    if (!finished) {
        job->setAutoDelete(true);
        return outcome;
    }
    outcome.error = job->error();
    outcome.errorString = job->errorString();
    if (outcome.error == QKeychain::NoError && onSuccess)
        onSuccess(job);
    delete job;
    return outcome;
}

} // namespace

// The process-wide keychain thread (see the class comment).
struct KeychainThread
{
    KeychainThread()
    {
        thread.setObjectName(QStringLiteral("sandbox-keychain"));
        thread.start();
        context = new QObject;
        context->moveToThread(&thread);
    }
    ~KeychainThread()
    {
        QMetaObject::invokeMethod(context, &QObject::deleteLater);
        thread.quit();
        thread.wait();
    }
    QThread thread;
    QObject *context = nullptr;
};

Q_GLOBAL_STATIC(KeychainThread, keychainThread)

KeychainSecretStore::KeychainSecretStore(QString service)
    : m_service(std::move(service))
{ }

KeychainSecretStore::~KeychainSecretStore() = default;

QString KeychainSecretStore::keyFor(const BackendRef &ref, const QString &fieldId)
{
    return ref.toString() + QLatin1Char('/') + fieldId;
}

QString KeychainSecretStore::unreachableMessage()
{
    return tr("No OS keychain is reachable (Secret Service over D-Bus). Start gnome-keyring or KWallet, "
              "or allow plaintext secret storage explicitly ('sandboxctl secret storage plaintext', or Studio > "
              "Store Secrets in Plain Text).");
}

QString KeychainSecretStore::location() const
{
    return tr("the OS keychain (service \"%1\")").arg(m_service);
}

void KeychainSecretStore::runOnKeychainThread(const std::function<void()> &work)
{
    KeychainThread *keychain = keychainThread();
    if (QThread::currentThread() == &keychain->thread)
        work();
    else
        QMetaObject::invokeMethod(keychain->context, work, Qt::BlockingQueuedConnection);
}

static Error keychainError(const BackendRef &ref, const QString &fieldId, const JobOutcome &outcome,
                           const QString &action)
{
    const QString where = ref.toString() + QLatin1Char('.') + fieldId;
    if (outcome.timedOut) {
        return Error{ where,
                      KeychainSecretStore::tr("The OS keychain did not answer while %1 (is it locked and "
                                              "waiting for a password prompt?). Unlock it and try again.")
                          .arg(action),
                      {} };
    }
    switch (outcome.error) {
    case QKeychain::AccessDenied:
    case QKeychain::AccessDeniedByUser:
        return Error{ where,
                      KeychainSecretStore::tr("The OS keychain refused access while %1 (%2). Unlock it and try again.")
                          .arg(action, outcome.errorString),
                      {} };
    default:
        return Error{ where,
                      KeychainSecretStore::unreachableMessage() + QLatin1Char(' ')
                          + KeychainSecretStore::tr("(While %1: %2)").arg(action, outcome.errorString),
                      {} };
    }
}

Result<std::optional<QString>> KeychainSecretStore::read(const BackendRef &ref, const QString &fieldId)
{
    Result<std::optional<QString>> result;
    runOnKeychainThread([&] {
        auto *job = new QKeychain::ReadPasswordJob(m_service);
        job->setKey(keyFor(ref, fieldId));
        QString value;
        const JobOutcome outcome = runJob<QKeychain::ReadPasswordJob>(
            job, [&value](QKeychain::ReadPasswordJob *done) { value = done->textData(); });
        if (!outcome.timedOut && outcome.error == QKeychain::NoError)
            result = std::optional<QString>(value);
        else if (!outcome.timedOut && outcome.error == QKeychain::EntryNotFound)
            result = std::optional<QString>();
        else
            result = keychainError(ref, fieldId, outcome, tr("reading a secret"));
    });
    return result;
}

Result<bool> KeychainSecretStore::isConfigured(const BackendRef &ref, const QString &fieldId)
{
    // QtKeychain has no existence query: read, keep only whether a value came back.
    Result<std::optional<QString>> value = read(ref, fieldId);
    if (!value.ok())
        return value.error();
    return value.value().has_value();
}

Status KeychainSecretStore::write(const BackendRef &ref, const QString &fieldId, const QString &value)
{
    Status status;
    runOnKeychainThread([&] {
        auto *job = new QKeychain::WritePasswordJob(m_service);
        job->setKey(keyFor(ref, fieldId));
        job->setTextData(value);
        const JobOutcome outcome = runJob(job);
        if (outcome.timedOut || outcome.error != QKeychain::NoError)
            status = keychainError(ref, fieldId, outcome, tr("storing a secret"));
    });
    return status;
}

Status KeychainSecretStore::remove(const BackendRef &ref, const QString &fieldId)
{
    Status status;
    runOnKeychainThread([&] {
        auto *job = new QKeychain::DeletePasswordJob(m_service);
        job->setKey(keyFor(ref, fieldId));
        const JobOutcome outcome = runJob(job);
        if (outcome.timedOut || (outcome.error != QKeychain::NoError && outcome.error != QKeychain::EntryNotFound))
            status = keychainError(ref, fieldId, outcome, tr("removing a secret"));
    });
    return status;
}

} // namespace sandbox
