// Alt+letter in Studio's window: the menu bar's menus and the tabs (both reached from the
// window with Alt) each have a letter of their own, and so has every entry of a menu, the
// Studio menu with its plaintext-secrets setting as the application builds it.
#include "GuiTest.h"
#include "PlaintextSecretsSetting.h"
#include "ProcessesView.h"
#include "SandboxPage.h"
#include "StudioHarness.h"
#include "TrayController.h"

#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QMenuBar>
#include <QTabBar>
#include <QTabWidget>

using namespace sandbox;
using namespace sandbox::test;

class TestMnemonics final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void windowLevelLettersAreDistinct();
    void eachMenusLettersAreDistinct();
    void altLetterOfTheSandboxTabOpensOnlyIt();

private:
    // "text=Alt+X" for every text with a mnemonic, grouped by letter.
    static QMultiHash<QKeySequence, QString> letters(const QStringList &texts);
    static QString clashes(const QMultiHash<QKeySequence, QString> &byLetter);

    QTemporaryDir m_home;
    QTemporaryDir m_config;
    std::unique_ptr<StudioHarness> m_harness;
    std::unique_ptr<TrayController> m_tray;
    std::unique_ptr<MainWindow> m_window;
};

QMultiHash<QKeySequence, QString> TestMnemonics::letters(const QStringList &texts)
{
    QMultiHash<QKeySequence, QString> byLetter;
    for (const QString &text : texts) {
        const QKeySequence key = QKeySequence::mnemonic(text);
        if (!key.isEmpty())
            byLetter.insert(key, text);
    }
    return byLetter;
}

QString TestMnemonics::clashes(const QMultiHash<QKeySequence, QString> &byLetter)
{
    QStringList found;
    for (const QKeySequence &key : byLetter.uniqueKeys()) {
        const QStringList texts = byLetter.values(key);
        if (texts.size() > 1)
            found << key.toString() + QStringLiteral(": ") + texts.join(QStringLiteral(" | "));
    }
    return found.join(QLatin1Char('\n'));
}

void TestMnemonics::initTestCase()
{
    QVERIFY(m_home.isValid());
    QVERIFY(m_config.isValid());
    GuiTest::isolateUserConfig(m_home);
    m_harness = std::make_unique<StudioHarness>();
    m_tray = std::make_unique<TrayController>(m_harness->client());
    m_window = std::make_unique<MainWindow>(m_harness->client(), m_tray.get());
    new PlaintextSecretsSetting(m_config.path(), m_window.get());
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestMnemonics::windowLevelLettersAreDistinct()
{
    QStringList texts;
    for (QAction *menu : m_window->menuBar()->actions())
        texts << menu->text();
    QTabWidget *tabs = m_window->tabs();
    for (int i = 0; i < tabs->count(); ++i)
        texts << tabs->tabText(i);
    const auto byLetter = letters(texts);
    QCOMPARE(byLetter.size(), texts.size()); // every one has a letter
    QVERIFY2(clashes(byLetter).isEmpty(), qPrintable(clashes(byLetter)));
}

void TestMnemonics::eachMenusLettersAreDistinct()
{
    const QList<QMenu *> menus = m_window->menuBar()->findChildren<QMenu *>();
    QVERIFY(menus.size() >= 2);
    bool sawPlaintext = false;
    for (QMenu *menu : menus) {
        QStringList texts;
        for (QAction *action : menu->actions()) {
            if (!action->isSeparator())
                texts << action->text();
            sawPlaintext = sawPlaintext || action->objectName() == QStringLiteral("plaintextSecretsAction");
        }
        const auto byLetter = letters(texts);
        QVERIFY2(clashes(byLetter).isEmpty(), qPrintable(menu->title() + QLatin1Char('\n') + clashes(byLetter)));
    }
    QVERIFY(sawPlaintext);
}

void TestMnemonics::altLetterOfTheSandboxTabOpensOnlyIt()
{
    QTabWidget *tabs = m_window->tabs();
    tabs->setCurrentWidget(m_window->processesView());
    QApplication::setActiveWindow(m_window.get());
    QTRY_COMPARE(QApplication::activeWindow(), m_window.get());
    const QKeySequence key = QKeySequence::mnemonic(tabs->tabText(tabs->indexOf(m_window->page())));
    QVERIFY(!key.isEmpty());
    QTest::keySequence(m_window.get(), key);
    QTRY_COMPARE(tabs->currentWidget(), m_window->page());
    // No menu opened on the same letter.
    QVERIFY(!QApplication::activePopupWidget());
}

QTEST_MAIN(TestMnemonics)
#include "tst_mnemonics.moc"
