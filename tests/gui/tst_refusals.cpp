// The Refusals view: what the sandbox refused, as it happens — the command, what was
// refused and the rule that refused it — with a count in the view and on its tab; the rule
// in the user's language, the backend named as in the Processes view, the selected
// refusal shown whole, and "Allow This Domain…" for a refused connection.
#include "GuiTest.h"
#include "RefusalsView.h"
#include "StudioHarness.h"
#include "StudioTranslations.h"
#include "TrayController.h"
#include "WidgetWalk.h"
#include "client/Client.h"
#include "protocol/Refusal.h"
#include "protocol/TextCatalog.h"

#include <QDialog>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
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
    void ruleInTheUsersLanguageBackendAsInProcesses();
    void selectedRefusalShowsWholeAndAllowsItsDomain();

private:
    void report(Refusal refusal);
    void selectRow(int row);
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

void TestRefusals::report(Refusal refusal)
{
    // A refusal as a backend's proxy channel reports it, through the engine's one door.
    m_harness->engine().reportRefusal(refusal);
}

void TestRefusals::selectRow(int row)
{
    QTreeWidgetItem *item = table()->topLevelItem(row);
    QVERIFY(item);
    QTest::mouseClick(table()->viewport(), Qt::LeftButton, {}, table()->visualItemRect(item).center());
    QTRY_VERIFY(item->isSelected());
}

void TestRefusals::ruleInTheUsersLanguageBackendAsInProcesses()
{
    const std::shared_ptr<const TextCatalog> german = engineTextCatalog(QLocale(QLocale::German, QLocale::Germany));
    QVERIFY(german);
    m_harness->client()->setTextCatalog(german);
    openWindow();
    spawnRefused({ QStringLiteral("touch"), QStringLiteral("german-file") });
    QTRY_COMPARE(table()->topLevelItemCount(), 1);
    const QString english = m_harness->engine().refusals().last().rule;
    QVERIFY2(english.startsWith(QStringLiteral("confinement: ")), qPrintable(english));
    const QString shown = table()->topLevelItem(0)->text(3);
    QCOMPARE(shown, german->translate(english));
    QVERIFY2(shown != english, qPrintable(shown));
    QCOMPARE(table()->topLevelItem(0)->text(2), german->translate(QStringLiteral("starting touch")));

    // The engine names the backend its own way; the view names it as the Processes view does.
    Refusal refusal;
    refusal.kind = Refusal::Kind::Network;
    refusal.what = QStringLiteral("api.example.org:443");
    refusal.rule = QStringLiteral("network: api.example.org:443 is not in the policy's allowed domains");
    refusal.ref = TestPack::ref(QStringLiteral("plain"));
    refusal.backendName = QStringLiteral("Plain host processes (engine's own name)");
    report(refusal);
    QTRY_COMPARE(table()->topLevelItemCount(), 2);
    QCOMPARE(table()->topLevelItem(0)->text(4), QStringLiteral("Plain"));
    QVERIFY2(table()->topLevelItem(0)->text(3).startsWith(QStringLiteral("Netzwerk: ")),
             qPrintable(table()->topLevelItem(0)->text(3)));
}

void TestRefusals::selectedRefusalShowsWholeAndAllowsItsDomain()
{
    Policy offline = Policy::defaults();
    offline.network = Policy::NetworkMode::None;
    offline.allowedDomains = { QStringLiteral("example.com") };
    QVERIFY(StudioHarness::await(m_harness->client()->setPolicy(offline)).ok());
    openWindow();
    spawnRefused({ QStringLiteral("touch"), QStringLiteral("some-file") });
    QString longCommand = QStringLiteral("curl");
    for (int i = 0; i < 12; ++i)
        longCommand += QStringLiteral(" --header X-Part-%1:value").arg(i);
    longCommand += QStringLiteral(" https://api.example.org/end-of-the-command");
    Refusal refusal;
    refusal.kind = Refusal::Kind::Network;
    refusal.what = QStringLiteral("api.example.org:443");
    refusal.rule = QStringLiteral("network: api.example.org:443 is not in the policy's allowed domains");
    refusal.command = longCommand;
    refusal.processId = 7;
    refusal.ref = TestPack::ref(QStringLiteral("plain"));
    report(refusal);
    QTRY_COMPARE(table()->topLevelItemCount(), 2);

    auto *allow = m_window->findChild<QPushButton *>(QStringLiteral("refusalAllowDomainButton"));
    auto *details = m_window->findChild<QLabel *>(QStringLiteral("refusalDetails"));
    QVERIFY(allow && details);
    QVERIFY(!allow->isEnabled());
    // Not a connection: nothing to allow.
    selectRow(1);
    QVERIFY(!allow->isEnabled());
    // The long command is cut in its column but whole below the list.
    selectRow(0);
    QTRY_VERIFY(details->isVisible());
    QVERIFY2(details->text().contains(QStringLiteral("end-of-the-command")), qPrintable(details->text()));
    QVERIFY(table()->visualItemRect(table()->topLevelItem(0)).width() > 0);
    QVERIFY(table()->header()->sectionSize(1)
            < table()->fontMetrics().horizontalAdvance(longCommand)); // the column alone could not show it
    QVERIFY(details->geometry().bottom() <= view()->height());
    WidgetWalk::saveScreenshot(m_window.get(), QStringLiteral("refusals-details"));

    QVERIFY(allow->isEnabled());
    QTest::mouseClick(allow, Qt::LeftButton);
    QTRY_VERIFY(view()->findChild<QDialog *>(QStringLiteral("allowDomainDialog"))
                && view()->findChild<QDialog *>(QStringLiteral("allowDomainDialog"))->isVisible());
    auto *dialog = view()->findChild<QDialog *>(QStringLiteral("allowDomainDialog"));
    auto *input = dialog->findChild<QLineEdit *>(QStringLiteral("allowDomainInput"));
    auto *confirm = dialog->findChild<QPushButton *>(QStringLiteral("allowDomainConfirm"));
    QCOMPARE(input->text(), QStringLiteral("api.example.org"));
    // The policy allows no network: the question says what else allowing one domain opens.
    const QString question = dialog->findChild<QLabel *>(QStringLiteral("allowDomainText"))->text();
    QVERIFY2(question.contains(QStringLiteral("also allows the domains already in its list")), qPrintable(question));
    WidgetWalk::saveScreenshot(dialog, QStringLiteral("refusals-allow-domain"));
    // Bad input is named and cannot be confirmed.
    input->setText(QStringLiteral("not a domain/"));
    QVERIFY(!confirm->isEnabled());
    QVERIFY(dialog->findChild<QLabel *>(QStringLiteral("allowDomainProblem"))->isVisible());
    QCOMPARE(m_harness->engine().policy(), StudioHarness::await(m_harness->client()->policy()).value());
    input->setText(QStringLiteral("api.example.org"));
    QVERIFY(confirm->isEnabled());
    QTest::mouseClick(confirm, Qt::LeftButton);

    QTRY_VERIFY_WITH_TIMEOUT(m_harness->engine().policy().allowedDomains.contains(QStringLiteral("api.example.org")),
                             10000);
    const Policy now = m_harness->engine().policy();
    QCOMPARE(now.network, Policy::NetworkMode::Allowlist);
    QCOMPARE(now.allowedDomains, (QStringList{ QStringLiteral("example.com"), QStringLiteral("api.example.org") }));
    QCOMPARE(now.denied, offline.denied); // nothing else changed
    auto *status = m_window->findChild<QLabel *>(QStringLiteral("refusalsStatus"));
    QTRY_VERIFY2(status->text().contains(QStringLiteral("“api.example.org” is allowed")), qPrintable(status->text()));
}

QTEST_MAIN(TestRefusals)
#include "tst_refusals.moc"
