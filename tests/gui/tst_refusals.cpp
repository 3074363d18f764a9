// The Refusals view: what the sandbox refused, as it happens — the command, what was
// refused and the rule that refused it — with a count in the view and on its tab.
#include "GuiTest.h"
#include "RefusalsView.h"
#include "StudioHarness.h"
#include "TrayController.h"
#include "WidgetWalk.h"
#include "server/Client.h"

#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTreeWidget>

using namespace sandbox;
using namespace sandbox::test;

class TestRefusals : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void refusedSpawnAppearsAsItHappens();
    void recentRefusalsShowInANewWindow();

private:
    void openWindow();
    // Spawns `argv` under the default policy, which the test pack's backends (they enforce
    // nothing) cannot confine: the engine refuses it before anything runs.
    void spawnRefused(const QStringList &argv);
    RefusalsView *view() { return m_window->findChild<RefusalsView *>(QStringLiteral("refusalsView")); }
    QTreeWidget *table() { return m_window->findChild<QTreeWidget *>(QStringLiteral("refusalsTable")); }
    QString summary() { return m_window->findChild<QLabel *>(QStringLiteral("refusalsSummary"))->text(); }

    QTemporaryDir m_home;
    QTemporaryDir m_workspace;
    std::unique_ptr<StudioHarness> m_harness;
    std::unique_ptr<TrayController> m_tray;
    std::unique_ptr<MainWindow> m_window;
};

void TestRefusals::initTestCase()
{
    QVERIFY(m_home.isValid());
    QVERIFY(m_workspace.isValid());
    GuiTest::isolateUserConfig(m_home);
}

void TestRefusals::init()
{
    m_harness = std::make_unique<StudioHarness>();
    QVERIFY(m_harness->activate(QStringLiteral("plain")).ok);
}

void TestRefusals::cleanup()
{
    m_window.reset();
    m_tray.reset();
    m_harness.reset();
}

void TestRefusals::openWindow()
{
    m_tray = std::make_unique<TrayController>(m_harness->client());
    m_window = std::make_unique<MainWindow>(m_harness->client(), m_tray.get());
    m_window->resize(960, 700);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    auto *tabs = m_window->findChild<QTabWidget *>(QStringLiteral("mainTabs"));
    QVERIFY(tabs && view());
    tabs->setCurrentWidget(view());
}

void TestRefusals::spawnRefused(const QStringList &argv)
{
    SpawnRequest request;
    request.argv = argv;
    request.cwd = m_workspace.path();
    request.policy = Policy::defaults();
    auto process = m_harness->client()->spawn(request);
    QSignalSpy refused(process.get(), &RemoteProcess::failedToStart);
    QTRY_COMPARE_WITH_TIMEOUT(refused.count(), 1, 20000);
    QVERIFY(!QFileInfo::exists(QDir(m_workspace.path()).filePath(argv.last())));
}

void TestRefusals::refusedSpawnAppearsAsItHappens()
{
    openWindow();
    auto *tabs = m_window->findChild<QTabWidget *>(QStringLiteral("mainTabs"));
    QCOMPARE(table()->topLevelItemCount(), 0);
    QVERIFY2(summary().startsWith(QStringLiteral("Nothing has been refused")), qPrintable(summary()));
    QCOMPARE(tabs->tabText(tabs->indexOf(view())), QStringLiteral("&Refusals"));
    auto *clear = m_window->findChild<QPushButton *>(QStringLiteral("refusalsClearButton"));
    QVERIFY(clear && !clear->isEnabled());

    spawnRefused({ QStringLiteral("touch"), QStringLiteral("first-file") });
    QTRY_COMPARE(table()->topLevelItemCount(), 1);
    QTreeWidgetItem *row = table()->topLevelItem(0);
    QCOMPARE(row->text(1), QStringLiteral("touch first-file"));
    QCOMPARE(row->text(2), QStringLiteral("starting touch"));
    QVERIFY2(row->text(3).startsWith(QStringLiteral("confinement: the backend cannot enforce filesystem")),
             qPrintable(row->text(3)));
    QCOMPARE(row->text(4), QStringLiteral("Plain"));
    QCOMPARE(tabs->tabText(tabs->indexOf(view())), QStringLiteral("&Refusals (1)"));
    QCOMPARE(summary(), QStringLiteral("1 refusal: the newest first."));

    // The newest comes first, and the count follows.
    spawnRefused({ QStringLiteral("touch"), QStringLiteral("second-file") });
    QTRY_COMPARE(table()->topLevelItemCount(), 2);
    QCOMPARE(table()->topLevelItem(0)->text(1), QStringLiteral("touch second-file"));
    QCOMPARE(table()->topLevelItem(1)->text(1), QStringLiteral("touch first-file"));
    QCOMPARE(tabs->tabText(tabs->indexOf(view())), QStringLiteral("&Refusals (2)"));
    QCOMPARE(summary(), QStringLiteral("2 refusals: the newest first."));

    const QString path = WidgetWalk::saveScreenshot(m_window.get(), QStringLiteral("refusals"));
    QVERIFY(QFileInfo(path).size() > 0);
    QVERIFY2(WidgetWalk::unnamedInteractiveWidgets(view()).isEmpty(),
             qPrintable(WidgetWalk::unnamedInteractiveWidgets(view()).join(QLatin1Char('\n'))));

    // Clearing empties the list; the next refusal shows again.
    QTRY_VERIFY(clear->isEnabled());
    QTest::mouseClick(clear, Qt::LeftButton);
    QCOMPARE(table()->topLevelItemCount(), 0);
    QCOMPARE(tabs->tabText(tabs->indexOf(view())), QStringLiteral("&Refusals"));
    QVERIFY(!clear->isEnabled());
    spawnRefused({ QStringLiteral("touch"), QStringLiteral("third-file") });
    QTRY_COMPARE(table()->topLevelItemCount(), 1);
    QCOMPARE(table()->topLevelItem(0)->text(1), QStringLiteral("touch third-file"));
}

void TestRefusals::recentRefusalsShowInANewWindow()
{
    // Refused while no window was open: the engine's recent history fills the view.
    spawnRefused({ QStringLiteral("touch"), QStringLiteral("early-file") });
    openWindow();
    QTRY_COMPARE(table()->topLevelItemCount(), 1);
    QCOMPARE(table()->topLevelItem(0)->text(1), QStringLiteral("touch early-file"));
    // Each refusal once, though it reached the view both as history and as it happened.
    spawnRefused({ QStringLiteral("touch"), QStringLiteral("late-file") });
    QTRY_COMPARE(table()->topLevelItemCount(), 2);
    QCOMPARE(view()->count(), 2);
}

QTEST_MAIN(TestRefusals)
#include "tst_refusals.moc"
