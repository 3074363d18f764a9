#include "core/secrets/KeychainSecretStore.h"

#include "core/secrets/KeychainJob.h"

#include <QThread>

#include <functional>

namespace sandbox {

namespace {

// A keychain that waits for an unlock prompt nobody can answer must not hang the engine.
constexpr int jobTimeoutMs = 30000;

KeychainJob runJob(KeychainJob::Operation operation, const QString &service, const QString &key,
                   const QString &value = {})
{
    KeychainJob job;
    job.operation = operation;
    job.service = service;
    job.key = key;
    job.value = value;
    KeychainJob::run(job, jobTimeoutMs);
    return job;
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

static Error keychainError(const BackendRef &ref, const QString &fieldId, const KeychainJob &outcome,
                           const QString &action)
{
    const QString where = ref.toString() + QLatin1Char('.') + fieldId;
    switch (outcome.outcome) {
    case KeychainJob::Outcome::TimedOut:
        return Error{ where,
                      KeychainSecretStore::tr("The OS keychain did not answer while %1 (is it locked and "
                                              "waiting for a password prompt?). Unlock it and try again.")
                          .arg(action),
                      {} };
    case KeychainJob::Outcome::AccessDenied:
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
        const KeychainJob job = runJob(KeychainJob::Operation::Read, m_service, keyFor(ref, fieldId));
        if (job.outcome == KeychainJob::Outcome::Done)
            result = std::optional<QString>(job.value);
        else if (job.outcome == KeychainJob::Outcome::NotFound)
            result = std::optional<QString>();
        else
            result = keychainError(ref, fieldId, job, tr("reading a secret"));
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
        const KeychainJob job = runJob(KeychainJob::Operation::Write, m_service, keyFor(ref, fieldId), value);
        if (job.outcome != KeychainJob::Outcome::Done)
            status = keychainError(ref, fieldId, job, tr("storing a secret"));
    });
    return status;
}

Status KeychainSecretStore::remove(const BackendRef &ref, const QString &fieldId)
{
    Status status;
    runOnKeychainThread([&] {
        const KeychainJob job = runJob(KeychainJob::Operation::Remove, m_service, keyFor(ref, fieldId));
        if (job.outcome != KeychainJob::Outcome::Done && job.outcome != KeychainJob::Outcome::NotFound)
            status = keychainError(ref, fieldId, job, tr("removing a secret"));
    });
    return status;
}

} // namespace sandbox
