#pragma once

#include "protocol/ActivationEvent.h"
#include "protocol/BackendInfo.h"
#include "protocol/CredentialInfo.h"
#include "protocol/HostInteraction.h"
#include "protocol/Policy.h"
#include "protocol/Refusal.h"
#include "protocol/SettingsValues.h"
#include "protocol/SpawnRequest.h"

#include <QFuture>
#include <QJsonObject>
#include <QObject>

#include <memory>
#include <optional>

namespace sandbox {

class TextCatalog;
class Transport;

// A process spawned through a Client. Output and exit arrive as signals.
class RemoteProcess : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;
    virtual quint64 id() const = 0;
    virtual void writeStdin(const QByteArray &data) = 0;
    virtual void closeStdin() = 0;
    virtual void kill() = 0;
    // Passes `signal` to the command, which may handle it (process.kill with a signal).
    virtual void deliverSignal(sandbox::ProcessSignal signal) = 0;
    // The client's terminal is now `size` (process.resize; a command spawned with a terminal).
    virtual void resizeTerminal(const sandbox::TerminalSize &size) = 0;

signals:
    void started(const sandbox::ProcessInfo &info);
    void failedToStart(const sandbox::Error &error);
    void stdoutReady(const QByteArray &data);
    void stderrReady(const QByteArray &data);
    void finished(const sandbox::ExitStatus &status);
};

// The presenters' only way into the engine (Studio, sandboxctl, any other client):
// typed calls that travel as protocol messages over a Transport, the same whether the
// engine is in this process or in a daemon. Must be used from a thread with an event
// loop; futures resolve and signals are emitted on that thread.
class Client final : public QObject
{
    Q_OBJECT

public:
    explicit Client(std::unique_ptr<Transport> transport, QObject *parent = nullptr);
    ~Client() override;

    // False once the engine's side of the connection is gone (disconnected() was emitted).
    bool isConnected() const;

    // Texts the engine sends (descriptors, claims, reasons, errors, step messages,
    // questions) reach this client's signals and results translated with `catalog`;
    // without one they stay in the engine's source language.
    void setTextCatalog(std::shared_ptr<const TextCatalog> catalog);
    // A text the engine's code wrote in this process (the protocol's own checks, run by a
    // presenter before it sends anything) in this client's language.
    QString translated(const QString &engineText) const;

    QFuture<Result<QList<BackendInfo>>> backends();
    QFuture<Result<BackendInfo>> describe(const BackendRef &ref);
    QFuture<Result<SettingsView>> settings(const BackendRef &ref);
    QFuture<Status> updateSettings(const BackendRef &ref, const SettingsValues &values,
                                   const QList<SecretUpdate> &secrets = {});
    // Activation events stream through activationEvent() while this runs.
    QFuture<Result<ActivationResult>> activate(const BackendRef &ref,
                                               std::optional<SettingsValues> candidate = std::nullopt,
                                               const QList<SecretUpdate> &secrets = {});
    QFuture<Result<Policy>> policy();
    QFuture<Status> setPolicy(const Policy &policy);
    // Credentials by name (never a value); a value goes one way only, into the engine.
    QFuture<Result<QList<CredentialInfo>>> credentials();
    QFuture<Status> setCredential(const QString &name, const QString &value);
    QFuture<Status> removeCredential(const QString &name);
    // A new engine certificate authority; its certificate (PEM).
    QFuture<Result<QByteArray>> rotateCertificateAuthority();
    // The returned object is owned by the caller.
    std::unique_ptr<RemoteProcess> spawn(const SpawnRequest &request);
    QFuture<Result<QList<ProcessInfo>>> processes();
    QFuture<Status> kill(quint64 processId);
    QFuture<Result<QList<PackInfo>>> packs();
    // Installs the pack at `path` (absolute: a folder or a .tar.gz of one) for this user.
    QFuture<Result<PackInfo>> installPack(const QString &path);
    QFuture<Status> enablePack(const QString &packId);
    QFuture<Status> disablePack(const QString &packId);
    QFuture<Status> removePack(const QString &packId);
    QFuture<Status> answerInteraction(const HostInteractionResponse &response);
    // { active, warnings[], processes, server: {version, pid} }
    QFuture<Result<QJsonObject>> status();
    // The engine's recent refusals, oldest first.
    QFuture<Result<QList<Refusal>>> refusals();
    // The same, and from then on every refusal as refusalReported() (each once, in order).
    QFuture<Result<QList<Refusal>>> followRefusals();

signals:
    void activationEvent(const sandbox::ActivationEvent &event);
    void activationFinished(const sandbox::ActivationResult &result);
    void cleanupWarning(const sandbox::CleanupWarning &warning);
    void hostInteractionRequested(const sandbox::HostInteractionRequest &request);
    // The question `id` no longer waits for an answer: another presenter answered it, it
    // timed out or was refused. A presenter still showing it puts it away.
    void hostInteractionSettled(const QString &id);
    void backendsChanged();
    void activeBackendChanged(const sandbox::BackendRef &ref);
    void policyChanged(const sandbox::Policy &policy);
    // A credential's value was stored or removed (by any client): credentials() tells which.
    void credentialsChanged();
    // A process in the engine's table started (running) or ended, whoever spawned it.
    void processChanged(const sandbox::ProcessInfo &process);
    // The sandbox refused something (after followRefusals()).
    void refusalReported(const sandbox::Refusal &refusal);
    void disconnected(const QString &reason);
    // The engine is stopping (its host quits) and ends the processes it runs.
    void engineStopping();

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace sandbox
