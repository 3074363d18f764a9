#pragma once

#include "protocol/Policy.h"

#include <QByteArray>
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
// SANDBOX_ESCAPE_DRIVER=direct|sandboxctl forces one.
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
    };

    EscapeDriver();
    ~EscapeDriver();

    bool prepare(QString *error);
    QString describe() const;
    Outcome run(int tier, const Policy &policy, const QStringList &argv, const QString &cwd);

    Policy defaultPolicy() const;
    Policy allowlistPolicy(quint16 allowedPort) const;

private:
    bool prepareCli(QString *error);
    Outcome runCli(int tier, const Policy &policy, const QStringList &argv, const QString &cwd);

    QString m_sandboxctl;
    QString m_configRoot;
    std::shared_ptr<AutoLauncher> m_tier1;
    std::shared_ptr<AutoLauncher> m_tier2;
};

} // namespace sandbox::test
