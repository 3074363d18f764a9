#pragma once

#include "protocol/ActivationEvent.h"

#include <QHash>
#include <QMainWindow>

class QAction;
class QLabel;
class QMessageBox;
class QTabWidget;

namespace sandbox {

class Client;
class NoticeBanner;
class PacksPage;
class ProcessesView;
class RefusalsView;
class SandboxPage;
class TrayController;

// Sandbox Studio's window: the Sandbox and Processes pages, banners for warnings, the
// app's own settings (start at login, keep running in the tray).
class MainWindow final : public QMainWindow
{
    Q_OBJECT

public:
    MainWindow(Client *client, TrayController *tray, QWidget *parent = nullptr);

    SandboxPage *page() const { return m_page; }
    ProcessesView *processesView() const { return m_processes; }
    RefusalsView *refusalsView() const { return m_refusals; }
    QTabWidget *tabs() const { return m_tabs; }
    NoticeBanner *cleanupBanner() const { return m_cleanupBanner; }
    NoticeBanner *trayBanner() const { return m_trayBanner; }
    NoticeBanner *warningBanner() const { return m_warningBanner; }
    bool closesToTray() const;
    // The Packs window (Studio ▸ Packs…), made on first use.
    PacksPage *showPacks();
    // Quit, from the menu (Ctrl+Q), the tray or a termination signal: the window closes
    // for good (never to the tray) and quitRequested() is emitted once.
    void quit();
    // Quit as a user asks for it (the menu, Ctrl+Q, the tray): while commands run in an
    // engine that ends with this application, asks first ("quitConfirmation"), then quit().
    void requestQuit();
    // Whether quitting ends the engine and so its running commands (true unless this
    // application only connects to an engine another program hosts).
    void setQuitEndsCommands(bool ends) { m_quitEndsCommands = ends; }
    bool isQuitting() const { return m_quitting; }

signals:
    void quitRequested();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createMenus();
    void updateActiveBackend();
    void showEngineWarnings();
    void toggleAutostart(bool enabled);
    void updateProcessCount();
    void updateTrayState(bool trayAvailable);

    Client *m_client = nullptr;
    TrayController *m_tray = nullptr;
    SandboxPage *m_page = nullptr;
    ProcessesView *m_processes = nullptr;
    RefusalsView *m_refusals = nullptr;
    QTabWidget *m_tabs = nullptr;
    QLabel *m_processStatus = nullptr;
    NoticeBanner *m_trayBanner = nullptr;
    NoticeBanner *m_cleanupBanner = nullptr;
    NoticeBanner *m_warningBanner = nullptr;
    QLabel *m_activeStatus = nullptr;
    QAction *m_autostart = nullptr;
    QAction *m_keepInTray = nullptr;
    QWidget *m_packsWindow = nullptr;
    PacksPage *m_packsPage = nullptr;
    QHash<QString, QString> m_backendNames; // canonical ref -> display name
    bool m_toldAboutTray = false;
    bool m_quitting = false;
    bool m_quitEmitted = false;
    bool m_quitEndsCommands = true;
    QMessageBox *m_quitConfirmation = nullptr;
};

} // namespace sandbox
