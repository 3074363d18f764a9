#pragma once

#include "E2bApi.h"

#include <QElapsedTimer>
#include <QMap>
#include <QMutex>

namespace sandbox::power {

// The sandboxes of one activation: at most one without internet access and one with it,
// created on first use and reused by every later command. A sandbox E2B ended (its timeout
// passed unused) is forgotten and replaced once, with a notice for the command that meets
// it. Every sandbox it created is killed when it is disposed, retired or destroyed.
// Thread-safe; concurrent callers wanting the same sandbox wait for the one creation.
class E2bSandboxPool final
{
    Q_DECLARE_TR_FUNCTIONS(E2bSandboxPool)

public:
    // How long killing the sandboxes may take when the pool is destroyed.
    static constexpr int killBoundMs = 5000;

    // A sandbox for a command, and what the command should tell its user about it (a
    // replaced sandbox, a refresh that failed): empty when nothing.
    struct Lease
    {
        E2bSandbox sandbox;
        QString notice;
    };

    // `keyRefused` is called (on any thread) whenever E2B refuses the key.
    E2bSandboxPool(E2bApi api, std::function<void()> keyRefused);
    ~E2bSandboxPool();

    const E2bApi &api() const { return m_api; }

    // The sandbox for commands with (or without) internet access, created when missing.
    Result<Lease> sandboxFor(bool internet);
    // The sandbox `goneId` did not answer: when E2B says it no longer exists it is
    // forgotten and a new one created; otherwise the error says why it cannot be used.
    Result<Lease> replaceGone(bool internet, const QString &goneId);
    // A command used `sandboxId`: extends its life by the timeout. `whenOlderThanMs` > 0
    // sends the refresh only when the last one is older. A failure is kept for the next
    // command's notice (and logged); a sandbox E2B says is gone is forgotten.
    void keepAlive(const QString &sandboxId, int whenOlderThanMs = 0);
    // Kills every sandbox this pool created, within `boundMs`; the error names those that
    // could not be killed.
    Status killAll(int boundMs = E2bApi::requestTimeoutMs);

private:
    Result<Lease> create(bool internet, const QString &replacing);

    E2bApi m_api;
    QMutex m_mutex;
    QMap<bool, E2bSandbox> m_sandboxes;
    QMap<QString, QElapsedTimer> m_refreshed; // sandbox id -> since its last refresh
    QMap<bool, QString> m_ended; // a sandbox found gone, replaced at the next use
    QString m_notice;
};

} // namespace sandbox::power
