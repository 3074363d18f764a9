#include "core/secrets/KeychainJob.h"

#include <QEventLoop>
#include <QTimer>
#include <qt6keychain/keychain.h>

#include <memory>

namespace {

using sandbox::KeychainJob;

KeychainJob::Outcome outcomeOf(QKeychain::Error error)
{
    switch (error) {
    case QKeychain::NoError:
        return KeychainJob::Outcome::Done;
    case QKeychain::EntryNotFound:
        return KeychainJob::Outcome::NotFound;
    case QKeychain::AccessDenied:
    case QKeychain::AccessDeniedByUser:
        return KeychainJob::Outcome::AccessDenied;
    default:
        return KeychainJob::Outcome::Failed;
    }
}

} // namespace

// The job is deleted here, except when the keychain never answered: it is then left to
// delete itself once QtKeychain's executor is done with it.
extern "C" void sandbox_run_keychain_job(sandbox::KeychainJob *request, int timeoutMs)
{
    QKeychain::Job *job = nullptr;
    QKeychain::ReadPasswordJob *readJob = nullptr;
    switch (request->operation) {
    case KeychainJob::Operation::Read:
        job = readJob = new QKeychain::ReadPasswordJob(request->service);
        break;
    case KeychainJob::Operation::Write: {
        auto *write = new QKeychain::WritePasswordJob(request->service);
        write->setTextData(request->value);
        job = write;
        break;
    }
    case KeychainJob::Operation::Remove:
        job = new QKeychain::DeletePasswordJob(request->service);
        break;
    }
    job->setKey(request->key);
    QEventLoop loop;
    bool finished = false;
    QObject::connect(job, &QKeychain::Job::finished, &loop, [&] {
        finished = true;
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    job->setAutoDelete(false);
    job->start();
    loop.exec();
    if (!finished) {
        job->setAutoDelete(true);
        request->outcome = KeychainJob::Outcome::TimedOut;
        return;
    }
    request->outcome = outcomeOf(job->error());
    request->errorString = job->errorString();
    if (request->outcome == KeychainJob::Outcome::Done && readJob)
        request->value = readJob->textData();
    delete job;
}
