#include "EscapeDriver.h"

#include "LauncherRun.h"

namespace sandbox::test {

EscapeDriver::EscapeDriver() = default;
EscapeDriver::~EscapeDriver() = default;

bool EscapeDriver::prepare(QString *error)
{
    m_tier1 = preparedLauncher(QStringLiteral("strongest"), error);
    m_tier2 = preparedLauncher(QStringLiteral("landlock-seccomp"), error);
    if (!m_tier1 || !m_tier2)
        return false;
    if (m_tier1->tier() != AutoLauncher::Tier::Namespaces) {
        if (error)
            *error = QStringLiteral("the strongest tier is not the namespace tier on this host");
        return false;
    }
    return true;
}

QString EscapeDriver::describe() const
{
    return QStringLiteral("the auto launcher driven directly (configure, prepare, spawn)");
}

EscapeDriver::Outcome EscapeDriver::run(int tier, const Policy &policy, const QStringList &argv, const QString &cwd)
{
    const RunResult result = runIn(tier == 1 ? *m_tier1 : *m_tier2, argv, policy, cwd, QByteArray(""), 60000, 90000);
    Outcome outcome;
    outcome.ran = result.started;
    outcome.out = result.out;
    outcome.err = result.err;
    outcome.exitCode = result.status.exitCode;
    outcome.signaled = result.status.signaled;
    outcome.signal = result.status.signal;
    outcome.note = result.error;
    return outcome;
}

Policy EscapeDriver::defaultPolicy() const
{
    return Policy::defaults();
}

Policy EscapeDriver::allowlistPolicy(quint16 allowedPort) const
{
    Policy policy = Policy::defaults();
    policy.network = Policy::NetworkMode::Allowlist;
    policy.allowedDomains = { QStringLiteral("127.0.0.1:%1").arg(allowedPort) };
    return policy;
}

} // namespace sandbox::test
