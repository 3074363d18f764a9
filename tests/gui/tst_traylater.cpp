// A tray host that starts after Studio (common at login: the session starts applications
// and its panel in any order) is used as soon as it appears: the icon goes into it, the
// "no system tray" notice goes away, and closing the window keeps Studio in the tray.
// Runs under Xvfb with no tray host at first (run-with-tray-host.sh --tray-later); the
// test starts the tray host itself.
#include "GuiTest.h"
#include "NoticeBanner.h"
#include "StudioHarness.h"
#include "TrayController.h"
#include "WidgetWalk.h"

#include <QAction>
#include <QProcess>
#include <QSignalSpy>
#include <QSystemTrayIcon>

using namespace sandbox;
using namespace sandbox::test;

class TestTrayLater final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void trayHostStartedLaterIsUsed();

private:
    QTemporaryDir m_home;
    QProcess m_trayHost;
};

void TestTrayLater::initTestCase()
{
    QVERIFY(m_home.isValid());
    GuiTest::isolateUserConfig(m_home);
    QVERIFY2(!qEnvironmentVariableIsEmpty("SANDBOX_TRAY_HOST_COMMAND"),
             "run under tests/gui/run-with-tray-host.sh --tray-later");
}

void TestTrayLater::cleanupTestCase()
{
    if (m_trayHost.state() != QProcess::NotRunning) {
        m_trayHost.terminate();
        m_trayHost.waitForFinished(5000);
    }
}

void TestTrayLater::trayHostStartedLaterIsUsed()
{
    QVERIFY(!QSystemTrayIcon::isSystemTrayAvailable());
    StudioHarness harness;
    TrayController tray(harness.client());
    MainWindow window(harness.client(), &tray);
    tray.show();
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto *keepInTray = window.findChild<QAction *>(QStringLiteral("keepInTrayAction"));
    QVERIFY(window.trayBanner()->isVisible());
    QVERIFY(!keepInTray->isEnabled());
    QVERIFY(!tray.isVisible());
    QVERIFY(!window.closesToTray());

    QSignalSpy changed(&tray, &TrayController::trayAvailabilityChanged);
    QStringList command = QProcess::splitCommand(qEnvironmentVariable("SANDBOX_TRAY_HOST_COMMAND"));
    m_trayHost.setProgram(command.takeFirst());
    m_trayHost.setArguments(command);
    m_trayHost.start();
    QVERIFY(m_trayHost.waitForStarted());

    QVERIFY(changed.wait(20000));
    QCOMPARE(changed.first().at(0).toBool(), true);
    QVERIFY(tray.isVisible());
    // The icon is really in the tray (Qt gives an embedded icon a place on the screen).
    auto *icon = tray.findChild<QSystemTrayIcon *>();
    QVERIFY(icon);
    QTRY_VERIFY_WITH_TIMEOUT(icon->geometry().isValid(), 10000);
    QVERIFY(!window.trayBanner()->isVisible());
    QVERIFY(keepInTray->isEnabled());
    QVERIFY(keepInTray->toolTip().contains(QStringLiteral("running in the tray")));

    // Closing the window now leaves Studio in the tray.
    QSignalSpy quit(&window, &MainWindow::quitRequested);
    window.close();
    QVERIFY(!window.isVisible());
    QCOMPARE(quit.count(), 0);
}

QTEST_MAIN(TestTrayLater)
#include "tst_traylater.moc"
