// Studio's plaintext-secret setting: a checkable action in the Studio menu that asks
// first, writes the opt-in every program of the user reads, and a status-bar warning that
// stands for as long as the opt-in is on.
#include "PlaintextSecretsSetting.h"
#include "common/PlaintextSecretsOptIn.h"

#include <QAction>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace sandbox;

class TestPlaintextSecretsSetting final : public QObject
{
    Q_OBJECT

private slots:
    void askedFirstPersistedAndWarnedWhileOn();
    void damagedChoiceShowsTheKeychain();

private:
    std::unique_ptr<QMainWindow> window();
};

std::unique_ptr<QMainWindow> TestPlaintextSecretsSetting::window()
{
    auto window = std::make_unique<QMainWindow>();
    QMenu *menu = window->menuBar()->addMenu(QStringLiteral("Studio"));
    menu->setObjectName(QStringLiteral("studioMenu"));
    menu->addSeparator();
    menu->addAction(QStringLiteral("Quit"));
    window->show();
    return window;
}

void TestPlaintextSecretsSetting::askedFirstPersistedAndWarnedWhileOn()
{
    QTemporaryDir config;
    auto studio = window();
    auto *setting = new PlaintextSecretsSetting(config.path(), studio.get());
    QCOMPARE(setting->action()->objectName(), QStringLiteral("plaintextSecretsAction"));
    const QList<QAction *> actions = studio->findChild<QMenu *>(QStringLiteral("studioMenu"))->actions();
    QVERIFY(actions.contains(setting->action()));
    QVERIFY(actions.indexOf(setting->action()) < actions.size() - 2); // before the separator and Quit
    QLabel *warning = studio->findChild<QLabel *>(QStringLiteral("plaintextSecretsWarning"));
    QVERIFY(warning);
    QVERIFY(!setting->action()->isChecked());
    QVERIFY(!warning->isVisible());

    // Refusing the confirmation changes nothing.
    int asked = 0;
    setting->setConfirmation([&asked] {
        ++asked;
        return false;
    });
    setting->action()->trigger();
    QCOMPARE(asked, 1);
    QVERIFY(!setting->action()->isChecked());
    QVERIFY(!QFile::exists(PlaintextSecretsOptIn::path(config.path())));
    QVERIFY(!warning->isVisible());

    // Confirming writes the shared choice and raises the standing warning.
    setting->setConfirmation([&asked] {
        ++asked;
        return true;
    });
    setting->action()->trigger();
    QCOMPARE(asked, 2);
    QVERIFY(setting->action()->isChecked());
    QString problem;
    QCOMPARE(PlaintextSecretsOptIn::read(config.path(), &problem).value(), true);
    QVERIFY(problem.isEmpty());
    QTRY_VERIFY(warning->isVisible());
    QVERIFY(warning->text().contains(QStringLiteral("plain text")));
    QVERIFY(warning->toolTip().contains(PlaintextSecretsOptIn::path(config.path())));

    // A later Studio shows the choice as it is, warning included.
    auto again = window();
    auto *later = new PlaintextSecretsSetting(config.path(), again.get());
    QVERIFY(later->action()->isChecked());
    QTRY_VERIFY(later->warning()->isVisible());

    // Turning it off needs no confirmation and takes the warning away.
    setting->action()->trigger();
    QCOMPARE(asked, 2);
    QCOMPARE(PlaintextSecretsOptIn::read(config.path(), &problem).value(), false);
    QVERIFY(!warning->isVisible());
}

void TestPlaintextSecretsSetting::damagedChoiceShowsTheKeychain()
{
    QTemporaryDir config;
    QFile file(PlaintextSecretsOptIn::path(config.path()));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("not json");
    file.close();
    auto studio = window();
    auto *setting = new PlaintextSecretsSetting(config.path(), studio.get());
    QVERIFY(!setting->action()->isChecked());
    QVERIFY(!setting->warning()->isVisible());
    QVERIFY(!studio->statusBar()->currentMessage().isEmpty());
}

QTEST_MAIN(TestPlaintextSecretsSetting)
#include "tst_plaintextsecretssetting.moc"
