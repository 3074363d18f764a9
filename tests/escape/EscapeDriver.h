#pragma once

#include "protocol/Policy.h"

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <memory>

namespace sandbox {
class AutoLauncher;
}

namespace sandbox::test {

// Runs one command in the auto backend, in tier 1 (namespaces) or tier 2 (Landlock +
// seccomp). When sandboxctl is built next to the suite, through `sandboxctl run` (the way
// an agent runs commands; one engine configuration directory per tier, the tier chosen
// with `settings set builtin:auto tier=...`); otherwise the launcher is driven directly.
// SANDBOX_ESCAPE_DRIVER=direct|sandboxctl|recorded|sandboxd forces one: sandboxctl runs the
// engine embedded in each `sandboxctl run`; recorded does too, but first runs /bin/true
// with the same policy and workspace, so that the case itself is served by the run front
// from the plan that run recorded (Outcome::path says whether it was); sandboxd starts one
// daemon per tier and every `sandboxctl run` goes through its socket.
class EscapeDriver final
{
public:
    struct Outcome
    {
        bool ran = false; // the sandbox started the command
        QByteArray out;
        QByteArray err;
        int exitCode = -1;
        bool signaled = false;
        int signal = 0;
        QString note;
        // Which path of the run front served it ("daemon", "recorded", "full"), when reported.
        QString path;
    };

    EscapeDriver();
    ~EscapeDriver();

    bool prepare(QString *error);
    QString describe() const;
    // `repeatable`: the command may run again when the recorded-plan driver finds that a
    // run did not take the recorded plan (a command that waits for a one-time partner on the
    // host is not).
    Outcome run(int tier, const Policy &policy, const QStringList &argv, const QString &cwd, bool repeatable = true);

    // The socket the engine serving `tier` listens on (empty when driven directly).
    QString engineSocket(int tier) const;
    // Where a client of the engine serving `tier` looks for it without --socket (as
    // RuntimeDirectory computes it in that engine's environment).
    QString defaultEngineSocket(int tier) const;
    QString sandboxctlPath() const { return m_sandboxctl; }
    // Whether each case is run through a plan recorded just before (SANDBOX_ESCAPE_DRIVER=recorded).
    bool recorded() const { return m_recorded; }

    Policy defaultPolicy() const;
    Policy allowlistPolicy(quint16 allowedPort) const;

private:
    bool prepareCli(QString *error);
    bool startDaemon(int tier, QString *error);
    QStringList connectionArguments(int tier) const;
    Outcome runCli(int tier, const Policy &policy, const QStringList &argv, const QString &cwd, bool repeatable);

    QString m_sandboxctl;
    QString m_configRoot;
    bool m_daemon = false;
    bool m_recorded = false;
    std::unique_ptr<QProcess> m_daemons[2];
    std::shared_ptr<AutoLauncher> m_tier1;
    std::shared_ptr<AutoLauncher> m_tier2;
};

} // namespace sandbox::test
