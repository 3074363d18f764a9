// The tray: every backend with its state, switching by choosing one (the same activation
// transaction), progress in the tooltip, the outcome as a notification; what closing the
// window does with and without a system tray. Runs offscreen (no tray) and once under
// Xvfb with a real tray host (SANDBOX_EXPECT_TRAY=1).
#include "ActivationProgress.h"
#include "GuiTest.h"
#include "NoticeBanner.h"
#include "ProcessesView.h"
#include "RunningProcesses.h"
#include "StudioHarness.h"
#include "TrayController.h"
#include "WidgetWalk.h"
#include "client/Client.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSystemTrayIcon>
#include <QToolButton>

using namespace sandbox;
using namespace sandbox::test;

class TestTray : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void trayAvailabilityIsAsExpected();
    void menuListsEveryBackendWithItsState();
    void choosingABackendActivatesIt();
    void failedSwitchIsNotified();
    void cleanupWarningIsNotified();
    void closingTheWindow();
    void quitFromTheTrayClosesForGood();
    void quitFromTheTrayWithRunningCommandsAsksFirst();
    void quitShortcutClosesForGood();
    void screenshotOfTheMenu();

private:
    QAction *action(const QString &kind) { return m_tray->actionFor(TestPack::ref(kind)); }

    QTemporaryDir m_home;
    bool m_expectTray = false;
    std::unique_ptr<StudioHarness> m_harness;
    std::unique_ptr<TrayController> m_tray;
    std::unique_ptr<MainWindow> m_window;
};

void TestTray::initTestCase()
{
    QVERIFY(m_home.isValid());
    GuiTest::isolateUserConfig(m_home);
    m_expectTray = qEnvironmentVariableIntValue("SANDBOX_EXPECT_TRAY") == 1;
    // The tray host may still be starting; a tray that never appears fails below.
    if (m_expectTray)
        QTRY_VERIFY_WITH_TIMEOUT(QSystemTrayIcon::isSystemTrayAvailable(), 15000);
}

void TestTray::init()
{
    m_harness = std::make_unique<StudioHarness>();
    m_tray = std::make_unique<TrayController>(m_harness->client());
    m_window = std::make_unique<MainWindow>(m_harness->client(), m_tray.get());
    m_tray->show();
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QTRY_VERIFY(action(QStringLiteral("plain")));
}

void TestTray::cleanup()
{
    m_window.reset();
    m_tray.reset();
    m_harness.reset();
}

void TestTray::trayAvailabilityIsAsExpected()
{
    // Under the real tray host a tray must be found; offscreen there is none. Either way
    // the test below exercises the matching behaviour, never silently the other one.
    QCOMPARE(TrayController::isTrayAvailable(), m_expectTray);
    QCOMPARE(m_tray->isVisible(), m_expectTray);
}

void TestTray::menuListsEveryBackendWithItsState()
{
    QMenu *menu = m_tray->menu();
    QCOMPARE(menu->objectName(), QStringLiteral("trayMenu"));
    for (const BackendInfo &info : m_harness->engine().backends()) {
        QAction *a = m_tray->actionFor(info.ref);
        QVERIFY2(a, qPrintable(info.ref.toString()));
        QVERIFY(menu->actions().contains(a));
        QVERIFY(a->text().startsWith(info.descriptor.name));
        // "runtime" has no socket set here: no runtime is reachable for it.
        const bool usable = info.ref != TestPack::ref(QStringLiteral("remote"))
            && info.ref != TestPack::ref(QStringLiteral("runtime"));
        // One with required settings not set can be chosen (the activation names them) but
        // says what it needs.
        const bool needsSettings = usable && !info.missingSettings.isEmpty();
        QVERIFY2(a->text().contains(!usable             ? QStringLiteral("(unavailable)")
                                        : needsSettings ? QStringLiteral("(needs settings)")
                                                        : QStringLiteral("(available)")),
                 qPrintable(a->text()));
        if (needsSettings) {
            QVERIFY2(a->toolTip().startsWith(QStringLiteral("Cannot be activated until its required settings are set")),
                     qPrintable(a->toolTip()));
        }
        // An unavailable backend cannot be chosen; its tooltip says why, without a raw ref.
        QCOMPARE(a->isEnabled(), usable);
        if (!usable) {
            const QString why = info.ref == TestPack::ref(QStringLiteral("remote"))
                ? QStringLiteral("the runtime service is not running")
                : QStringLiteral("No runtime at (none)");
            QVERIFY2(a->toolTip().startsWith(why), qPrintable(a->toolTip()));
        }
        QVERIFY(!a->isChecked());
    }
    QVERIFY(menu->findChild<QAction *>(QStringLiteral("trayOpenAction")));
    QVERIFY(menu->findChild<QAction *>(QStringLiteral("trayQuitAction")));

    QVERIFY(m_harness->activate(QStringLiteral("plain")).ok);
    QTRY_VERIFY(action(QStringLiteral("plain")) && action(QStringLiteral("plain"))->isChecked());
    QTRY_VERIFY(action(QStringLiteral("plain"))->text().contains(QStringLiteral("(active)")));
    QVERIFY(!action(QStringLiteral("slow"))->isChecked());
    QTRY_VERIFY(m_tray->toolTip().contains(QStringLiteral("active backend: Plain")));
}

void TestTray::choosingABackendActivatesIt()
{
    QVERIFY(m_harness->activate(QStringLiteral("plain")).ok);
    QTRY_VERIFY(action(QStringLiteral("plain"))->isChecked());
    QSignalSpy notified(m_tray.get(), &TrayController::notified);

    action(QStringLiteral("slow"))->trigger();
    // Progress shows in the tooltip and the menu while the slow launcher prepares ...
    QTRY_VERIFY(m_tray->toolTip().contains(QStringLiteral("Configure and prepare")));
    QVERIFY(action(QStringLiteral("slow"))->text().contains(QStringLiteral("(activating…)")));
    // ... and the window shows the same activation's steps.
    QTRY_COMPARE(m_window->findChild<ActivationProgress *>(QStringLiteral("activationProgress"))
                     ->stepState(ActivationStep::Prepare),
                 StatusIcons::StepState::Running);
    QTRY_VERIFY_WITH_TIMEOUT(notified.count() >= 1, 30000);
    QCOMPARE(notified.first().at(0).toString(), QStringLiteral("Backend switched"));
    QVERIFY(notified.first().at(1).toString().contains(QStringLiteral("Slow start")));
    QCOMPARE(m_harness->engine().activeRef(), TestPack::ref(QStringLiteral("slow")));
    QTRY_VERIFY(action(QStringLiteral("slow")) && action(QStringLiteral("slow"))->isChecked());
    QVERIFY(!action(QStringLiteral("plain"))->isChecked());
    QTRY_VERIFY(!m_tray->toolTip().contains(QStringLiteral("Configure and prepare")));
}

void TestTray::failedSwitchIsNotified()
{
    QVERIFY(m_harness->activate(QStringLiteral("plain")).ok);
    QTRY_VERIFY(action(QStringLiteral("plain"))->isChecked());
    QSignalSpy notified(m_tray.get(), &TrayController::notified);
    action(QStringLiteral("failing"))->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(notified.count() >= 1, 20000);
    QCOMPARE(notified.first().at(0).toString(), QStringLiteral("Switching failed"));
    const QString message = notified.first().at(1).toString();
    QVERIFY2(message.contains(QStringLiteral("“Plain” is still the active backend")), qPrintable(message));
    QCOMPARE(m_harness->engine().activeRef(), TestPack::ref(QStringLiteral("plain")));
    // The menu goes back to showing the backend that is really active.
    QTRY_VERIFY(action(QStringLiteral("plain")) && action(QStringLiteral("plain"))->isChecked());
    QVERIFY(!action(QStringLiteral("failing"))->isChecked());
}

void TestTray::cleanupWarningIsNotified()
{
    QVERIFY(m_harness->activate(QStringLiteral("leaky")).ok);
    QTRY_VERIFY(action(QStringLiteral("leaky"))->isChecked());
    QSignalSpy notified(m_tray.get(), &TrayController::notified);
    action(QStringLiteral("plain"))->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(notified.count() >= 2, 20000);
    QStringList titles;
    for (const auto &args : notified)
        titles << args.at(0).toString();
    QVERIFY2(titles.contains(QStringLiteral("Cleanup of “Leaky” failed")), qPrintable(titles.join(QLatin1Char('|'))));
    QVERIFY(titles.contains(QStringLiteral("Backend switched")));
    QTRY_VERIFY(m_window->cleanupBanner()->isVisible());
}

void TestTray::closingTheWindow()
{
    QSignalSpy quit(m_window.get(), &MainWindow::quitRequested);
    auto *keepInTray = m_window->findChild<QAction *>(QStringLiteral("keepInTrayAction"));
    QVERIFY(keepInTray);
    if (m_expectTray) {
        QVERIFY(keepInTray->isEnabled());
        QVERIFY(!m_window->trayBanner()->isVisible());
        m_window->close();
        QVERIFY(!m_window->isVisible());
        QCOMPARE(quit.count(), 0);
        // "Open Sandbox Studio" brings it back.
        m_tray->menu()->findChild<QAction *>(QStringLiteral("trayOpenAction"))->trigger();
        QTRY_VERIFY(m_window->isVisible());
        // With the option off, closing quits.
        keepInTray->setChecked(false);
        m_window->close();
        QCOMPARE(quit.count(), 1);
    } else {
        // No tray: said once, plainly, and the tray-only option is greyed rather than hidden.
        QVERIFY(m_window->trayBanner()->isVisible());
        QVERIFY(m_window->trayBanner()->text().contains(QStringLiteral("no system tray")));
        QVERIFY(!keepInTray->isEnabled());
        QVERIFY(keepInTray->isVisible());
        QVERIFY(keepInTray->toolTip().contains(QStringLiteral("no system tray")));
        m_window->close();
        QCOMPARE(quit.count(), 1);
        // Dismissed once, it stays dismissed.
        QTest::mouseClick(m_window->findChild<QToolButton *>(QStringLiteral("noTrayBannerDismiss")), Qt::LeftButton);
        MainWindow second(m_harness->client(), m_tray.get());
        QVERIFY(!second.trayBanner()->isVisibleTo(&second));
    }
}

void TestTray::quitFromTheTrayClosesForGood()
{
    QSignalSpy quit(m_window.get(), &MainWindow::quitRequested);
    m_tray->menu()->findChild<QAction *>(QStringLiteral("trayQuitAction"))->trigger();
    QCOMPARE(quit.count(), 1);
    QVERIFY(!m_window->isVisible());
    // The application closes every window when it quits; the window must not veto that by
    // going to the tray, whether or not a tray exists.
    QVERIFY(m_window->close());
    QCOMPARE(quit.count(), 1);
}

void TestTray::quitFromTheTrayWithRunningCommandsAsksFirst()
{
    QVERIFY(m_harness->activate(QStringLiteral("plain")).ok);
    SpawnRequest request;
    request.argv = QStringList{ QStringLiteral("sleep"), QStringLiteral("305") };
    request.cwd = QDir::tempPath();
    std::unique_ptr<RemoteProcess> command = m_harness->client()->spawn(request);
    QSignalSpy started(command.get(), &RemoteProcess::started);
    QSignalSpy finished(command.get(), &RemoteProcess::finished);
    QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 20000);
    QTRY_COMPARE(m_window->processesView()->processes()->processes().size(), 1);

    QSignalSpy quit(m_window.get(), &MainWindow::quitRequested);
    // Studio lives in the tray: its window is closed (hidden) when Quit is chosen there.
    m_window->hide();
    QAction *trayQuit = m_tray->menu()->findChild<QAction *>(QStringLiteral("trayQuitAction"));
    trayQuit->trigger();
    // Nothing ends before the user answers: the question shows on its own and names what
    // would be stopped.
    QTRY_VERIFY(m_window->findChild<QMessageBox *>(QStringLiteral("quitConfirmation"))
                && m_window->findChild<QMessageBox *>(QStringLiteral("quitConfirmation"))->isVisible());
    auto *box = m_window->findChild<QMessageBox *>(QStringLiteral("quitConfirmation"));
    QCOMPARE(box->text(), QStringLiteral("1 command running: Plain 1"));
    QVERIFY2(box->informativeText().contains(QStringLiteral("stops these commands")),
             qPrintable(box->informativeText()));
    QCOMPARE(quit.count(), 0);
    m_window->show();
    const QString path = WidgetWalk::saveScreenshot(box, QStringLiteral("quit-confirmation"));
    QVERIFY(QFileInfo(path).size() > 0);
    // Asking again while the question is open asks once.
    trayQuit->trigger();
    QCOMPARE(m_window->findChildren<QMessageBox *>(QStringLiteral("quitConfirmation")).size(), 1);

    // Keep Running (also the default): nothing quits, the command goes on.
    auto *keep = box->findChild<QPushButton *>(QStringLiteral("quitConfirmKeep"));
    QVERIFY(keep->isDefault());
    QTest::mouseClick(keep, Qt::LeftButton);
    QTRY_VERIFY(!m_window->findChild<QMessageBox *>(QStringLiteral("quitConfirmation")));
    QCOMPARE(quit.count(), 0);
    QVERIFY(m_window->isVisible());
    QCOMPARE(finished.count(), 0);
    QCOMPARE(m_window->processesView()->processes()->processes().size(), 1);

    // Asked again and confirmed: Studio quits for good.
    trayQuit->trigger();
    QTRY_VERIFY(m_window->findChild<QMessageBox *>(QStringLiteral("quitConfirmation")));
    QTest::mouseClick(m_window->findChild<QPushButton *>(QStringLiteral("quitConfirmStop")), Qt::LeftButton);
    QTRY_COMPARE(quit.count(), 1);
    QVERIFY(!m_window->isVisible());
    command->kill();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
}

void TestTray::quitShortcutClosesForGood()
{
    QSignalSpy quit(m_window.get(), &MainWindow::quitRequested);
    // Keyboard focus as a user's click gives it (a bare X server has no window manager).
    QApplication::setActiveWindow(m_window.get());
    QTRY_COMPARE(QApplication::activeWindow(), m_window.get());
    QTest::keyClick(m_window.get(), Qt::Key_Q, Qt::ControlModifier);
    QTRY_COMPARE(quit.count(), 1);
    QVERIFY(!m_window->isVisible());
    QVERIFY(m_window->close());
}

void TestTray::screenshotOfTheMenu()
{
    QVERIFY(m_harness->activate(QStringLiteral("plain")).ok);
    QTRY_VERIFY(action(QStringLiteral("plain"))->isChecked());
    QMenu *menu = m_tray->menu();
    menu->popup(m_window->mapToGlobal(QPoint(40, 40)));
    QTRY_VERIFY(menu->isVisible());
    const QString name = m_expectTray ? QStringLiteral("tray-menu-realtray") : QStringLiteral("tray-menu");
    const QString path = WidgetWalk::saveScreenshot(menu, name);
    menu->hide();
    QVERIFY(QFileInfo(path).size() > 0);
}

QTEST_MAIN(TestTray)
#include "tst_tray.moc"
