#pragma once

#include "core/launcher/Launcher.h"
#include "launchers/auto/AutoLauncher.h"
#include "protocol/Policy.h"
#include "protocol/Refusal.h"
#include "protocol/SpawnRequest.h"

#include <QByteArray>
#include <QMutex>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>

namespace sandbox::test {

// What a user of the launcher sees of one command.
struct RunResult
{
    bool spawned = false; // spawn() returned a process
    bool started = false; // the process emitted started()
    bool failedToStart = false;
    QString error; // spawn() error or failedToStart() message
    QByteArray out;
    QByteArray err;
    ExitStatus status;
    qint64 pid = 0;
    QStringList notes; // what the process said about how its sandbox started
    QList<Refusal> refusals; // what the sandbox refused the command, as reported
    // The auto launcher: the command's calls sandbox-init answered, and the time that took.
    qint64 supervisedCalls = 0;
    qint64 supervisedMicroseconds = 0;
};

// Answers Host Interaction questions with a fixed answer and keeps the activation notes a
// launcher reports. Its state directory is `stateDirectory` (the temporary folder when empty).
class FixedAnswerHost final : public LauncherHost
{
public:
    explicit FixedAnswerHost(bool accept, QString stateDirectory = {})
        : m_accept(accept)
        , m_stateDirectory(std::move(stateDirectory))
    { }
    QString stateDirectory() const override;
    QFuture<HostInteractionResponse> ask(const HostInteractionRequest &request) override;
    void notifyAvailabilityChanged() override { }
    void reportActivationNote(const QString &note) override;
    int questions() const { return m_questions.load(); }
    // The notes reported since the last call, in order.
    QStringList takeNotes();

private:
    bool m_accept;
    QString m_stateDirectory;
    std::atomic<int> m_questions = 0; // asked from any thread (the SSH agent's, say)
    QMutex m_mutex; // notes may be reported from any thread
    QStringList m_notes;
};

// An auto launcher configured for `tier` ("strongest" or "landlock-seccomp") and prepared.
std::shared_ptr<AutoLauncher> preparedLauncher(const QString &tier, QString *error = nullptr);

// Runs `argv` through `launcher` and waits (event loop) until it has finished.
RunResult runIn(Launcher &launcher, const QStringList &argv, const Policy &policy, const QString &cwd,
                const QByteArray &input = {}, qint64 timeoutMs = 0, int waitMs = 60000);

// The careful default policy, with the denied list extended by `extraDenied`.
Policy defaultPolicy(const QStringList &extraDenied = {});

// Host processes whose command line contains `marker` (to see that none outlives its sandbox).
int processesWith(const QByteArray &marker);

// A `sleep` duration unique to one test run, so processesWith() finds only its own processes.
QByteArray uniqueSleep();

} // namespace sandbox::test
