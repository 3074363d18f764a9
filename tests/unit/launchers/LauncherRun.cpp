#include "LauncherRun.h"

#include "launchers/auto/linux/LinuxSandboxProcess.h"

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QPromise>
#include <QRandomGenerator>
#include <QTimer>

#include <utility>

namespace sandbox::test {

QString FixedAnswerHost::stateDirectory() const
{
    return m_stateDirectory.isEmpty() ? QDir::tempPath() : m_stateDirectory;
}

void FixedAnswerHost::reportActivationNote(const QString &note)
{
    QMutexLocker lock(&m_mutex);
    m_notes.append(note);
}

QStringList FixedAnswerHost::takeNotes()
{
    QMutexLocker lock(&m_mutex);
    return std::exchange(m_notes, {});
}

QFuture<HostInteractionResponse> FixedAnswerHost::ask(const HostInteractionRequest &request)
{
    ++m_questions;
    QPromise<HostInteractionResponse> promise;
    promise.start();
    promise.addResult(HostInteractionResponse{ request.id, m_accept, {} });
    promise.finish();
    return promise.future();
}

std::shared_ptr<AutoLauncher> preparedLauncher(const QString &tier, QString *error)
{
    auto launcher = std::make_shared<AutoLauncher>();
    ResolvedSettings settings;
    settings.values.values.insert(QStringLiteral("tier"), tier);
    Status configured = launcher->configure(settings).result();
    if (!configured) {
        if (error)
            *error = configured.error().toString();
        return nullptr;
    }
    QFuture<Status> prepared = launcher->prepare();
    prepared.waitForFinished();
    if (!prepared.result()) {
        if (error)
            *error = prepared.result().error().toString();
        return nullptr;
    }
    return launcher;
}

RunResult runIn(Launcher &launcher, const QStringList &argv, const Policy &policy, const QString &cwd,
                const QByteArray &input, qint64 timeoutMs, int waitMs)
{
    RunResult result;
    SpawnRequest request;
    request.argv = argv;
    request.cwd = cwd;
    request.timeoutMs = timeoutMs;
    Result<std::shared_ptr<SandboxProcess>> spawned = launcher.spawn(request, policy);
    if (!spawned) {
        result.error = spawned.error().toString();
        return result;
    }
    result.spawned = true;
    std::shared_ptr<SandboxProcess> process = spawned.value();
    QEventLoop loop;
    bool done = false;
    QObject::connect(process.get(), &SandboxProcess::started, &loop, [&] {
        result.started = true;
        result.pid = process->pid();
    });
    QObject::connect(process.get(), &SandboxProcess::stdoutReady, &loop,
                     [&](const QByteArray &data) { result.out += data; });
    QObject::connect(process.get(), &SandboxProcess::stderrReady, &loop,
                     [&](const QByteArray &data) { result.err += data; });
    QObject::connect(process.get(), &SandboxProcess::noted, &loop,
                     [&](const QString &note) { result.notes.append(note); });
    QObject::connect(process.get(), &SandboxProcess::refused, &loop,
                     [&](const Refusal &refusal) { result.refusals.append(refusal); });
    QObject::connect(process.get(), &SandboxProcess::failedToStart, &loop, [&](const Error &error) {
        result.failedToStart = true;
        result.error = error.toString();
        done = true;
        loop.quit();
    });
    QObject::connect(process.get(), &SandboxProcess::finished, &loop, [&](const ExitStatus &status) {
        result.status = status;
        if (const auto *confined = qobject_cast<LinuxSandboxProcess *>(process.get())) {
            result.supervisedCalls = confined->supervision().calls;
            result.supervisedMicroseconds = confined->supervision().microseconds;
        }
        done = true;
        loop.quit();
    });
    if (!input.isNull()) {
        process->writeStdin(input);
        process->closeStdin();
    } else {
        process->closeStdin();
    }
    QTimer::singleShot(waitMs, &loop, &QEventLoop::quit);
    if (!done)
        loop.exec();
    if (!done) {
        process->kill();
        result.error = QStringLiteral("did not finish within %1 ms").arg(waitMs);
        QTimer::singleShot(5000, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return result;
}

Policy defaultPolicy(const QStringList &extraDenied)
{
    Policy policy = Policy::defaults();
    policy.denied += extraDenied;
    return policy;
}

// Host processes whose command line contains `marker`.
int processesWith(const QByteArray &marker)
{
    int count = 0;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool numeric = false;
        entry.toInt(&numeric);
        if (!numeric)
            continue;
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(entry));
        if (cmdline.open(QIODevice::ReadOnly) && cmdline.readAll().contains(marker))
            ++count;
    }
    return count;
}

QByteArray uniqueSleep()
{
    return QByteArray::number(300 + QRandomGenerator::global()->bounded(1000)) + '.'
        + QByteArray::number(QRandomGenerator::global()->bounded(100000, 999999));
}

} // namespace sandbox::test
