#pragma once

#include "protocol/ActivationEvent.h"

#include <QHash>
#include <QMainWindow>

class QAction;
class QLabel;

namespace sandbox {

class Client;
class NoticeBanner;
class PacksPage;
class SandboxPage;
class TrayController;

// Sandbox Studio's window: the Sandbox page, banners for warnings, the app's own
// settings (start at login, keep running in the tray).
class MainWindow final : public QMainWindow
{
    Q_OBJECT

public:
    MainWindow(Client *client, TrayController *tray, QWidget *parent = nullptr);

    SandboxPage *page() const { return m_page; }
    NoticeBanner *cleanupBanner() const { return m_cleanupBanner; }
    NoticeBanner *trayBanner() const { return m_trayBanner; }
    NoticeBanner *warningBanner() const { return m_warningBanner; }
    bool closesToTray() const;
    // The Packs window (Studio ▸ Packs…), made on first use.
    PacksPage *showPacks();

signals:
    void quitRequested();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createMenus();
    void updateActiveBackend();
    void showEngineWarnings();
    void toggleAutostart(bool enabled);
    void showAbout();

    Client *m_client = nullptr;
    TrayController *m_tray = nullptr;
    SandboxPage *m_page = nullptr;
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
};

} // namespace sandbox
