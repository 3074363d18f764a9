// A backend the engine would refuse says so before anyone clicks: one whose claims leave a
// dimension the policy restricts unenforced cannot be activated (the list, the panel and
// the button say why, and an activation started elsewhere fails in plain words), and one
// with required settings that are not set names them as the reason.
#include "ActivationProgress.h"
#include "GuiTest.h"
#include "StudioHarness.h"
#include "TestPack.h"
#include "UnconfinedPolicy.h"
#include "WidgetWalk.h"
#include "client/Client.h"

#include <QFileInfo>
#include <QLabel>
#include <QPushButton>

using namespace sandbox;
using namespace sandbox::test;

class TestBackendRefusal : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void backendThatEnforcesNothingCannotBeActivatedUnderAPolicyThatRestricts();
    void missingRequiredSettingsAreTheReason();

private:
    QPushButton *activate() { return m_window->findChild<QPushButton *>(QStringLiteral("activateButton")); }
    QLabel *label(const QString &name) { return m_window->findChild<QLabel *>(name); }
    void setPolicy(const Policy &policy)
    {
        const Status set = StudioHarness::await(m_harness->client()->setPolicy(policy));
        QVERIFY2(set.ok(), qPrintable(set.ok() ? QString() : set.error().toString()));
    }

    QTemporaryDir m_home;
    std::unique_ptr<StudioHarness> m_harness;
    std::unique_ptr<MainWindow> m_window;
};

void TestBackendRefusal::initTestCase()
{
    QVERIFY(m_home.isValid());
    GuiTest::isolateUserConfig(m_home);
}

void TestBackendRefusal::init()
{
    m_harness = std::make_unique<StudioHarness>();
    m_window = std::make_unique<MainWindow>(m_harness->client(), nullptr);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestBackendRefusal::cleanup()
{
    m_window.reset();
    m_harness.reset();
}

void TestBackendRefusal::backendThatEnforcesNothingCannotBeActivatedUnderAPolicyThatRestricts()
{
    // "plain" states no enforcement at all; under a policy that restricts nothing it is usable.
    GuiTest::selectBackend(*m_window, QStringLiteral("plain"));
    if (QTest::currentTestFailed())
        return;
    QTRY_VERIFY(activate()->isEnabled());
    QVERIFY(GuiTest::backendItem(*m_window, QStringLiteral("plain"))->text().endsWith(QStringLiteral("Available")));

    // The user turns the network off: "plain" cannot enforce that, and says so at once.
    Policy offline = unconfinedPolicy();
    offline.network = Policy::NetworkMode::None;
    setPolicy(offline);
    QTRY_VERIFY(GuiTest::backendItem(*m_window, QStringLiteral("plain"))
                    ->text()
                    .endsWith(QStringLiteral("Not under this policy")));
    QTRY_COMPARE(label(QStringLiteral("backendAvailability"))->text(),
                 QStringLiteral("Cannot be activated under the current policy"));
    QLabel *why = label(QStringLiteral("backendUnavailableReason"));
    QTRY_VERIFY(why->isVisible());
    QVERIFY2(why->text().contains(QStringLiteral("this backend does not enforce Network, which the policy restricts")),
             qPrintable(why->text()));
    QVERIFY(!activate()->isEnabled());
    QVERIFY2(activate()->toolTip().contains(QStringLiteral("current sandbox policy")),
             qPrintable(activate()->toolTip()));
    QVERIFY2(GuiTest::backendItem(*m_window, QStringLiteral("plain"))->toolTip().contains(QStringLiteral("Network")),
             qPrintable(GuiTest::backendItem(*m_window, QStringLiteral("plain"))->toolTip()));
    // "runtime" is unavailable too (no socket set), but the policy's refusal is what stands
    // whatever the backend reports: it is said first, in the list and in the details.
    QTRY_VERIFY(GuiTest::backendItem(*m_window, QStringLiteral("runtime"))
                    ->text()
                    .endsWith(QStringLiteral("Not under this policy")));
    // A backend whose claims cover the network is not refused for it.
    QVERIFY(!GuiTest::backendItem(*m_window, QStringLiteral("remote"))
                 ->text()
                 .endsWith(QStringLiteral("Not under this policy")));

    // Another client (the tray, sandboxctl) asks anyway: the engine refuses, and the window
    // says why in words.
    const ActivationResult refused = m_harness->activate(QStringLiteral("plain"));
    QVERIFY(!refused.ok);
    QVERIFY2(refused.error.message.contains(QStringLiteral("does not enforce the network mode")),
             qPrintable(refused.error.message));
    auto *progress = m_window->findChild<ActivationProgress *>(QStringLiteral("activationProgress"));
    QTRY_COMPARE(progress->title(), QStringLiteral("Activation of “Plain” failed."));
    const QString summary = label(QStringLiteral("activationSummary"))->text();
    QVERIFY2(summary.contains(QStringLiteral("does not enforce the network mode")), qPrintable(summary));
    QVERIFY2(summary.contains(QStringLiteral("commands never run unconfined")), qPrintable(summary));
    QVERIFY(QFileInfo(WidgetWalk::saveScreenshot(m_window.get(), QStringLiteral("refused-backend"))).size() > 0);

    // With the network allowed again the refusal is gone.
    setPolicy(unconfinedPolicy());
    QTRY_VERIFY(GuiTest::backendItem(*m_window, QStringLiteral("plain"))->text().endsWith(QStringLiteral("Available")));
    QTRY_VERIFY(activate()->isEnabled());
    QCOMPARE(label(QStringLiteral("backendAvailability"))->text(), QStringLiteral("Available"));
}

void TestBackendRefusal::missingRequiredSettingsAreTheReason()
{
    // "every-field" requires a project (text) and an API key (secret); neither is set.
    const QString kind = QStringLiteral("every-field");
    QTRY_VERIFY(GuiTest::backendItem(*m_window, kind)
                && GuiTest::backendItem(*m_window, kind)->text().endsWith(QStringLiteral("Needs settings")));
    const QString tip = GuiTest::backendItem(*m_window, kind)->toolTip();
    QVERIFY2(tip.contains(QStringLiteral("Cannot be activated until its required settings are set:")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("“Project”")) && tip.contains(QStringLiteral("“API key”")), qPrintable(tip));

    GuiTest::selectBackend(*m_window, kind, QStringLiteral("project"));
    if (QTest::currentTestFailed())
        return;
    QLabel *why = label(QStringLiteral("backendUnavailableReason"));
    QTRY_VERIFY(why->isVisible());
    QVERIFY2(why->text().contains(QStringLiteral("Required settings are missing")), qPrintable(why->text()));

    // Once they are saved (here by another client), the list no longer holds it back.
    SettingsValues values;
    values.values.insert(QStringLiteral("project"), QStringLiteral("demo"));
    SecretUpdate key;
    key.fieldId = QStringLiteral("apiKey");
    key.action = SecretUpdate::Action::Replace;
    key.value = QStringLiteral("k-123");
    const Status saved
        = StudioHarness::await(m_harness->client()->updateSettings(TestPack::ref(kind), values, { key }));
    QVERIFY2(saved.ok(), qPrintable(saved.ok() ? QString() : saved.error().toString()));
    QTRY_VERIFY(GuiTest::backendItem(*m_window, kind)->text().endsWith(QStringLiteral("Available")));
}

QTEST_MAIN(TestBackendRefusal)
#include "tst_backendrefusal.moc"
