#pragma once

#include "protocol/ActivationEvent.h"
#include "protocol/BackendInfo.h"

#include <QObject>

class QAction;
class QActionGroup;
class QMenu;
class QSystemTrayIcon;
class QTimer;

namespace sandbox {

class Client;
class RunningProcesses;

// The system tray: every backend with its state (active, available, unavailable), the
// active one checked; choosing one runs the activation transaction with progress in the
// tooltip and the outcome as a notification. Also "Open Sandbox Studio" and "Quit".
// Each backend shows how many commands it runs. Backend actions are named
// "trayBackend:<canonical ref>".
class TrayController final : public QObject
{
    Q_OBJECT

public:
    explicit TrayController(Client *client, QObject *parent = nullptr);
    ~TrayController() override;

    // Whether the desktop offers a tray (QSystemTrayIcon::isSystemTrayAvailable()).
    static bool isTrayAvailable();
    // Shows the icon when a tray exists, and once one appears (a tray host often starts
    // after the applications of a login); the menu is built either way.
    void show();
    // Whether the icon is shown in a tray that exists now.
    bool isVisible() const;
    QMenu *menu() const { return m_menu; }
    QString toolTip() const;
    QAction *actionFor(const BackendRef &ref) const;
    RunningProcesses *processes() const { return m_processes; }
    void notify(const QString &title, const QString &message, bool warning = false);
    void refresh();

signals:
    void openRequested();
    void quitRequested();
    // Every notification shown (also when no tray can show it), for the window and tests.
    void notified(const QString &title, const QString &message);
    // A tray appeared or went away after show().
    void trayAvailabilityChanged(bool available);

private:
    void rebuild(const QList<BackendInfo> &backends);
    void activate(const BackendInfo &info);
    void onActivationEvent(const ActivationEvent &event);
    void updateToolTip();
    void checkTrayAvailability();
    QString nameOf(const BackendRef &ref) const;
    QString labelFor(const BackendInfo &info, const QString &state) const;

    Client *m_client = nullptr;
    RunningProcesses *m_processes = nullptr;
    QSystemTrayIcon *m_tray = nullptr;
    QMenu *m_menu = nullptr;
    QActionGroup *m_group = nullptr;
    QAction *m_header = nullptr;
    QAction *m_backendsEnd = nullptr;
    QList<QAction *> m_backendActions;
    QList<BackendInfo> m_backends;
    QString m_progress;
    QTimer *m_trayWatch = nullptr;
    bool m_trayAvailable = false;
};

} // namespace sandbox
