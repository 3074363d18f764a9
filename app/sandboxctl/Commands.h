#pragma once

#include "protocol/BackendRef.h"
#include "protocol/Error.h"
#include "protocol/SettingsValues.h"

#include <QMap>
#include <QObject>
#include <QStringList>

#include <memory>

namespace sandbox {

class Client;
class EngineHost;
class InteractionResponder;

// sandboxctl's subcommands. Each one is a few protocol calls through a Client: to the
// running engine owner when there is one, else to an engine embedded in this process,
// with the same output either way.
//
// Exit status: 0 success; 1 the engine refused or the operation failed; 2 bad usage;
// `run` exits with the command's status (or 128+signal) and uses 125 for its own errors.
class Commands final : public QObject
{
    Q_OBJECT

public:
    static constexpr int Failure = 1;
    static constexpr int Usage = 2;
    static constexpr int RunError = 125;

    explicit Commands(QObject *parent = nullptr);
    ~Commands() override;

    int run(const QStringList &arguments);

private:
    using Handler = int (Commands::*)(const QStringList &args);
    struct Command
    {
        QString name;
        QString usage;
        QString summary;
        Handler handler;
        bool mayAsk; // can trigger a Host Interaction question
    };
    static const QList<Command> &commands();

    int connectEngine();
    int fail(const QString &message, int status = Failure) const;
    int failWith(const Error &error, int status = Failure) const;
    int usage(const Command &command, const QString &problem) const;
    void printHelp() const;
    Result<BackendRef> parseRef(const QString &text) const;
    // Activates `ref` (optionally with new settings/secrets), printing each step.
    int activateAndReport(const BackendRef &ref, const std::optional<SettingsValues> &candidate,
                          const QList<SecretUpdate> &secrets);
    int applySettings(const BackendRef &ref, const SettingsValues &values, const QList<SecretUpdate> &secrets);

    int backends(const QStringList &args);
    int describe(const QStringList &args);
    int settings(const QStringList &args);
    int secret(const QStringList &args);
    int activate(const QStringList &args);
    int policy(const QStringList &args);
    int runCommand(const QStringList &args);
    int ps(const QStringList &args);
    int kill(const QStringList &args);
    int packs(const QStringList &args);
    int status(const QStringList &args);

    const Command *m_current = nullptr;
    QString m_socket;
    bool m_embedded = false;
    QString m_configDir;
    QMap<QString, QString> m_answers;
    std::unique_ptr<EngineHost> m_host;
    std::unique_ptr<Client> m_client;
    std::unique_ptr<InteractionResponder> m_responder;
};

} // namespace sandbox
