// The Help menu: documentation, sandboxctl's own help, where the log is (and that it is
// written there), the licences, About.
#include "GuiTest.h"
#include "HelpMenu.h"
#include "StudioHarness.h"
#include "StudioLog.h"
#include "WidgetWalk.h"

#include <QAction>
#include <QApplication>
#include <QDesktopServices>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTextBrowser>
#include <QUrl>

using namespace sandbox;
using namespace sandbox::test;

class TestHelp : public QObject
{
    Q_OBJECT

public slots:
    // Stands in for the desktop's file opener (QDesktopServices::setUrlHandler).
    void openFile(const QUrl &url) { m_opened.append(url); }

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void menuHasEveryEntry();
    void documentationOpensTheReadme();
    void documentationShownHereWhenNoProgramOpensIt();
    void commandLineHelpShowsSandboxctlsHelp();
    void logLocationIsWhereTheLogIsWritten();
    void licencesNameTheComponents();

private:
    QDialog *openDialog(const QString &action, const QString &dialog);

    QTemporaryDir m_home;
    std::unique_ptr<StudioHarness> m_harness;
    std::unique_ptr<MainWindow> m_window;
    QList<QUrl> m_opened;
};

void TestHelp::initTestCase()
{
    QVERIFY(m_home.isValid());
    GuiTest::isolateUserConfig(m_home);
    qputenv("XDG_DATA_HOME", m_home.filePath(QStringLiteral("xdg-data")).toUtf8());
    QDesktopServices::setUrlHandler(QStringLiteral("file"), this, "openFile");
}

void TestHelp::init()
{
    m_harness = std::make_unique<StudioHarness>();
    m_window = std::make_unique<MainWindow>(m_harness->client(), nullptr);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestHelp::cleanup()
{
    m_window.reset();
    m_harness.reset();
}

QDialog *TestHelp::openDialog(const QString &action, const QString &dialog)
{
    auto *entry = m_window->findChild<QAction *>(action);
    if (!entry)
        return nullptr;
    entry->trigger();
    QDialog *shown = nullptr;
    [&] { QTRY_VERIFY((shown = m_window->findChild<QDialog *>(dialog)) && shown->isVisible()); }();
    return shown;
}

void TestHelp::menuHasEveryEntry()
{
    auto *menu = m_window->findChild<QMenu *>(QStringLiteral("helpMenu"));
    QVERIFY(menu);
    QStringList names;
    for (const QAction *action : menu->actions()) {
        if (!action->isSeparator())
            names << action->objectName();
    }
    QCOMPARE(names,
             (QStringList{ QStringLiteral("documentationAction"), QStringLiteral("commandLineHelpAction"),
                           QStringLiteral("logLocationAction"), QStringLiteral("licencesAction"),
                           QStringLiteral("aboutAction") }));
}

void TestHelp::documentationOpensTheReadme()
{
    m_opened.clear();
    m_window->findChild<QAction *>(QStringLiteral("documentationAction"))->trigger();
    QTRY_COMPARE(m_opened.size(), 1);
    QVERIFY(m_opened.first().isLocalFile());
    QCOMPARE(m_opened.first().toLocalFile(), HelpMenu::documentationPath());
    QVERIFY(QFileInfo(m_opened.first().toLocalFile()).size() > 0);
}

void TestHelp::documentationShownHereWhenNoProgramOpensIt()
{
    // No handler for files: the platform (offscreen, or a desktop without a program for
    // .md) opens nothing, and F1 still shows the documentation.
    QDesktopServices::unsetUrlHandler(QStringLiteral("file"));
    QApplication::setActiveWindow(m_window.get());
    QTRY_COMPARE(QApplication::activeWindow(), m_window.get());
    QTest::keyClick(m_window.get(), Qt::Key_F1);
    QDesktopServices::setUrlHandler(QStringLiteral("file"), this, "openFile");
    QTRY_VERIFY(m_window->findChild<QDialog *>(QStringLiteral("documentationDialog"))
                && m_window->findChild<QDialog *>(QStringLiteral("documentationDialog"))->isVisible());
    auto *dialog = m_window->findChild<QDialog *>(QStringLiteral("documentationDialog"));
    auto *text = dialog->findChild<QTextBrowser *>(QStringLiteral("documentationText"));
    QVERIFY(text);
    QFile readme(HelpMenu::documentationPath());
    QVERIFY(readme.open(QIODevice::ReadOnly));
    const QString heading = QString::fromUtf8(readme.readLine()).remove(QLatin1Char('#')).trimmed();
    QVERIFY(!heading.isEmpty());
    QVERIFY2(text->toPlainText().startsWith(heading), qPrintable(text->toPlainText().left(200)));
    QVERIFY(QFileInfo(WidgetWalk::saveScreenshot(dialog, QStringLiteral("help-documentation"))).size() > 0);
    dialog->reject();
}

void TestHelp::commandLineHelpShowsSandboxctlsHelp()
{
    QDialog *dialog = openDialog(QStringLiteral("commandLineHelpAction"), QStringLiteral("commandLineHelpDialog"));
    QVERIFY(dialog);
    auto *text = dialog->findChild<QPlainTextEdit *>(QStringLiteral("commandLineHelpText"));
    QTRY_VERIFY_WITH_TIMEOUT(text->toPlainText().startsWith(QStringLiteral("Usage: sandboxctl")), 20000);
    QVERIFY(text->isReadOnly());
    QVERIFY(QFileInfo(WidgetWalk::saveScreenshot(dialog, QStringLiteral("help-command-line"))).size() > 0);
    dialog->reject();
}

void TestHelp::logLocationIsWhereTheLogIsWritten()
{
    QVERIFY(StudioLog::install());
    qInfo("help test marker %d", 4711);
    QFile log(StudioLog::path());
    QVERIFY(log.open(QIODevice::ReadOnly));
    QVERIFY(log.readAll().contains("help test marker 4711"));

    QDialog *dialog = openDialog(QStringLiteral("logLocationAction"), QStringLiteral("logLocationDialog"));
    QVERIFY(dialog);
    QCOMPARE(dialog->findChild<QLabel *>(QStringLiteral("logLocationPath"))->text(),
             QDir::toNativeSeparators(StudioLog::path()));
    m_opened.clear();
    QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("logLocationOpenFolder")), Qt::LeftButton);
    QTRY_COMPARE(m_opened.size(), 1);
    QCOMPARE(m_opened.first().toLocalFile(), QFileInfo(StudioLog::path()).absolutePath());
    dialog->reject();
}

void TestHelp::licencesNameTheComponents()
{
    QDialog *dialog = openDialog(QStringLiteral("licencesAction"), QStringLiteral("licencesDialog"));
    QVERIFY(dialog);
    const QString text = dialog->findChild<QLabel *>(QStringLiteral("licencesDialogIntro"))->text();
    for (const QString &component : { QStringLiteral("Qt"), QStringLiteral("QtKeychain"), QStringLiteral("libseccomp"),
                                      QStringLiteral("OpenSSL") })
        QVERIFY2(text.contains(component), qPrintable(component));
    QVERIFY(dialog->findChild<QPushButton *>(QStringLiteral("licencesAboutQt")));
    QVERIFY2(WidgetWalk::unnamedInteractiveWidgets(dialog).isEmpty(),
             qPrintable(WidgetWalk::unnamedInteractiveWidgets(dialog).join(QLatin1Char('\n'))));
    dialog->reject();
}

QTEST_MAIN(TestHelp)
#include "tst_help.moc"
