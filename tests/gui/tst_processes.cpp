// The Processes view: every command running in the engine, whoever spawned it, with the
// backend that started it (across a hot switch), its start time and Stop; the count per
// backend in the status bar, the tab and the tray; what a backend noted about how a
// command's sandbox started, in the view and in `sandboxctl ps`.
#include "GuiTest.h"
#include "ProcessesView.h"
#include "StudioHarness.h"
#include "TrayController.h"
#include "WidgetWalk.h"
#include "client/Client.h"
#include "server/LocalServer.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTreeWidget>

using namespace sandbox;
using namespace sandbox::test;

class TestProcesses : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void runningCommandsShowWithTheirBackend();
    void stopEndsTheSelectedCommand();
    void sandboxctlPsPrintsEachNoteUnderItsCommand();

private:
    std::unique_ptr<RemoteProcess> spawnSleep(const QString &seconds);
    QTreeWidget *table() { return m_window->findChild<QTreeWidget *>(QStringLiteral("processesTable")); }
    QString statusText() { return m_window->findChild<QLabel *>(QStringLiteral("processCountStatus"))->text(); }
    QTreeWidgetItem *rowFor(const QString &command)
    {
        for (int i = 0; i < table()->topLevelItemCount(); ++i) {
            if (table()->topLevelItem(i)->text(0) == command)
                return table()->topLevelItem(i);
        }
        return nullptr;
    }

    QTemporaryDir m_home;
    std::unique_ptr<StudioHarness> m_harness;
    std::unique_ptr<TrayController> m_tray;
    std::unique_ptr<MainWindow> m_window;
};

void TestProcesses::initTestCase()
{
    QVERIFY(m_home.isValid());
    GuiTest::isolateUserConfig(m_home);
}

void TestProcesses::init()
{
    m_harness = std::make_unique<StudioHarness>();
    m_tray = std::make_unique<TrayController>(m_harness->client());
    m_window = std::make_unique<MainWindow>(m_harness->client(), m_tray.get());
    m_window->resize(960, 700);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QVERIFY(m_harness->activate(QStringLiteral("plain")).ok);
}

void TestProcesses::cleanup()
{
    m_window.reset();
    m_tray.reset();
    m_harness.reset();
}

std::unique_ptr<RemoteProcess> TestProcesses::spawnSleep(const QString &seconds)
{
    SpawnRequest request;
    request.argv = QStringList{ QStringLiteral("sleep"), seconds };
    request.cwd = QDir::tempPath();
    auto process = m_harness->client()->spawn(request);
    QSignalSpy started(process.get(), &RemoteProcess::started);
    [&] { QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 20000); }();
    return process;
}

void TestProcesses::runningCommandsShowWithTheirBackend()
{
    auto *tabs = m_window->findChild<QTabWidget *>(QStringLiteral("mainTabs"));
    QVERIFY(tabs);
    auto *view = m_window->findChild<ProcessesView *>(QStringLiteral("processesView"));
    tabs->setCurrentWidget(view);
    QTRY_COMPARE(statusText(), QStringLiteral("No commands running"));
    QCOMPARE(table()->topLevelItemCount(), 0);

    // A command spawned by another client (sandboxctl, an agent) shows at once ...
    auto first = spawnSleep(QStringLiteral("301"));
    QTRY_VERIFY(rowFor(QStringLiteral("sleep 301")));
    QCOMPARE(rowFor(QStringLiteral("sleep 301"))->text(1), QStringLiteral("Plain"));
    QVERIFY(!rowFor(QStringLiteral("sleep 301"))->text(2).isEmpty());
    // What the backend noted about how the command started arrives after it started, and
    // the row shows it: the newest in the Notes column, all of them in the tooltips.
    QCOMPARE(table()->headerItem()->text(4), QStringLiteral("Notes"));
    QTRY_COMPARE(rowFor(QStringLiteral("sleep 301"))->text(4), QStringLiteral("working directory attached (2 ms)"));
    QCOMPARE(rowFor(QStringLiteral("sleep 301"))->toolTip(4),
             QStringLiteral("host runtime reused from the last command\nworking directory attached (2 ms)"));
    QVERIFY(rowFor(QStringLiteral("sleep 301"))
                ->toolTip(0)
                .endsWith(QStringLiteral(
                    "\n\nhost runtime reused from the last command\nworking directory attached (2 ms)")));
    QTRY_COMPARE(statusText(), QStringLiteral("1 command running: Plain 1"));
    QCOMPARE(tabs->tabText(tabs->indexOf(view)), QStringLiteral("&Processes (1)"));

    // ... and after a hot switch it keeps the backend that started it, beside new ones.
    QVERIFY(m_harness->activate(QStringLiteral("leaky")).ok);
    auto second = spawnSleep(QStringLiteral("302"));
    QTRY_VERIFY(rowFor(QStringLiteral("sleep 302")));
    QCOMPARE(rowFor(QStringLiteral("sleep 302"))->text(1), QStringLiteral("Leaky"));
    QCOMPARE(rowFor(QStringLiteral("sleep 302"))->text(4), QString()); // Leaky notes nothing
    // Its process id shows once its sandbox is up (Leaky's comes up after it was listed),
    // though nothing else about it changes afterwards: the host process of that command.
    QCOMPARE(table()->headerItem()->text(3), QStringLiteral("Process id"));
    QTRY_VERIFY(rowFor(QStringLiteral("sleep 302"))->text(3) != QStringLiteral("starting"));
    const qint64 pid = rowFor(QStringLiteral("sleep 302"))->text(3).toLongLong();
    QVERIFY2(pid > 0, qPrintable(rowFor(QStringLiteral("sleep 302"))->text(3)));
    QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
    QVERIFY(cmdline.open(QIODevice::ReadOnly));
    const QList<QByteArray> argv = cmdline.readAll().split('\0');
    QVERIFY(argv.size() >= 2);
    QVERIFY2(argv.at(0).endsWith("sleep") && argv.at(1) == "302", cmdline.fileName().toUtf8().constData());
    QCOMPARE(rowFor(QStringLiteral("sleep 302"))->toolTip(0), QStringLiteral("sleep 302\nin ") + QDir::tempPath());
    QCOMPARE(rowFor(QStringLiteral("sleep 301"))->text(1), QStringLiteral("Plain"));
    QTRY_COMPARE(statusText(), QStringLiteral("2 commands running: Plain 1, Leaky 1"));
    QCOMPARE(tabs->tabText(tabs->indexOf(view)), QStringLiteral("&Processes (2)"));
    QTRY_VERIFY(
        m_tray->actionFor(TestPack::ref(QStringLiteral("plain")))->text().endsWith(QStringLiteral("1 running")));
    QVERIFY(m_tray->actionFor(TestPack::ref(QStringLiteral("leaky")))->text().endsWith(QStringLiteral("1 running")));
    QVERIFY(!m_tray->actionFor(TestPack::ref(QStringLiteral("slow")))->text().contains(QStringLiteral("running")));
    QVERIFY2(m_tray->toolTip().contains(QStringLiteral("2 commands running: Plain 1, Leaky 1")),
             qPrintable(m_tray->toolTip()));

    const QString path = WidgetWalk::saveScreenshot(m_window.get(), QStringLiteral("processes"));
    QVERIFY(QFileInfo(path).size() > 0);
    QVERIFY2(WidgetWalk::unnamedInteractiveWidgets(view).isEmpty(),
             qPrintable(WidgetWalk::unnamedInteractiveWidgets(view).join(QLatin1Char('\n'))));

    // A command that ends leaves the list by itself.
    QSignalSpy firstFinished(first.get(), &RemoteProcess::finished);
    first->kill();
    QTRY_COMPARE_WITH_TIMEOUT(firstFinished.count(), 1, 20000);
    QTRY_VERIFY(!rowFor(QStringLiteral("sleep 301")));
    QTRY_COMPARE(statusText(), QStringLiteral("1 command running: Leaky 1"));
}

void TestProcesses::stopEndsTheSelectedCommand()
{
    auto *tabs = m_window->findChild<QTabWidget *>(QStringLiteral("mainTabs"));
    tabs->setCurrentWidget(m_window->findChild<ProcessesView *>(QStringLiteral("processesView")));
    auto keep = spawnSleep(QStringLiteral("303"));
    auto victim = spawnSleep(QStringLiteral("304"));
    QTRY_VERIFY(rowFor(QStringLiteral("sleep 304")) && rowFor(QStringLiteral("sleep 303")));
    auto *stop = m_window->findChild<QPushButton *>(QStringLiteral("processStopButton"));
    QVERIFY(!stop->isEnabled());

    QTreeWidgetItem *row = rowFor(QStringLiteral("sleep 304"));
    QTest::mouseClick(table()->viewport(), Qt::LeftButton, {}, table()->visualItemRect(row).center());
    QTRY_VERIFY(stop->isEnabled());
    QSignalSpy finished(victim.get(), &RemoteProcess::finished);
    QTest::mouseClick(stop, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
    QTRY_VERIFY(!rowFor(QStringLiteral("sleep 304")));
    QVERIFY(rowFor(QStringLiteral("sleep 303")));
    QTRY_COMPARE(statusText(), QStringLiteral("1 command running: Plain 1"));
    QVERIFY(!stop->isEnabled());
}

void TestProcesses::sandboxctlPsPrintsEachNoteUnderItsCommand()
{
    QTemporaryDir run;
    QVERIFY(run.isValid());
    LocalServer local(m_harness->server());
    const QString socket = run.filePath(QStringLiteral("run/engine.sock"));
    const Status listening = local.listen(socket);
    QVERIFY2(listening.ok(), qPrintable(listening.ok() ? QString() : listening.error().toString()));
    auto noted = spawnSleep(QStringLiteral("305"));
    QVERIFY(m_harness->activate(QStringLiteral("leaky")).ok);
    auto silent = spawnSleep(QStringLiteral("306"));
    // The notes are in once the view shows them (they come after the command started).
    QTRY_COMPARE(rowFor(QStringLiteral("sleep 305"))->text(4), QStringLiteral("working directory attached (2 ms)"));

    // sandboxctl runs while this thread's event loop serves its requests.
    const auto ps = [&](const QStringList &args) {
        QProcess ctl;
        ctl.setProcessEnvironment(QProcessEnvironment::systemEnvironment());
        ctl.start(QCoreApplication::applicationDirPath() + QStringLiteral("/sandboxctl"),
                  QStringList{ QStringLiteral("--socket"), socket, QStringLiteral("ps") } + args);
        QSignalSpy finished(&ctl, &QProcess::finished);
        [&] { QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000); }();
        const QByteArray err = ctl.readAllStandardError();
        [&] { QVERIFY2(ctl.exitCode() == 0, err.constData()); }();
        return QString::fromUtf8(ctl.readAllStandardOutput());
    };

    // People: each note on its own indented line under its command, nothing under the other.
    const QStringList lines = ps({}).split(QLatin1Char('\n'));
    const auto row = [&](const QString &command) {
        for (qsizetype i = 0; i < lines.size(); ++i) {
            if (lines[i].endsWith(command))
                return i;
        }
        return qsizetype(-1);
    };
    const qsizetype first = row(QStringLiteral("sleep 305"));
    QVERIFY2(first > 0 && first + 2 < lines.size(), qPrintable(lines.join(QLatin1Char('\n'))));
    QCOMPARE(lines[first + 1], QStringLiteral("    host runtime reused from the last command"));
    QCOMPARE(lines[first + 2], QStringLiteral("    working directory attached (2 ms)"));
    const qsizetype second = row(QStringLiteral("sleep 306"));
    QVERIFY2(second > 0, qPrintable(lines.join(QLatin1Char('\n'))));
    QVERIFY2(!lines.value(second + 1).startsWith(QLatin1Char(' ')), qPrintable(lines.join(QLatin1Char('\n'))));

    // Scripts: the notes as the engine sent them, and no "notes" where there are none.
    const QJsonArray json = QJsonDocument::fromJson(ps({ QStringLiteral("--json") }).toUtf8()).array();
    QJsonObject notedJson;
    QJsonObject silentJson;
    for (const QJsonValue &entry : json) {
        const QString command = entry[QStringLiteral("argv")].toArray().last().toString();
        if (command == QLatin1String("305"))
            notedJson = entry.toObject();
        else if (command == QLatin1String("306"))
            silentJson = entry.toObject();
    }
    QCOMPARE(notedJson.value(QStringLiteral("notes")).toArray(),
             QJsonArray({ QStringLiteral("host runtime reused from the last command"),
                          QStringLiteral("working directory attached (2 ms)") }));
    QVERIFY(!silentJson.isEmpty());
    QVERIFY(!silentJson.contains(QStringLiteral("notes")));
}

QTEST_MAIN(TestProcesses)
#include "tst_processes.moc"
