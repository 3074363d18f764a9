#include "TerminalUi.h"

#include "client/Client.h"
#include "client/WhenReady.h"
#include "common/SignalWatcher.h"

#include <QJsonDocument>
#include <QSocketNotifier>
#include <QTimer>

#include <clocale>
#include <csignal>
#include <cstdio>
#include <curses.h>
#include <unistd.h>

namespace sandbox {

namespace {

void line(int row, const QString &text, int attributes = A_NORMAL)
{
    if (row >= LINES)
        return;
    attron(attributes);
    // Cut to the width, so a long reason never wraps over the next row.
    mvaddnstr(row, 0, text.left(qMax(0, COLS)).toUtf8().constData(), -1);
    clrtoeol();
    attroff(attributes);
}

// `text` in rows of at most `width` columns, broken at spaces where it can be.
QStringList wrapped(const QString &text, int width)
{
    QStringList rows;
    QString rest = text.simplified();
    width = qMax(width, 10);
    while (rest.size() > width) {
        qsizetype cut = rest.lastIndexOf(QLatin1Char(' '), width);
        if (cut <= 0)
            cut = width;
        rows.append(rest.left(cut));
        rest = rest.mid(cut).trimmed();
    }
    if (!rest.isEmpty())
        rows.append(rest);
    return rows;
}

QString stateText(const BackendInfo &info)
{
    if (info.active)
        return TerminalUi::tr("active");
    // The policy's refusal first: it holds whatever the backend's availability.
    if (!info.unenforced.isEmpty())
        return TerminalUi::tr("not under this policy: does not enforce %1")
            .arg(info.unenforced.join(QStringLiteral(", ")));
    if (!info.availability.available)
        return TerminalUi::tr("unavailable: %1").arg(info.availability.reason);
    if (!info.missingSettings.isEmpty())
        return TerminalUi::tr("needs settings: %1").arg(info.missingSettings.join(QStringLiteral(", ")));
    return TerminalUi::tr("available");
}

// Backspace takes the last character (all its UTF-8 bytes); a printable key adds its byte.
void editTyped(QByteArray &typed, int key)
{
    if (key == KEY_BACKSPACE || key == 127 || key == 8) {
        while (!typed.isEmpty()) {
            const char last = typed.back();
            typed.chop(1);
            if ((last & 0xC0) != 0x80)
                break;
        }
    } else if (key >= 32 && key < 256) {
        typed.append(char(key));
    }
}

void wipe(QByteArray &typed)
{
    typed.fill('\0');
    typed.clear();
}

} // namespace

TerminalUi::TerminalUi(Client &client, int engineGoneStatus, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_engineGoneStatus(engineGoneStatus)
{
    connect(&m_client, &Client::backendsChanged, this, &TerminalUi::reload);
    connect(&m_client, &Client::activeBackendChanged, this, &TerminalUi::reload);
    connect(&m_client, &Client::policyChanged, this, [this](const Policy &policy) {
        m_policy = policy;
        reloadCredentials();
        draw();
    });
    // Another presenter (Studio, sandboxctl credential) stored or removed a value.
    connect(&m_client, &Client::credentialsChanged, this, &TerminalUi::reloadCredentials);
    connect(&m_client, &Client::activationEvent, this, [this](const ActivationEvent &event) {
        m_progress.append(tr("%1  %2  %3")
                              .arg(activationStepName(event.step), -16)
                              .arg(ActivationEvent::stateName(event.state), -10)
                              .arg(event.message));
        draw();
    });
    connect(&m_client, &Client::cleanupWarning, this, [this](const CleanupWarning &warning) {
        m_progress.append(tr("cleanup warning (%1, attempt %2): %3")
                              .arg(warning.ref.toString())
                              .arg(warning.attempt)
                              .arg(warning.message));
        draw();
    });
    connect(&m_client, &Client::hostInteractionRequested, this, [this](const HostInteractionRequest &request) {
        m_questions.append(request);
        draw();
    });
    // Answered elsewhere (Studio, another terminal), timed out or refused: no longer asked.
    connect(&m_client, &Client::hostInteractionSettled, this, [this](const QString &id) {
        if (m_questions.removeIf([&id](const HostInteractionRequest &request) { return request.id == id; }) > 0)
            draw();
    });
    connect(&m_client, &Client::disconnected, this, [this](const QString &reason) {
        m_farewell = tr("sandboxctl tui: the engine went away (%1). Start it again (sandboxd, or Studio), then run "
                        "sandboxctl tui.")
                         .arg(reason);
        quit(m_engineGoneStatus);
    });
}

TerminalUi::~TerminalUi()
{
    if (m_screenOpen)
        endwin();
}

Result<int> TerminalUi::run()
{
    std::setlocale(LC_ALL, "");
    if (!initscr())
        return Error{ QStringLiteral("tui"), tr("cannot start the terminal screen"), {} };
    m_screenOpen = true;
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    curs_set(0);
    m_signals = std::make_unique<SignalWatcher>(QList<int>{ SIGINT, SIGTERM, SIGHUP, SIGWINCH });
    connect(m_signals.get(), &SignalWatcher::signalReceived, this, [this](int signalNumber) {
        if (signalNumber == SIGWINCH) {
            // Re-reads the terminal's size, then everything is drawn for it.
            endwin();
            ::refresh();
            clear();
            draw();
            return;
        }
        quit(128 + signalNumber);
    });
    m_keys = std::make_unique<QSocketNotifier>(STDIN_FILENO, QSocketNotifier::Read);
    connect(m_keys.get(), &QSocketNotifier::activated, this, &TerminalUi::readKeys);
    m_poll = std::make_unique<QTimer>();
    m_poll->setInterval(2000); // processes have no change signal: refreshed while shown
    connect(m_poll.get(), &QTimer::timeout, this, [this] {
        if (m_view == View::Processes)
            reload();
    });
    m_poll->start();
    m_status = tr("Up/Down select, Enter activates, s settings; b backends, p policy, r processes, q quits");
    reload();
    draw();
    m_loop.exec();
    // Questions nobody answered are refused, never left waiting.
    for (const HostInteractionRequest &request : std::as_const(m_questions))
        m_client.answerInteraction(HostInteractionResponse{ request.id, false, QString() });
    m_questions.clear();
    wipe(m_credentialTyped);
    endwin();
    m_screenOpen = false;
    // Said once the screen is gone, where it stays readable.
    if (!m_farewell.isEmpty())
        std::fprintf(stderr, "%s\n", qPrintable(m_farewell));
    return m_exitStatus;
}

void TerminalUi::quit(int status)
{
    m_exitStatus = status;
    m_loop.quit();
}

void TerminalUi::reload()
{
    whenReady(this, m_client.backends(), [this](const Result<QList<BackendInfo>> &result) {
        if (result.ok()) {
            m_backends = result.value();
            m_selected = qBound<qsizetype>(0, m_selected, qMax<qsizetype>(0, m_backends.size() - 1));
        } else {
            m_status = tr("backends: %1").arg(result.error().toString());
        }
        draw();
    });
    whenReady(this, m_client.policy(), [this](const Result<Policy> &result) {
        if (result.ok())
            m_policy = result.value();
        draw();
    });
    whenReady(this, m_client.processes(), [this](const Result<QList<ProcessInfo>> &result) {
        if (result.ok())
            m_processes = result.value();
        draw();
    });
    reloadCredentials();
}

void TerminalUi::reloadCredentials()
{
    whenReady(this, m_client.credentials(), [this](const Result<QList<CredentialInfo>> &result) {
        if (result.ok()) {
            m_credentials = result.value();
            m_credentialsProblem.clear();
        } else {
            // The policy still names them; whether each has a value is shown as unknown.
            m_credentialsProblem = result.error().toString();
            m_credentials.clear();
            for (const PolicyCredential &credential : m_policy ? m_policy->credentials : QList<PolicyCredential>())
                m_credentials.append(CredentialInfo{ credential.name, false, true, credential.hosts, credential.env });
        }
        m_credentialSelected = qBound<qsizetype>(0, m_credentialSelected, qMax<qsizetype>(0, m_credentials.size() - 1));
        draw();
    });
}

void TerminalUi::draw()
{
    if (!m_screenOpen)
        return;
    erase();
    int row = 0;
    line(row++, tr(" Sandbox Studio  [b] backends  [s] settings  [p] policy  [r] processes  [q] quit"), A_REVERSE);
    if (!m_questions.isEmpty()) {
        const HostInteractionRequest &question = m_questions.constFirst();
        line(row++, tr("QUESTION: %1").arg(question.title), A_BOLD);
        for (const QString &text : question.message.split(QLatin1Char('\n')))
            line(row++, QStringLiteral("  ") + text);
        switch (question.kind) {
        case HostInteractionRequest::Kind::Confirm:
            line(row++, tr("  [y] allow   [n] deny"), A_BOLD);
            break;
        case HostInteractionRequest::Kind::Choice:
            for (qsizetype i = 0; i < question.options.size() && i < 9; ++i)
                line(row++, tr("  [%1] %2").arg(i + 1).arg(question.options.at(i).label), A_BOLD);
            line(row++, tr("  [n] deny"), A_BOLD);
            break;
        case HostInteractionRequest::Kind::Text:
        case HostInteractionRequest::Kind::Secret: {
            const QString typed = QString::fromUtf8(m_answerTyped);
            const bool secret = question.kind == HostInteractionRequest::Kind::Secret;
            line(row++, tr("  answer: %1_").arg(secret ? QString(typed.size(), QLatin1Char('*')) : typed), A_BOLD);
            line(row++,
                 question.defaultValue.isEmpty()
                     ? tr("  [Enter] answer   [Esc] deny")
                     : tr("  [Enter] answer (empty: %1)   [Esc] deny").arg(question.defaultValue),
                 A_BOLD);
            break;
        }
        }
        ++row;
    }
    switch (m_view) {
    case View::Backends:
        line(row++, tr("BACKENDS"), A_BOLD);
        for (qsizetype i = 0; i < m_backends.size(); ++i) {
            const BackendInfo &info = m_backends.at(i);
            const QString text = QStringLiteral("%1 %2  %3  %4  %5")
                                     .arg(info.active ? QStringLiteral("*") : QStringLiteral(" "))
                                     .arg(info.ref.toString(), -32)
                                     .arg(info.descriptor.name, -20)
                                     .arg(info.sourceLabel, -10)
                                     .arg(stateText(info));
            line(row++, text, i == m_selected ? A_REVERSE : A_NORMAL);
        }
        // The selected backend's state in full, however narrow the terminal: the list's
        // rows are cut at its width.
        if (m_selected >= 0 && m_selected < m_backends.size()) {
            const BackendInfo &selected = m_backends.at(m_selected);
            ++row;
            line(row++, tr("SELECTED  %1").arg(selected.descriptor.name), A_BOLD);
            for (const QString &text : wrapped(stateText(selected), COLS - 2))
                line(row++, QStringLiteral("  ") + text);
        }
        ++row;
        line(row++, m_activating ? tr("ACTIVATION (running)") : tr("ACTIVATION"), A_BOLD);
        for (const QString &text : std::as_const(m_progress))
            line(row++, QStringLiteral("  ") + text);
        break;
    case View::Policy:
        line(row++, tr("POLICY"), A_BOLD);
        if (m_policy) {
            line(row++, tr("  readable:        %1").arg(m_policy->readable.join(QStringLiteral(", "))));
            line(row++, tr("  writable:        %1").arg(m_policy->writable.join(QStringLiteral(", "))));
            line(row++, tr("  denied:          %1").arg(m_policy->denied.join(QStringLiteral(", "))));
            line(row++, tr("  read-only:       %1").arg(m_policy->readOnly.join(QStringLiteral(", "))));
            line(row++, tr("  processes:       %1").arg(Policy::processConfinementName(m_policy->processes)));
            line(row++, tr("  network:         %1").arg(Policy::networkModeName(m_policy->network)));
            line(row++, tr("  allowed domains: %1").arg(m_policy->allowedDomains.join(QStringLiteral(", "))));
            line(row++, tr("  denied domains:  %1").arg(m_policy->deniedDomains.join(QStringLiteral(", "))));
            if (m_policy->upstreamProxy)
                line(row++,
                     m_policy->upstreamProxy->credential.isEmpty()
                         ? tr("  upstream proxy:  %1").arg(m_policy->upstreamProxy->url)
                         : tr("  upstream proxy:  %1 (credential %2)")
                               .arg(m_policy->upstreamProxy->url, m_policy->upstreamProxy->credential));
            line(row++, tr("  host execution:  %1").arg(Policy::hostExecutionName(m_policy->hostExecution)));
            if (m_policy->sshAgent) {
                line(row++,
                     tr("  ssh agent:       confirm %1, hosts: %2")
                         .arg(PolicySshAgent::confirmName(m_policy->sshAgent->confirm),
                              m_policy->sshAgent->hosts.join(QStringLiteral(", "))));
                for (const QString &key : m_policy->sshAgent->keys)
                    line(row++, tr("  ssh agent key:   %1").arg(key));
            }
        }
        ++row;
        line(row++,
             m_credentialSaving ? tr("CREDENTIALS  (saving)")
                                : tr("CREDENTIALS  Up/Down select, v set a value, x remove it"),
             A_BOLD);
        if (!m_credentialsProblem.isEmpty()) {
            for (const QString &text :
                 wrapped(tr("whether they have values could not be read: %1").arg(m_credentialsProblem), COLS - 4))
                line(row++, QStringLiteral("  ") + text);
        }
        for (qsizetype i = 0; i < m_credentials.size(); ++i) {
            const CredentialInfo &info = m_credentials.at(i);
            QString where = info.inPolicy ? info.hosts.join(QStringLiteral(", ")) : tr("(not in the policy)");
            if (!info.env.isEmpty())
                where = tr("%1  (commands see %2)").arg(where, info.env);
            line(row++,
                 QStringLiteral("  %1  %2  %3")
                     .arg(info.name, -20)
                     .arg(!m_credentialsProblem.isEmpty() ? tr("unknown")
                              : info.configured           ? tr("value stored")
                                                          : tr("no value"),
                          -14)
                     .arg(where),
                 i == m_credentialSelected ? A_REVERSE : A_NORMAL);
        }
        if (m_credentials.isEmpty() && m_credentialsProblem.isEmpty())
            line(row++, tr("  (the policy names none)"));
        if (m_credentialInput != CredentialInput::None) {
            const QString &name = m_credentialTarget;
            if (m_credentialInput == CredentialInput::Value) {
                // Typed text is never drawn, not even as one mark per character.
                line(row++, tr("  new value of %1 (typing is not shown): ").arg(name), A_BOLD);
                line(row++, tr("  [Enter] save   [Esc] cancel"), A_BOLD);
            } else {
                line(row++, tr("  remove the stored value of %1?  [y] remove   [n] keep").arg(name), A_BOLD);
            }
        }
        break;
    case View::Settings:
        if (!m_form) {
            line(row++, tr("SETTINGS  (reading ...)"), A_BOLD);
            break;
        }
        line(row++,
             m_saving ? tr("SETTINGS  %1  (saving)").arg(m_form->ref().toString())
                      : tr("SETTINGS  %1").arg(m_form->ref().toString()),
             A_BOLD);
        for (const SettingsForm::Row &field : m_form->rows())
            line(row++, field.text, field.selected ? A_REVERSE : A_NORMAL);
        ++row;
        line(row++, QStringLiteral("  ") + m_form->hint());
        break;
    case View::Processes:
        line(row++, tr("PROCESSES"), A_BOLD);
        line(row++,
             QStringLiteral("  %1 %2 %3 %4 %5")
                 .arg(tr("ID"), -6)
                 .arg(tr("PID"), -8)
                 .arg(tr("BACKEND"), -32)
                 .arg(tr("STATE"), -10)
                 .arg(tr("COMMAND")));
        for (const ProcessInfo &info : std::as_const(m_processes)) {
            line(row++,
                 QStringLiteral("  %1 %2 %3 %4 %5")
                     .arg(QString::number(info.id), -6)
                     .arg(QString::number(info.pid), -8)
                     .arg(info.owner.toString(), -32)
                     .arg(info.running ? tr("running") : tr("exited %1").arg(info.exit.shellStatus()), -10)
                     .arg(info.argv.join(QLatin1Char(' '))));
            // What the backend noted about how the sandbox started, under the command.
            for (const QString &note : info.notes)
                line(row++, QStringLiteral("         ") + note);
        }
        if (m_processes.isEmpty())
            line(row++, tr("  (none)"));
        break;
    }
    // A long outcome (a refusal with what to do) wraps upwards over a few rows instead of
    // being cut at the width.
    const QStringList status = wrapped(m_status, COLS);
    const int statusRows = qBound(1, int(status.size()), 4);
    for (int i = 0; i < statusRows; ++i)
        line(LINES - statusRows + i, status.value(i), A_REVERSE);
    ::refresh();
}

void TerminalUi::readKeys()
{
    int key;
    while ((key = getch()) != ERR)
        handleKey(key);
    draw();
}

void TerminalUi::handleKey(int key)
{
    if (!m_questions.isEmpty()) {
        const HostInteractionRequest &question = m_questions.constFirst();
        if (question.kind == HostInteractionRequest::Kind::Text
            || question.kind == HostInteractionRequest::Kind::Secret) {
            answerTyped(key);
            return;
        }
        if (key == 'n' || key == 27) {
            answer(false, QString());
        } else if (question.kind == HostInteractionRequest::Kind::Confirm && key == 'y') {
            answer(true, QString());
        } else if (question.kind == HostInteractionRequest::Kind::Choice && key >= '1' && key <= '9'
                   && key - '1' < question.options.size()) {
            answer(true, question.options.at(key - '1').value);
        } else if (key == 'q') {
            quit(0);
        }
        return;
    }
    if (m_view == View::Policy && handlePolicyKey(key))
        return;
    if (m_view == View::Settings && !m_form) {
        if (key == 'b' || key == 27)
            m_view = View::Backends;
        else if (key == 'q')
            quit(0);
        return;
    }
    if (m_view == View::Settings) {
        if (key == 'q' && !m_form->isEditing()) {
            quit(0);
            return;
        }
        switch (m_form->handleKey(key)) {
        case SettingsForm::Action::Save:
            saveSettings();
            break;
        case SettingsForm::Action::Activate: {
            // Activating with the form's settings applies them, to the active backend too;
            // the engine saves them when the activation succeeds.
            const Result<SettingsValues> values = m_form->values();
            if (!values.ok()) {
                m_status = tr("not activated: %1").arg(values.error().toString());
                break;
            }
            const BackendRef ref = m_form->ref();
            const QList<SecretUpdate> secrets = m_form->secretUpdates();
            m_form.reset();
            m_view = View::Backends;
            activate(ref, values.value(), secrets);
            break;
        }
        case SettingsForm::Action::Close:
            m_form.reset();
            m_view = View::Backends;
            m_status = tr("settings left unsaved");
            break;
        case SettingsForm::Action::None:
            break;
        }
        return;
    }
    switch (key) {
    case KEY_UP:
    case 'k':
        m_selected = qMax<qsizetype>(0, m_selected - 1);
        break;
    case KEY_DOWN:
    case 'j':
        m_selected = qMin<qsizetype>(qMax<qsizetype>(0, m_backends.size() - 1), m_selected + 1);
        break;
    case '\n':
    case '\r':
    case KEY_ENTER:
    case 'a':
        if (m_view == View::Backends)
            activateSelected();
        break;
    case 'b':
        m_view = View::Backends;
        break;
    case 's':
        if (m_view == View::Backends)
            openSettings();
        break;
    case 'p':
        m_view = View::Policy;
        break;
    case 'r':
        m_view = View::Processes;
        reload();
        break;
    case 'q':
        quit(0);
        break;
    default:
        break;
    }
}

void TerminalUi::activateSelected()
{
    if (m_selected < m_backends.size())
        activate(m_backends.at(m_selected).ref, std::nullopt, {});
}

void TerminalUi::activate(const BackendRef &ref, const std::optional<SettingsValues> &candidate,
                          const QList<SecretUpdate> &secrets)
{
    if (m_activating)
        return;
    m_activating = true;
    m_progress.clear();
    m_status = tr("activating %1 ...").arg(ref.toString());
    whenReady(this, m_client.activate(ref, candidate, secrets), [this, ref](const Result<ActivationResult> &result) {
        m_activating = false;
        if (!result.ok())
            m_status = tr("activating %1 failed: %2").arg(ref.toString(), result.error().toString());
        else if (result.value().ok)
            m_status = tr("%1 is active").arg(ref.toString());
        else
            m_status = tr("activating %1 failed: %2").arg(ref.toString(), result.value().error.toString());
        reload();
    });
    draw();
}

void TerminalUi::openSettings()
{
    if (m_selected >= m_backends.size())
        return;
    const BackendInfo info = m_backends.at(m_selected);
    // The view changes at once, so keys typed while the settings load never reach the list.
    m_view = View::Settings;
    m_form.reset();
    m_status = tr("reading the settings of %1 ...").arg(info.ref.toString());
    whenReady(this, m_client.settings(info.ref), [this, info](const Result<SettingsView> &view) {
        if (m_view != View::Settings || m_form)
            return; // left while loading
        if (!view.ok()) {
            m_view = View::Backends;
            m_status = tr("settings of %1: %2").arg(info.ref.toString(), view.error().toString());
        } else {
            m_form.emplace(info.ref, info.descriptor.fields, view.value());
            m_status = view.value().insecureStorage ? tr("warning: secrets are stored without the OS keychain")
                                                    : tr("editing the settings of %1").arg(info.ref.toString());
        }
        draw();
    });
}

void TerminalUi::saveSettings()
{
    if (!m_form || m_saving)
        return;
    const Result<SettingsValues> values = m_form->values();
    if (!values.ok()) {
        m_status = tr("not saved: %1").arg(values.error().toString());
        return;
    }
    const BackendRef ref = m_form->ref();
    m_saving = true;
    whenReady(this, m_client.updateSettings(ref, values.value(), m_form->secretUpdates()),
              [this, ref](const Status &status) {
                  m_saving = false;
                  if (!status.ok()) {
                      m_status = tr("not saved: %1").arg(status.error().toString());
                  } else {
                      m_status = tr("settings of %1 saved").arg(ref.toString());
                      m_form.reset();
                      m_view = View::Backends;
                      reload();
                  }
                  draw();
              });
}

// A typed answer: every printable key is text (so 'n' and 'q' too); Esc denies.
void TerminalUi::answerTyped(int key)
{
    if (key == 27) {
        answer(false, QString());
    } else if (key == '\n' || key == '\r' || key == KEY_ENTER) {
        QString value = QString::fromUtf8(m_answerTyped);
        if (value.isEmpty())
            value = m_questions.constFirst().defaultValue;
        if (!value.isEmpty())
            answer(true, value);
    } else {
        editTyped(m_answerTyped, key);
    }
}

bool TerminalUi::handlePolicyKey(int key)
{
    const bool selected = m_credentialSelected < m_credentials.size();
    if (m_credentialInput == CredentialInput::Value) {
        // Every printable key is text here ('q' and 'x' too); Esc cancels.
        if (key == 27) {
            wipe(m_credentialTyped);
            m_credentialInput = CredentialInput::None;
            m_status = tr("nothing changed");
        } else if (key == '\n' || key == '\r' || key == KEY_ENTER) {
            // An empty value changes nothing (removing is its own action).
            if (m_credentialTyped.isEmpty()) {
                m_credentialInput = CredentialInput::None;
                m_status = tr("empty value: nothing changed (x removes a value)");
            } else {
                saveCredential(m_credentialTarget, false);
            }
        } else {
            editTyped(m_credentialTyped, key);
        }
        return true;
    }
    if (m_credentialInput == CredentialInput::ConfirmRemove) {
        m_credentialInput = CredentialInput::None;
        if (key == 'y')
            saveCredential(m_credentialTarget, true);
        else
            m_status = tr("nothing changed");
        return true;
    }
    switch (key) {
    case KEY_UP:
    case 'k':
        m_credentialSelected = qMax<qsizetype>(0, m_credentialSelected - 1);
        return true;
    case KEY_DOWN:
    case 'j':
        m_credentialSelected = qMin<qsizetype>(qMax<qsizetype>(0, m_credentials.size() - 1), m_credentialSelected + 1);
        return true;
    case 'v':
    case '\n':
    case '\r':
    case KEY_ENTER:
        if (selected && !m_credentialSaving) {
            m_credentialTarget = m_credentials.at(m_credentialSelected).name;
            m_credentialInput = CredentialInput::Value;
            m_status = tr("type the value of %1, then Enter").arg(m_credentialTarget);
        }
        return true;
    case 'x':
        if (selected && !m_credentialSaving) {
            const CredentialInfo &info = m_credentials.at(m_credentialSelected);
            m_credentialTarget = info.name;
            if (info.configured || !m_credentialsProblem.isEmpty())
                m_credentialInput = CredentialInput::ConfirmRemove;
            else
                m_status = tr("%1 has no stored value").arg(info.name);
        }
        return true;
    default:
        return false;
    }
}

void TerminalUi::saveCredential(const QString &name, bool remove)
{
    m_credentialSaving = true;
    m_credentialInput = CredentialInput::None;
    const QString value = QString::fromUtf8(m_credentialTyped);
    wipe(m_credentialTyped);
    m_status = remove ? tr("removing the value of %1 ...").arg(name) : tr("storing the value of %1 ...").arg(name);
    const QFuture<Status> done = remove ? m_client.removeCredential(name) : m_client.setCredential(name, value);
    whenReady(this, done, [this, name, remove](const Status &status) {
        m_credentialSaving = false;
        if (!status.ok())
            m_status = remove ? tr("the value of %1 was not removed: %2").arg(name, status.error().toString())
                              : tr("the value of %1 was not stored: %2").arg(name, status.error().toString());
        else
            m_status
                = remove ? tr("the value of %1 was removed").arg(name) : tr("the value of %1 was stored").arg(name);
        reloadCredentials();
        draw();
    });
}

void TerminalUi::answer(bool accepted, const QString &value)
{
    m_answerTyped.fill('\0');
    m_answerTyped.clear();
    const HostInteractionRequest question = m_questions.takeFirst();
    m_client.answerInteraction(HostInteractionResponse{ question.id, accepted, value });
    m_status = accepted ? tr("answered \"%1\": allowed").arg(question.title)
                        : tr("answered \"%1\": denied").arg(question.title);
}

} // namespace sandbox
