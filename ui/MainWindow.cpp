#include "MainWindow.h"

#include "Autostart.h"
#include "HelpMenu.h"
#include "HostInteractionPresenter.h"
#include "NoticeBanner.h"
#include "PacksPage.h"
#include "ProcessesView.h"
#include "RefusalsView.h"
#include "RunningProcesses.h"
#include "SandboxPage.h"
#include "StatusIcons.h"
#include "TrayController.h"
#include "client/Client.h"
#include "client/WhenReady.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QJsonArray>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include <utility>

namespace sandbox {

namespace {

const QString kKeepInTray = QStringLiteral("ui/keepRunningInTray");
const QString kNoTrayNoticeDismissed = QStringLiteral("ui/noTrayNoticeDismissed");

} // namespace

MainWindow::MainWindow(Client *client, TrayController *tray, QWidget *parent)
    : QMainWindow(parent)
    , m_client(client)
    , m_tray(tray)
    , m_page(new SandboxPage(client))
    , m_processes(new ProcessesView(client))
    , m_refusals(new RefusalsView(client))
    , m_tabs(new QTabWidget)
    , m_processStatus(new QLabel)
    , m_trayBanner(new NoticeBanner(QStringLiteral("noTrayBanner"), NoticeBanner::Kind::Information))
    , m_cleanupBanner(new NoticeBanner(QStringLiteral("cleanupBanner"), NoticeBanner::Kind::Warning))
    , m_warningBanner(new NoticeBanner(QStringLiteral("warningBanner"), NoticeBanner::Kind::Warning))
    , m_activeStatus(new QLabel)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Sandbox Studio"));
    setWindowIcon(StatusIcons::application());
    setAccessibleName(tr("Sandbox Studio"));

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_trayBanner);
    layout->addWidget(m_warningBanner);
    layout->addWidget(m_cleanupBanner);
    m_tabs->setObjectName(QStringLiteral("mainTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_page, tr("Sand&box"));
    m_tabs->addTab(m_processes, tr("&Processes"));
    m_tabs->addTab(m_refusals, tr("&Refusals"));
    connect(m_refusals, &RefusalsView::countChanged, this, [this](int count) {
        m_tabs->setTabText(m_tabs->indexOf(m_refusals), count > 0 ? tr("&Refusals (%1)").arg(count) : tr("&Refusals"));
    });
    layout->addWidget(m_tabs, 1);
    setCentralWidget(central);

    m_activeStatus->setObjectName(QStringLiteral("activeBackendStatus"));
    // Status texts give way on a narrow window (the full text is in the tooltip).
    m_activeStatus->setMinimumWidth(1);
    m_processStatus->setMinimumWidth(1);
    statusBar()->addWidget(m_activeStatus, 1);
    m_processStatus->setObjectName(QStringLiteral("processCountStatus"));
    statusBar()->addPermanentWidget(m_processStatus);
    connect(m_processes->processes(), &RunningProcesses::changed, this, &MainWindow::updateProcessCount);

    createMenus();
    // Host Interaction requests become native dialogs over this window (it owns the presenter).
    new HostInteractionPresenter(client, this);

    updateTrayState(m_tray && TrayController::isTrayAvailable());
    connect(m_trayBanner, &NoticeBanner::dismissed, this, [] { QSettings().setValue(kNoTrayNoticeDismissed, true); });

    connect(m_client, &Client::cleanupWarning, this, [this](const CleanupWarning &warning) {
        const QString name = m_backendNames.value(warning.ref.toString(), warning.ref.kind());
        m_cleanupBanner->showMessage(
            warning.willRetry
                ? tr("The new backend is active, but cleaning up after “%1” failed: %2 Sandbox Studio will try "
                     "again in the background (attempt %3).")
                      .arg(name, warning.message)
                      .arg(warning.attempt)
                : tr("The new backend is active, but cleaning up after “%1” failed: %2").arg(name, warning.message));
    });
    connect(m_client, &Client::disconnected, this, [this](const QString &reason) {
        m_warningBanner->showMessage(tr("The connection to the sandbox engine was lost: %1").arg(reason));
        m_page->setEnabled(false);
    });
    connect(m_client, &Client::activeBackendChanged, this, &MainWindow::updateActiveBackend);
    connect(m_client, &Client::backendsChanged, this, &MainWindow::updateActiveBackend);
    if (m_tray) {
        connect(m_tray, &TrayController::openRequested, this, [this] {
            showNormal();
            raise();
            activateWindow();
        });
        connect(m_tray, &TrayController::quitRequested, this, &MainWindow::requestQuit);
        connect(m_tray, &TrayController::trayAvailabilityChanged, this, &MainWindow::updateTrayState);
    }

    resize(1280, 860);
    updateActiveBackend();
    showEngineWarnings();
}

PacksPage *MainWindow::showPacks()
{
    if (!m_packsWindow) {
        m_packsWindow = new QWidget(this, Qt::Window);
        m_packsWindow->setObjectName(QStringLiteral("packsWindow"));
        m_packsWindow->setWindowTitle(tr("Packs"));
        m_packsPage = new PacksPage(m_client);
        auto *layout = new QVBoxLayout(m_packsWindow);
        layout->addWidget(m_packsPage);
        m_packsWindow->resize(720, 360);
        // Over this window, inside its screen: never against the screen's edge, wherever
        // the window system would have put a new window.
        const QRect available = screen()->availableGeometry();
        // Its frame as large as this window's (move() places the frame).
        const QRect frame = frameGeometry();
        const QRect inner = geometry();
        QRect placed(QPoint(),
                     m_packsWindow->size() + QSize(frame.width() - inner.width(), frame.height() - inner.height()));
        placed.moveCenter(isVisible() ? frameGeometry().center() : available.center());
        placed.moveLeft(qBound(available.left(), placed.left(), available.right() + 1 - placed.width()));
        placed.moveTop(qBound(available.top(), placed.top(), available.bottom() + 1 - placed.height()));
        m_packsWindow->move(placed.topLeft());
    }
    m_packsWindow->show();
    m_packsWindow->raise();
    return m_packsPage;
}

void MainWindow::createMenus()
{
    QMenu *app = menuBar()->addMenu(tr("&Studio"));
    app->setObjectName(QStringLiteral("studioMenu"));
    app->setToolTipsVisible(true);

    m_autostart = app->addAction(tr("Start at &Login"));
    m_autostart->setObjectName(QStringLiteral("autostartAction"));
    m_autostart->setCheckable(true);
    Autostart autostart(QCoreApplication::applicationFilePath());
    m_autostart->setChecked(autostart.isEnabled());
    m_autostart->setEnabled(Autostart::isSupported());
    m_autostart->setToolTip(Autostart::isSupported() ? tr("Start Sandbox Studio in the background when you log in")
                                                     : tr("Starting at login is not supported on this system"));
    connect(m_autostart, &QAction::toggled, this, &MainWindow::toggleAutostart);

    m_keepInTray = app->addAction(tr("Keep Running in the &Tray When Closed"));
    m_keepInTray->setObjectName(QStringLiteral("keepInTrayAction"));
    m_keepInTray->setCheckable(true);
    m_keepInTray->setChecked(QSettings().value(kKeepInTray, true).toBool());
    connect(m_keepInTray, &QAction::toggled, this, [](bool keep) { QSettings().setValue(kKeepInTray, keep); });

    app->addSeparator();
    QAction *packs = app->addAction(tr("&Packs…"), this, [this] { showPacks(); });
    packs->setObjectName(QStringLiteral("packsAction"));
    app->addSeparator();
    QAction *quit = app->addAction(tr("&Quit"), this, &MainWindow::requestQuit);
    quit->setObjectName(QStringLiteral("quitAction"));
    // Ctrl+Q everywhere: some platform themes bind no key to QKeySequence::Quit.
    QList<QKeySequence> quitKeys = QKeySequence::keyBindings(QKeySequence::Quit);
    if (!quitKeys.contains(QKeySequence(Qt::CTRL | Qt::Key_Q)))
        quitKeys.append(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit->setShortcuts(quitKeys);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
    new HelpMenu(help, this);
}

void MainWindow::updateTrayState(bool trayAvailable)
{
    // Greyed, not hidden: the user should see what this desktop cannot offer.
    m_keepInTray->setEnabled(trayAvailable);
    m_keepInTray->setToolTip(trayAvailable ? tr("Closing the window leaves Sandbox Studio running in the tray")
                                           : tr("Not available: this desktop has no system tray"));
    if (trayAvailable)
        m_trayBanner->hide();
    else if (!QSettings().value(kNoTrayNoticeDismissed, false).toBool())
        m_trayBanner->showMessage(tr("This desktop has no system tray, so Sandbox Studio cannot stay in the tray: "
                                     "closing this window quits it, and backends are switched here in the window."));
}

bool MainWindow::closesToTray() const
{
    return m_tray && m_tray->isVisible() && m_keepInTray->isChecked();
}

void MainWindow::quit()
{
    if (m_quitting)
        return;
    m_quitting = true;
    // Closing while quitting is accepted (see closeEvent), so the application's own close
    // of every window on quit cannot veto it by hiding this one in the tray.
    close();
}

void MainWindow::requestQuit()
{
    if (m_quitting)
        return;
    if (m_quitConfirmation) {
        m_quitConfirmation->raise();
        m_quitConfirmation->activateWindow();
        return;
    }
    const auto counts = m_processes->processes()->countsByBackend();
    if (!m_quitEndsCommands || counts.isEmpty()) {
        quit();
        return;
    }
    // Quitting ends the engine this application hosts, and with it every command it runs
    // (an agent's build, a test run): the user decides, the safe answer is the default.
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Quit Sandbox Studio?"),
                                RunningProcesses::summary(counts, m_backendNames), QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("quitConfirmation"));
    box->setInformativeText(tr("Quitting Sandbox Studio stops these commands and everything they started. "
                               "The programs that started them see them end."));
    box->setWindowModality(Qt::ApplicationModal);
    QPushButton *stop = box->addButton(tr("Stop Commands and &Quit"), QMessageBox::DestructiveRole);
    stop->setObjectName(QStringLiteral("quitConfirmStop"));
    QPushButton *keep = box->addButton(tr("&Keep Running"), QMessageBox::RejectRole);
    keep->setObjectName(QStringLiteral("quitConfirmKeep"));
    box->setDefaultButton(keep);
    box->setEscapeButton(keep);
    box->setAttribute(Qt::WA_DeleteOnClose);
    m_quitConfirmation = box;
    connect(box, &QMessageBox::finished, this, [this, box, stop] {
        m_quitConfirmation = nullptr;
        if (box->clickedButton() == stop)
            quit();
    });
    box->open();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!m_quitting && closesToTray()) {
        hide();
        event->ignore();
        if (!m_toldAboutTray) {
            m_toldAboutTray = true;
            m_tray->notify(tr("Sandbox Studio is still running"),
                           tr("The engine keeps serving from the tray. Choose Quit in the tray menu to stop it."));
        }
        return;
    }
    event->accept();
    if (!std::exchange(m_quitEmitted, true))
        emit quitRequested();
}

void MainWindow::toggleAutostart(bool enabled)
{
    Autostart autostart(QCoreApplication::applicationFilePath());
    const Status status = autostart.setEnabled(enabled);
    if (!status) {
        const QSignalBlocker blocker(m_autostart);
        m_autostart->setChecked(autostart.isEnabled());
        m_warningBanner->showMessage(tr("Could not change starting at login: %1").arg(status.error().toString()));
        return;
    }
    statusBar()->showMessage(enabled ? tr("Sandbox Studio will start when you log in.")
                                     : tr("Sandbox Studio will no longer start when you log in."),
                             5000);
}

void MainWindow::updateActiveBackend()
{
    whenReady(this, m_client->backends(), [this](const Result<QList<BackendInfo>> &result) {
        if (!result)
            return;
        QString active;
        m_backendNames.clear();
        for (const BackendInfo &info : result.value()) {
            m_backendNames.insert(info.ref.toString(), info.descriptor.name);
            if (info.active)
                active = info.descriptor.name;
        }
        updateProcessCount();
        m_activeStatus->setText(active.isEmpty() ? tr("No backend is active: sandboxed commands cannot start.")
                                                 : tr("Active backend: %1").arg(active));
        m_activeStatus->setToolTip(m_activeStatus->text());
    });
}

void MainWindow::updateProcessCount()
{
    const auto counts = m_processes->processes()->countsByBackend();
    int total = 0;
    for (const auto &entry : counts)
        total += entry.second;
    m_processStatus->setText(RunningProcesses::summary(counts, m_backendNames));
    m_processStatus->setToolTip(m_processStatus->text());
    m_tabs->setTabText(m_tabs->indexOf(m_processes), total > 0 ? tr("&Processes (%1)").arg(total) : tr("&Processes"));
}

void MainWindow::showEngineWarnings()
{
    whenReady(this, m_client->status(), [this](const Result<QJsonObject> &result) {
        if (!result)
            return;
        QStringList warnings;
        for (const QJsonValue &warning : result.value().value(QStringLiteral("warnings")).toArray())
            warnings << warning.toString();
        warnings.removeAll(QString());
        if (!warnings.isEmpty())
            m_warningBanner->showMessage(warnings.join(QLatin1Char('\n')));
    });
}

} // namespace sandbox
