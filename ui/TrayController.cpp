#include "TrayController.h"

#include "ActivationText.h"
#include "BackendList.h"
#include "RunningProcesses.h"
#include "StatusIcons.h"
#include "client/Client.h"
#include "client/WhenReady.h"

#include <QAction>
#include <QActionGroup>
#include <QMenu>
#include <QSystemTrayIcon>
#include <QTimer>

namespace sandbox {

TrayController::TrayController(Client *client, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_processes(new RunningProcesses(client, this))
    , m_tray(new QSystemTrayIcon(StatusIcons::application(), this))
    , m_menu(new QMenu)
    , m_group(new QActionGroup(this))
    , m_trayWatch(new QTimer(this))
{
    m_menu->setObjectName(QStringLiteral("trayMenu"));
    m_menu->setAccessibleName(tr("Sandbox Studio"));
    m_menu->setToolTipsVisible(true);
    m_group->setExclusionPolicy(QActionGroup::ExclusionPolicy::Exclusive);

    m_header = m_menu->addSection(tr("Sandbox backend"));
    m_header->setObjectName(QStringLiteral("trayBackendsHeader"));
    m_backendsEnd = m_menu->addSeparator();
    QAction *open = m_menu->addAction(tr("Open Sandbox Studio"), this, &TrayController::openRequested);
    open->setObjectName(QStringLiteral("trayOpenAction"));
    QAction *quit = m_menu->addAction(tr("Quit"), this, &TrayController::quitRequested);
    quit->setObjectName(QStringLiteral("trayQuitAction"));

    m_tray->setContextMenu(m_menu);
    connect(m_tray, &QSystemTrayIcon::activated, this, [this](QSystemTrayIcon::ActivationReason reason) {
        if (reason == QSystemTrayIcon::Trigger || reason == QSystemTrayIcon::DoubleClick)
            emit openRequested();
    });
    connect(m_client, &Client::backendsChanged, this, &TrayController::refresh);
    connect(m_client, &Client::activeBackendChanged, this, &TrayController::refresh);
    connect(m_client, &Client::activationEvent, this, &TrayController::onActivationEvent);
    connect(m_client, &Client::activationFinished, this, [this] {
        m_progress.clear();
        updateToolTip();
        refresh();
    });
    connect(m_processes, &RunningProcesses::changed, this, [this] { rebuild(m_backends); });
    connect(m_client, &Client::cleanupWarning, this, [this](const CleanupWarning &warning) {
        notify(tr("Cleanup of “%1” failed").arg(nameOf(warning.ref)),
               warning.willRetry ? tr("%1 Sandbox Studio will try again.").arg(warning.message) : warning.message,
               true);
    });
    updateToolTip();
    refresh();
}

TrayController::~TrayController()
{
    delete m_menu; // a context menu has no parent (QMenu must not be parented to a QObject)
}

bool TrayController::isTrayAvailable()
{
    return QSystemTrayIcon::isSystemTrayAvailable();
}

void TrayController::show()
{
    // Shown even without a tray: the icon then goes into one as soon as a tray host
    // starts. Qt offers no notification for that, so the availability is looked at again
    // every few seconds.
    m_trayAvailable = isTrayAvailable();
    m_tray->show();
    m_trayWatch->setInterval(2000);
    connect(m_trayWatch, &QTimer::timeout, this, &TrayController::checkTrayAvailability, Qt::UniqueConnection);
    m_trayWatch->start();
}

void TrayController::checkTrayAvailability()
{
    const bool available = isTrayAvailable();
    if (available == m_trayAvailable)
        return;
    m_trayAvailable = available;
    if (available) {
        // Embeds the icon in the new tray (showing again installs it where it is missing).
        m_tray->hide();
        m_tray->show();
    }
    emit trayAvailabilityChanged(available);
}

bool TrayController::isVisible() const
{
    return m_tray->isVisible() && m_trayAvailable;
}

QString TrayController::toolTip() const
{
    return m_tray->toolTip();
}

QAction *TrayController::actionFor(const BackendRef &ref) const
{
    for (QAction *action : m_backendActions) {
        if (action->data().toString() == ref.toString())
            return action;
    }
    return nullptr;
}

QString TrayController::nameOf(const BackendRef &ref) const
{
    for (const BackendInfo &info : m_backends) {
        if (info.ref == ref)
            return info.descriptor.name;
    }
    return ref.kind(); // not listed (yet): still a name, never a raw ref
}

QString TrayController::labelFor(const BackendInfo &info, const QString &state) const
{
    const QString label = tr("%1 (%2)").arg(info.descriptor.name, state);
    int running = 0;
    for (const auto &[ref, count] : m_processes->countsByBackend()) {
        if (ref == info.ref.toString())
            running = count;
    }
    return running > 0 ? tr("%1 — %2 running").arg(label).arg(running) : label;
}

void TrayController::refresh()
{
    whenReady(this, m_client->backends(), [this](const Result<QList<BackendInfo>> &result) {
        if (result)
            rebuild(result.value());
    });
}

void TrayController::rebuild(const QList<BackendInfo> &backends)
{
    m_backends = backends;
    for (QAction *action : std::as_const(m_backendActions)) {
        m_group->removeAction(action);
        m_menu->removeAction(action);
        action->deleteLater();
    }
    m_backendActions.clear();
    for (const BackendInfo &info : backends) {
        QString state;
        StatusIcons::BackendState icon = StatusIcons::BackendState::Available;
        if (info.active) {
            state = tr("active");
            icon = StatusIcons::BackendState::Active;
        } else if (!info.unenforced.isEmpty()) {
            // The policy's refusal holds whatever the backend's availability.
            state = tr("not under this policy");
            icon = StatusIcons::BackendState::Unavailable;
        } else if (!info.availability.available) {
            state = tr("unavailable");
            icon = StatusIcons::BackendState::Unavailable;
        } else if (!info.missingSettings.isEmpty()) {
            state = tr("needs settings");
            icon = StatusIcons::BackendState::Unavailable;
        } else {
            state = tr("available");
        }
        auto *action = new QAction(StatusIcons::backend(icon), labelFor(info, state), m_menu);
        action->setObjectName(QStringLiteral("trayBackend:") + info.ref.toString());
        action->setData(info.ref.toString());
        action->setCheckable(true);
        action->setChecked(info.active);
        const QString reason = !info.unenforced.isEmpty() ? BackendList::policyRefusal(info)
            : !info.availability.available                ? BackendList::unavailableReason(info)
                                                          : BackendList::missingSettings(info);
        // A backend the engine would refuse cannot be chosen; its tooltip says why. One that
        // needs settings can: the activation failure then names them.
        const bool usable = info.active || (info.availability.available && info.unenforced.isEmpty());
        action->setEnabled(usable);
        action->setToolTip(info.active || reason.isEmpty() ? info.descriptor.description : reason);
        connect(action, &QAction::triggered, this, [this, info] { activate(info); });
        m_group->addAction(action);
        m_menu->insertAction(m_backendsEnd, action);
        m_backendActions.append(action);
    }
    updateToolTip();
}

void TrayController::activate(const BackendInfo &info)
{
    if (info.active) {
        // Re-choosing the active backend is not a switch; keep it checked.
        if (QAction *action = actionFor(info.ref))
            action->setChecked(true);
        return;
    }
    m_progress = tr("Switching to “%1”…").arg(info.descriptor.name);
    updateToolTip();
    whenReady(this, m_client->activate(info.ref), [this, info](const Result<ActivationResult> &reply) {
        m_progress.clear();
        if (!reply) {
            notify(tr("Switching failed"),
                   tr("“%1” could not be activated: %2").arg(info.descriptor.name, reply.error().toString()), true);
        } else if (reply.value().ok) {
            notify(tr("Backend switched"),
                   tr("“%1” is now active. Commands started from now on use it.").arg(info.descriptor.name));
        } else {
            const ActivationResult &result = reply.value();
            notify(tr("Switching failed"),
                   ActivationText::failureSummary(result, info.descriptor.name,
                                                  result.active.isValid() ? nameOf(result.active) : QString()),
                   true);
        }
        refresh();
    });
}

void TrayController::onActivationEvent(const ActivationEvent &event)
{
    if (event.state != ActivationEvent::State::Started)
        return;
    // The candidate shows as "activating" until it becomes the active one (the swap).
    QAction *action = actionFor(event.ref);
    if (action && int(event.step) < int(ActivationStep::Swap)) {
        for (const BackendInfo &info : std::as_const(m_backends)) {
            if (info.ref == event.ref)
                action->setText(labelFor(info, tr("activating…")));
        }
    }
    const int number = int(event.step) + 1;
    m_progress = tr("Activating “%1”: step %2 of %3, %4…")
                     .arg(nameOf(event.ref))
                     .arg(number)
                     .arg(allActivationSteps().size())
                     .arg(ActivationText::stepTitle(event.step));
    updateToolTip();
}

void TrayController::updateToolTip()
{
    QString active;
    for (const BackendInfo &info : std::as_const(m_backends)) {
        if (info.active)
            active = info.descriptor.name;
    }
    QString tip = active.isEmpty() ? tr("Sandbox Studio — no backend active")
                                   : tr("Sandbox Studio — active backend: %1").arg(active);
    if (!m_processes->processes().isEmpty()) {
        QHash<QString, QString> names;
        for (const BackendInfo &info : std::as_const(m_backends))
            names.insert(info.ref.toString(), info.descriptor.name);
        tip += QLatin1Char('\n') + RunningProcesses::summary(m_processes->countsByBackend(), names);
    }
    if (!m_progress.isEmpty())
        tip += QLatin1Char('\n') + m_progress;
    m_tray->setToolTip(tip);
}

void TrayController::notify(const QString &title, const QString &message, bool warning)
{
    if (m_tray->isVisible())
        m_tray->showMessage(title, message, warning ? QSystemTrayIcon::Warning : QSystemTrayIcon::Information);
    emit notified(title, message);
}

} // namespace sandbox
