// Starting at login is the user's opt-in: the window's action writes and removes an XDG
// autostart entry that starts Studio in the tray.
#include "Autostart.h"
#include "GuiTest.h"
#include "StudioHarness.h"

#include <QAction>
#include <QFile>
#include <QSettings>

using namespace sandbox;
using namespace sandbox::test;

class TestAutostart : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void offByDefaultAndToggledFromTheWindow();
    void quotesExecutablePathsWithSpaces();
    void reportsAnUnwritableLocation();

private:
    QTemporaryDir m_home;
};

void TestAutostart::initTestCase()
{
    QVERIFY(m_home.isValid());
    GuiTest::isolateUserConfig(m_home);
}

void TestAutostart::offByDefaultAndToggledFromTheWindow()
{
    StudioHarness harness;
    MainWindow window(harness.client(), nullptr);
    auto *action = window.findChild<QAction *>(QStringLiteral("autostartAction"));
    QVERIFY(action);
    QVERIFY(action->isCheckable());
    QVERIFY(!action->isChecked());
    const QString entry = m_home.filePath(QStringLiteral("xdg-config/autostart/sandbox-studio.desktop"));
    QVERIFY(!QFile::exists(entry));

    action->trigger();
    QVERIFY(action->isChecked());
    QVERIFY(QFile::exists(entry));
    QSettings desktop(entry, QSettings::IniFormat);
    desktop.beginGroup(QStringLiteral("Desktop Entry"));
    QCOMPARE(desktop.value(QStringLiteral("Type")).toString(), QStringLiteral("Application"));
    QVERIFY(desktop.value(QStringLiteral("Exec")).toString().endsWith(QStringLiteral(" --hidden")));
    QVERIFY(desktop.value(QStringLiteral("Exec")).toString().contains(QCoreApplication::applicationFilePath()));

    // A new window sees the stored choice.
    MainWindow again(harness.client(), nullptr);
    QVERIFY(again.findChild<QAction *>(QStringLiteral("autostartAction"))->isChecked());

    action->trigger();
    QVERIFY(!action->isChecked());
    QVERIFY(!QFile::exists(entry));
}

void TestAutostart::quotesExecutablePathsWithSpaces()
{
    Autostart autostart(QStringLiteral("/opt/Sandbox Studio/bin/sandbox-studio"));
    QVERIFY(autostart.setEnabled(true).ok());
    QFile file(autostart.entryPath());
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    QVERIFY2(text.contains(QStringLiteral("Exec=\"/opt/Sandbox Studio/bin/sandbox-studio\" --hidden\n")),
             qPrintable(text));
    QVERIFY(autostart.setEnabled(false).ok());
    QVERIFY(!autostart.isEnabled());
}

void TestAutostart::reportsAnUnwritableLocation()
{
    // A file where the autostart folder should be: the error names the place.
    const QByteArray saved = qgetenv("XDG_CONFIG_HOME");
    const QString blocked = m_home.filePath(QStringLiteral("blocked"));
    QVERIFY(QDir().mkpath(blocked));
    QFile blocker(blocked + QStringLiteral("/autostart"));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    qputenv("XDG_CONFIG_HOME", blocked.toUtf8());
    Autostart autostart(QStringLiteral("/usr/bin/sandbox-studio"));
    const Status status = autostart.setEnabled(true);
    qputenv("XDG_CONFIG_HOME", saved);
    QVERIFY(!status.ok());
    QVERIFY2(status.error().where.contains(QStringLiteral("autostart")), qPrintable(status.error().toString()));
}

QTEST_MAIN(TestAutostart)
#include "tst_autostart.moc"
