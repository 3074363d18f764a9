// The Sandbox page at the sizes people use: at 1280×800 the E2B details (the longest
// claims and form) fit the pane, wrapped, with no sideways scrolling, the settings before
// the collapsible "what enforces the policy"; at 1024×700 the activation's summary sits
// below its step rows; the policy pane leads with a summary of the settings that matter
// most; the activation panel starts afresh for another backend. Geometry is what a user
// sees: widgets inside the viewport, nothing drawn over anything else.
#include "ActivationProgress.h"
#include "GuiTest.h"
#include "MainWindow.h"
#include "PolicyPanel.h"
#include "SchemaForm.h"
#include "StudioHarness.h"
#include "WidgetWalk.h"
#include "client/Client.h"

#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QToolButton>

using namespace sandbox;
using namespace sandbox::test;

namespace {

const BackendRef e2b = BackendRef::atomPack(QStringLiteral("power-pack"), QStringLiteral("e2b"));

// `widget`'s rectangle in `ancestor`'s coordinates.
QRect rectIn(const QWidget *widget, const QWidget *ancestor)
{
    return QRect(widget->mapTo(ancestor, QPoint(0, 0)), widget->size());
}

} // namespace

class TestLayout final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void e2bDetailsFitThePaneAt1280x800();
    void activationSummaryBelowTheStepsAt1024x700();
    void policyPaneLeadsWithASummary();

private:
    template <typename T> T *find(const QString &name) { return m_window->findChild<T *>(name); }

    QTemporaryDir m_home;
    std::unique_ptr<StudioHarness> m_harness;
    std::unique_ptr<MainWindow> m_window;
};

void TestLayout::initTestCase()
{
    QVERIFY(m_home.isValid());
    GuiTest::isolateUserConfig(m_home);
}

void TestLayout::init()
{
    m_harness = std::make_unique<StudioHarness>();
    m_window = std::make_unique<MainWindow>(m_harness->client(), nullptr);
}

void TestLayout::cleanup()
{
    m_window.reset();
    m_harness.reset();
}

void TestLayout::e2bDetailsFitThePaneAt1280x800()
{
    m_window->resize(1280, 800);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QVERIFY(StudioHarness::await(m_harness->client()->installPack(QStringLiteral(SANDBOX_POWER_PACK_DIR))).ok());
    GuiTest::clickBackend(*m_window, e2b);
    if (QTest::currentTestFailed())
        return;
    auto *form = find<SchemaForm>(QStringLiteral("schemaForm"));
    QTRY_VERIFY_WITH_TIMEOUT(form->hasSchema() && find<QWidget>(QStringLiteral("field_apiKey")), 20000);
    QTRY_VERIFY(find<QWidget>(QStringLiteral("field_apiKey"))->isVisible());

    QCOMPARE(m_window->width(), 1280);
    auto *scroll = find<QScrollArea>(QStringLiteral("backendScroll"));
    QVERIFY(scroll);
    QWidget *viewport = scroll->viewport();
    // No sideways scrolling: the content is as wide as the pane shows.
    QTRY_VERIFY2(
        !scroll->horizontalScrollBar()->isVisible(),
        qPrintable(QStringLiteral("content %1, viewport %2").arg(scroll->widget()->width()).arg(viewport->width())));
    QTRY_VERIFY2(
        scroll->widget()->width() <= viewport->width(),
        qPrintable(QStringLiteral("content %1, viewport %2").arg(scroll->widget()->width()).arg(viewport->width())));
    // Every claim wraps inside the pane (none cut at its right edge).
    auto *claimsToggle = find<QToolButton>(QStringLiteral("backendClaimsToggle"));
    QVERIFY(claimsToggle);
    if (!claimsToggle->isChecked())
        QTest::mouseClick(claimsToggle, Qt::LeftButton);
    auto *claims = find<QWidget>(QStringLiteral("backendClaims"));
    QTRY_VERIFY(claims->isVisible());
    const QList<QLabel *> labels = claims->findChildren<QLabel *>();
    QVERIFY(!labels.isEmpty());
    for (QLabel *label : labels) {
        const QRect inViewport = rectIn(label, viewport);
        QVERIFY2(inViewport.left() >= 0 && inViewport.right() < viewport->width(),
                 qPrintable(QStringLiteral("%1 at %2..%3, viewport %4")
                                .arg(label->objectName())
                                .arg(inViewport.left())
                                .arg(inViewport.right())
                                .arg(viewport->width())));
    }
    // The settings come before what enforces the policy; the warning that says "fill
    // them in below" is directly above them.
    auto *settings = find<QGroupBox>(QStringLiteral("backendSettingsGroup"));
    QVERIFY(rectIn(settings, scroll->widget()).bottom() < rectIn(claims, scroll->widget()).top());
    QVERIFY(rectIn(settings, scroll->widget()).top() < viewport->height());
    WidgetWalk::saveScreenshot(m_window.get(), QStringLiteral("layout-e2b-1280x800"));

    // The claims fold away and come back.
    QTest::mouseClick(claimsToggle, Qt::LeftButton);
    QTRY_VERIFY(!claims->isVisible());
    QTest::mouseClick(claimsToggle, Qt::LeftButton);
    QTRY_VERIFY(claims->isVisible());
}

void TestLayout::activationSummaryBelowTheStepsAt1024x700()
{
    m_window->resize(1024, 700);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QCOMPARE(m_window->size(), QSize(1024, 700));
    QVERIFY(m_harness->activate(QStringLiteral("plain")).ok);
    GuiTest::selectBackend(*m_window, QStringLiteral("failing"), QStringLiteral("failAt"));
    if (QTest::currentTestFailed())
        return;
    auto *progress = find<ActivationProgress>(QStringLiteral("activationProgress"));
    QTest::mouseClick(find<QPushButton>(QStringLiteral("activateButton")), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!progress->isRunning() && !progress->summary().isEmpty(), 20000);

    auto *steps = find<QListWidget>(QStringLiteral("activationSteps"));
    auto *summary = find<QLabel>(QStringLiteral("activationSummary"));
    auto *group = find<QGroupBox>(QStringLiteral("activationGroup"));
    QVERIFY(summary->isVisible());
    // The summary's height follows its width, so the layout settles over a few turns of the
    // event loop once its text is set; what counts is where it settles.
    const auto apart = [&] { return !rectIn(steps, group).intersects(rectIn(summary, group)); };
    QTRY_VERIFY2(apart(),
                 qPrintable(QStringLiteral("steps %1..%2, summary %3..%4")
                                .arg(rectIn(steps, group).top())
                                .arg(rectIn(steps, group).bottom())
                                .arg(rectIn(summary, group).top())
                                .arg(rectIn(summary, group).bottom())));
    const QRect summaryRect = rectIn(summary, group);
    // All seven rows show whole, and the summary is all there.
    const int lastRowBottom = steps->visualItemRect(steps->item(steps->count() - 1)).bottom();
    QVERIFY2(
        lastRowBottom < steps->viewport()->height(),
        qPrintable(QStringLiteral("last row ends at %1, list %2").arg(lastRowBottom).arg(steps->viewport()->height())));
    QVERIFY(summary->height() >= summary->heightForWidth(summary->width()));
    QVERIFY(group->rect().contains(summaryRect));
    QCOMPARE(m_window->size(), QSize(1024, 700)); // the window did not grow to make room
    WidgetWalk::saveScreenshot(m_window.get(), QStringLiteral("layout-activation-1024x700"));

    // Another backend selected: the panel starts afresh instead of telling the last one's story.
    GuiTest::selectBackend(*m_window, QStringLiteral("leaky"));
    QTRY_COMPARE(progress->summary(), QString());
    for (ActivationStep step : allActivationSteps())
        QCOMPARE(progress->stepState(step), StatusIcons::StepState::Pending);
}

void TestLayout::policyPaneLeadsWithASummary()
{
    m_window->resize(1280, 800);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    auto *panel = find<PolicyPanel>(QStringLiteral("policyPanel"));
    QTRY_VERIFY(panel->isEnabled());
    auto *summary = find<QLabel>(QStringLiteral("policySummary"));
    QVERIFY(summary);
    QTRY_VERIFY(summary->isVisible() && !summary->text().isEmpty());
    auto *network = find<QComboBox>(QStringLiteral("policyNetworkMode"));
    auto *host = find<QComboBox>(QStringLiteral("policyHostExecution"));
    QVERIFY2(summary->text().contains(network->currentText()), qPrintable(summary->text()));
    QVERIFY2(summary->text().contains(host->currentText().section(QStringLiteral(" — "), 0, 0)),
             qPrintable(summary->text()));
    // Network mode and host execution come first, above the long lists, in view at once.
    auto *scroll = find<QScrollArea>(QStringLiteral("policyScroll"));
    const int summaryTop = rectIn(summary, panel).top();
    const int networkTop = rectIn(network, panel).top();
    const int hostTop = rectIn(host, panel).top();
    const int listsTop = rectIn(find<QGroupBox>(QStringLiteral("policyFilesystemGroup")), panel).top();
    QVERIFY(summaryTop < networkTop && summaryTop < hostTop);
    QVERIFY(networkTop < listsTop && hostTop < listsTop);
    QVERIFY(rectIn(host, scroll->viewport()).bottom() < scroll->viewport()->height());
    QVERIFY(!scroll->horizontalScrollBar()->isVisible());

    // It follows the edits.
    network->setCurrentIndex(network->findData(int(Policy::NetworkMode::Full)));
    QTRY_VERIFY2(summary->text().contains(network->currentText()), qPrintable(summary->text()));
    WidgetWalk::saveScreenshot(m_window.get(), QStringLiteral("layout-policy-1280x800"));
}

QTEST_MAIN(TestLayout)
#include "tst_layout.moc"
