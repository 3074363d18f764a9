#pragma once

#include "E2bSandboxPool.h"
#include "core/launcher/SandboxProcess.h"

#include <QJsonObject>
#include <QMutex>
#include <QNetworkRequest>
#include <QPointer>
#include <QTimer>

#include <memory>

class QNetworkAccessManager;
class QNetworkReply;

namespace sandbox::power {

// One command run by envd's process service in a sandbox of the activation, over the
// Connect protocol: Process/Start streams the start, output, keepalive and end events;
// stdin, its close and signals are unary calls, sent in order. Lives in the thread that
// spawned it; the sandbox is fetched (created on first use) on a worker thread. A sandbox
// that ended on E2B's side is replaced once (notice() says so); a kill that the sandbox
// does not confirm within killBoundMs ends the command here all the same.
class E2bProcess final : public SandboxProcess
{
    Q_OBJECT

public:
    // How often envd is asked to send a keepalive on the stream (as E2B's SDK asks).
    static constexpr int keepaliveSeconds = 50;
    // How long after the kill signal the command ends here if the sandbox does not end it.
    static constexpr int killBoundMs = 5000;

    E2bProcess(std::shared_ptr<E2bSandboxPool> pool, bool internet, SpawnRequest request);
    ~E2bProcess() override;

    // Where the command starts in the sandbox; empty: envd's default (the user's home).
    void setRemoteCwd(const QString &cwd) { m_remoteCwd = cwd; }
    // Whether the command's end extends the sandbox's life (default); a step of a longer
    // sequence leaves that to the sequence.
    void setKeepAliveAtEnd(bool keepAlive) { m_keepAliveAtEnd = keepAlive; }
    // The sandbox the command runs in (empty until it has one).
    const QString &sandboxId() const { return m_sandbox.id; }
    void start();

    qint64 pid() const override { return 0; }
    bool isRunning() const override;
    ExitStatus exitStatus() const override;
    void writeStdin(const QByteArray &data) override;
    void closeStdin() override;
    void terminate() override;
    void kill() override;

    // The environment a command gets in the sandbox: the request's, without the variables
    // that describe the host (its paths, home, user and session).
    static QJsonObject remoteEnvironment(const QMap<QString, QString> &env);
    // Whether envd of `version` needs the user named in an Authorization: Basic header.
    static bool needsBasicAuth(const QString &envdVersion);
    // A request to envd of `sandbox` at `path` (with its query), with the headers every
    // envd call carries: the sandbox named, its access token, and the user where needed.
    static QNetworkRequest envdHttpRequest(const E2bSettings &settings, const E2bSandbox &sandbox, const QString &path,
                                           const QByteArray &contentType);

signals:
    // Something the user should read on the command's error output (a replaced sandbox).
    void notice(const QByteArray &text);

private:
    void leased(const Result<E2bSandboxPool::Lease> &lease);
    void begin(const E2bSandbox &sandbox);
    void streamRead();
    void streamFinished();
    void handleEvent(const QJsonObject &event);
    void handleEndOfStream(const QByteArray &message);
    void call(const QString &method, const QJsonObject &body);
    void sendNextCall();
    void sendSignal(const QString &name);
    void refreshTimeout(int whenOlderThanMs);
    void killBoundPassed();
    void lose(const QString &why);
    void fail(const Error &error);
    void finish(const ExitStatus &status);
    QNetworkRequest envdRequest(const QString &method, const QByteArray &contentType) const;

    std::shared_ptr<E2bSandboxPool> m_pool;
    bool m_internet = false;
    SpawnRequest m_request;
    QString m_remoteCwd;
    E2bSandbox m_sandbox;
    QNetworkAccessManager *m_network = nullptr;
    QPointer<QNetworkReply> m_stream;
    QNetworkReply *m_callReply = nullptr;
    QList<std::pair<QString, QJsonObject>> m_calls;
    QByteArray m_pending;
    QTimer m_refresh;
    QTimer m_grace;
    QTimer m_killBound;
    bool m_keepAliveAtEnd = true;
    bool m_replaced = false;
    qint64 m_remotePid = 0;
    QByteArray m_stdinBeforeStart;
    bool m_closeBeforeStart = false;
    QString m_signalBeforeStart;
    bool m_started = false;
    bool m_ended = false;
    bool m_haveEnd = false;
    bool m_killed = false;
    ExitStatus m_endStatus;

    mutable QMutex m_mutex;
    bool m_running = false;
    ExitStatus m_exit;
};

} // namespace sandbox::power
