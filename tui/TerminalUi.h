#pragma once

#include "SettingsForm.h"
#include "protocol/ActivationEvent.h"
#include "protocol/BackendInfo.h"
#include "protocol/CredentialInfo.h"
#include "protocol/Error.h"
#include "protocol/HostInteraction.h"
#include "protocol/Policy.h"
#include "protocol/SpawnRequest.h"

#include <QEventLoop>
#include <QList>
#include <QObject>
#include <QStringList>

#include <memory>
#include <optional>

class QSocketNotifier;
class QTimer;

namespace sandbox {

class Client;
class SignalWatcher;

// The ncurses presenter: draws what the Client reports (backends with their state, the
// policy with whether each credential has a value, processes, activation steps, a backend's
// settings as a form) and turns keys into Client calls. Questions the engine asks are shown
// at once and answered with keys; quitting while one is open refuses it. The terminal is
// restored on quit and on SIGINT/SIGTERM/SIGHUP.
class TerminalUi final : public QObject
{
    Q_OBJECT

public:
    // `engineGoneStatus`: the exit status when the engine goes away.
    TerminalUi(Client &client, int engineGoneStatus, QObject *parent = nullptr);
    ~TerminalUi() override;

    // Runs until the user quits or the engine goes away; the exit status, or an error when
    // the terminal screen cannot start.
    Result<int> run();

private:
    enum class View { Backends, Policy, Processes, Settings };

    void reload();
    void draw();
    void readKeys();
    void handleKey(int key);
    void activateSelected();
    void activate(const BackendRef &ref, const std::optional<SettingsValues> &candidate,
                  const QList<SecretUpdate> &secrets);
    void openSettings();
    void saveSettings();
    void reloadCredentials();
    // Keys of the policy view: credentials selected, a value typed (hidden) and saved, or
    // removed after a confirmation. False when the key is not the view's own.
    bool handlePolicyKey(int key);
    void saveCredential(const QString &name, bool remove);
    void answerTyped(int key);
    void answer(bool accepted, const QString &value);
    void quit(int status);

    Client &m_client;
    const int m_engineGoneStatus;
    QEventLoop m_loop;
    std::unique_ptr<QSocketNotifier> m_keys;
    std::unique_ptr<QTimer> m_poll;
    std::unique_ptr<SignalWatcher> m_signals;
    View m_view = View::Backends;
    QList<BackendInfo> m_backends;
    std::optional<Policy> m_policy;
    QList<ProcessInfo> m_processes;
    QList<CredentialInfo> m_credentials;
    QString m_credentialsProblem; // why whether they have values could not be read
    qsizetype m_credentialSelected = 0;
    enum class CredentialInput { None, Value, ConfirmRemove };
    CredentialInput m_credentialInput = CredentialInput::None;
    QString m_credentialTarget; // the credential the input is for (the list may change meanwhile)
    QByteArray m_credentialTyped; // the value being typed (UTF-8), never drawn
    bool m_credentialSaving = false;
    qsizetype m_selected = 0;
    QStringList m_progress; // the current or last activation, one line per step event
    QString m_status;
    QString m_farewell; // printed after the screen closes: why the TUI ended on its own
    QList<HostInteractionRequest> m_questions;
    QByteArray m_answerTyped; // the typed answer to a text or secret question (UTF-8)
    std::optional<SettingsForm> m_form; // the settings being edited (View::Settings)
    bool m_saving = false;
    bool m_activating = false;
    int m_exitStatus = 0;
    bool m_screenOpen = false;
};

} // namespace sandbox
