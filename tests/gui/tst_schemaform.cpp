// The generic settings form: every field type rendered natively, the engine's per-field
// errors next to the field, secrets replaced and removed only through explicit actions.
#include "ActivationProgress.h"
#include "GuiTest.h"
#include "SecretField.h"
#include "StudioHarness.h"
#include "WidgetWalk.h"
#include "client/Client.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QWheelEvent>

using namespace sandbox;
using namespace sandbox::test;

class TestSchemaForm : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void rendersEveryFieldType();
    void showsExplicitNoSettingsState();
    void spinBoxIgnoresWheelUntilFocused();
    void missingRequiredValueShowsEngineErrorAtField();
    void invalidValueRejectedByLauncherShowsErrorAtField();
    void secretIsReplacedAndRemovedExplicitly();
    void emptySecretInputChangesNothing();

private:
    template <typename T> T *field(const QString &id)
    {
        return m_window->findChild<T *>(QStringLiteral("field_") + id);
    }
    QPushButton *button(const QString &name) { return m_window->findChild<QPushButton *>(name); }
    bool progressRunning()
    {
        return m_window->findChild<ActivationProgress *>(QStringLiteral("activationProgress"))->isRunning();
    }
    void selectEveryField()
    {
        GuiTest::selectBackend(*m_window, QStringLiteral("every-field"), QStringLiteral("project"));
    }

    QTemporaryDir m_home;
    std::unique_ptr<StudioHarness> m_harness;
    std::unique_ptr<MainWindow> m_window;
};

void TestSchemaForm::initTestCase()
{
    QVERIFY(m_home.isValid());
    GuiTest::isolateUserConfig(m_home);
}

void TestSchemaForm::init()
{
    m_harness = std::make_unique<StudioHarness>();
    m_window = std::make_unique<MainWindow>(m_harness->client(), nullptr);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestSchemaForm::cleanup()
{
    m_window.reset();
    m_harness.reset();
}

void TestSchemaForm::rendersEveryFieldType()
{
    selectEveryField();
    if (QTest::currentTestFailed())
        return;

    auto *project = field<QLineEdit>(QStringLiteral("project"));
    QVERIFY(project);
    QCOMPARE(m_window->findChild<QLabel *>(QStringLiteral("field_project_label"))->text(), QStringLiteral("Project *"));
    QCOMPARE(project->toolTip(), QStringLiteral("The project the sandboxes belong to."));
    QCOMPARE(project->accessibleName(), QStringLiteral("Project"));

    auto *endpoint = field<QLineEdit>(QStringLiteral("endpoint"));
    QVERIFY(endpoint);
    // The default is the placeholder, and the initial value when the engine fills it in.
    QCOMPARE(endpoint->placeholderText(), QStringLiteral("https://sandbox.test"));
    QVERIFY(endpoint->text().isEmpty() || endpoint->text() == QStringLiteral("https://sandbox.test"));

    auto *workers = field<QSpinBox>(QStringLiteral("workers"));
    QVERIFY(workers);
    QCOMPARE(workers->minimum(), 1);
    QCOMPARE(workers->maximum(), 16);
    QCOMPARE(workers->value(), 4);

    auto *ratio = field<QDoubleSpinBox>(QStringLiteral("ratio"));
    QVERIFY(ratio);
    QCOMPARE(ratio->minimum(), 0.1);
    QCOMPARE(ratio->maximum(), 1.0);
    QCOMPARE(ratio->value(), 0.5);

    auto *verbose = field<QCheckBox>(QStringLiteral("verbose"));
    QVERIFY(verbose);
    QCOMPARE(verbose->text(), QStringLiteral("Verbose logging"));
    QVERIFY(!verbose->isChecked());

    auto *region = field<QComboBox>(QStringLiteral("region"));
    QVERIFY(region);
    QCOMPARE(region->count(), 3);
    QCOMPARE(region->currentText(), QStringLiteral("Europe"));
    QCOMPARE(region->currentData().toString(), QStringLiteral("eu"));

    auto *apiKey = field<SecretField>(QStringLiteral("apiKey"));
    QVERIFY(apiKey);
    QCOMPARE(m_window->findChild<QLabel *>(QStringLiteral("field_apiKey_label"))->text(), QStringLiteral("API key *"));
    QCOMPARE(m_window->findChild<QLabel *>(QStringLiteral("field_apiKey_status"))->text(), QStringLiteral("Not set"));
    QVERIFY(button(QStringLiteral("field_apiKey_replace"))->isVisible());
    QVERIFY(!m_window->findChild<QLineEdit *>(QStringLiteral("field_apiKey_input"))->isVisible());
    // Nothing to remove while nothing is stored.
    QVERIFY(!button(QStringLiteral("field_apiKey_remove"))->isEnabled());

    // An untouched form is not dirty: nothing to save yet.
    QVERIFY(!button(QStringLiteral("saveSettingsButton"))->isEnabled());
    QVERIFY(WidgetWalk::unnamedInteractiveWidgets(m_window.get()).isEmpty());
}

void TestSchemaForm::showsExplicitNoSettingsState()
{
    GuiTest::selectBackend(*m_window, QStringLiteral("plain"));
    if (QTest::currentTestFailed())
        return;
    auto *empty = m_window->findChild<QLabel *>(QStringLiteral("schemaFormEmpty"));
    QVERIFY(empty->isVisible());
    QCOMPARE(empty->text(), QStringLiteral("This backend has no settings."));
    QVERIFY(!m_window->findChild<QWidget *>(QStringLiteral("schemaFormFields")));
}

void TestSchemaForm::spinBoxIgnoresWheelUntilFocused()
{
    selectEveryField();
    if (QTest::currentTestFailed())
        return;
    auto *workers = field<QSpinBox>(QStringLiteral("workers"));
    auto wheel = [workers] {
        const QPointF pos = workers->rect().center();
        QWheelEvent event(pos, workers->mapToGlobal(pos), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(workers, &event);
    };
    m_window->findChild<QLineEdit *>(QStringLiteral("field_project"))->setFocus();
    QTRY_VERIFY(!workers->hasFocus());
    wheel();
    QCOMPARE(workers->value(), 4);
    QVERIFY(!workers->hasFocus()); // the wheel alone does not focus it either

    workers->setFocus();
    QTRY_VERIFY(workers->hasFocus());
    wheel();
    QCOMPARE(workers->value(), 5);
}

void TestSchemaForm::missingRequiredValueShowsEngineErrorAtField()
{
    selectEveryField();
    if (QTest::currentTestFailed())
        return;
    // Change something, leave the required project empty, save.
    auto *workers = field<QSpinBox>(QStringLiteral("workers"));
    workers->setFocus();
    workers->selectAll();
    QTest::keyClicks(workers, QStringLiteral("7"));
    QTest::keyClick(workers, Qt::Key_Tab);
    QTRY_VERIFY(button(QStringLiteral("saveSettingsButton"))->isEnabled());
    QTest::mouseClick(button(QStringLiteral("saveSettingsButton")), Qt::LeftButton);

    auto *error = m_window->findChild<QLabel *>(QStringLiteral("field_project_error"));
    QTRY_VERIFY(error->isVisible());
    QVERIFY(!error->text().isEmpty());
    QVERIFY(!m_window->findChild<QLabel *>(QStringLiteral("field_workers_error"))->isVisible());
    QTRY_VERIFY(
        m_window->findChild<QLabel *>(QStringLiteral("backendStatus"))->text().contains(QStringLiteral("not saved")));

    // Nothing was stored.
    const auto stored
        = StudioHarness::await(m_harness->client()->settings(TestPack::ref(QStringLiteral("every-field"))));
    QVERIFY(stored.ok());
    QVERIFY(stored.value().values.values.value(QStringLiteral("workers")).toInt() != 7);

    // Typing into the field clears its error.
    QTest::keyClicks(field<QLineEdit>(QStringLiteral("project")), QStringLiteral("demo"));
    QVERIFY(!error->isVisible());
}

void TestSchemaForm::invalidValueRejectedByLauncherShowsErrorAtField()
{
    selectEveryField();
    if (QTest::currentTestFailed())
        return;
    QTest::keyClicks(field<QLineEdit>(QStringLiteral("project")), QStringLiteral("demo"));
    auto *endpoint = field<QLineEdit>(QStringLiteral("endpoint"));
    endpoint->selectAll();
    QTest::keyClicks(endpoint, QStringLiteral("ftp://plain.example"));
    QCOMPARE(endpoint->text(), QStringLiteral("ftp://plain.example"));
    QTest::mouseClick(button(QStringLiteral("field_apiKey_replace")), Qt::LeftButton);
    QTest::keyClicks(m_window->findChild<QLineEdit *>(QStringLiteral("field_apiKey_input")), QStringLiteral("k-123"));
    QTRY_VERIFY(button(QStringLiteral("activateButton"))->isEnabled());
    QTest::mouseClick(button(QStringLiteral("activateButton")), Qt::LeftButton);

    auto error = [this] { return m_window->findChild<QLabel *>(QStringLiteral("field_endpoint_error")); };
    QTRY_VERIFY_WITH_TIMEOUT(!progressRunning(), 20000);
    QVERIFY(error());
    QVERIFY2(error()->isVisible(),
             qPrintable(m_window->findChild<QLabel *>(QStringLiteral("activationSummary"))->text()));
    QVERIFY2(error()->text().contains(QStringLiteral("https://")), qPrintable(error()->text()));
    QVERIFY(!m_harness->engine().activeRef().has_value());
}

void TestSchemaForm::secretIsReplacedAndRemovedExplicitly()
{
    const QString secret = QStringLiteral("s3cr3t-VALUE-42");
    const BackendRef ref = TestPack::ref(QStringLiteral("every-field"));
    selectEveryField();
    if (QTest::currentTestFailed())
        return;

    QTest::keyClicks(field<QLineEdit>(QStringLiteral("project")), QStringLiteral("demo"));
    QTest::mouseClick(button(QStringLiteral("field_apiKey_replace")), Qt::LeftButton);
    auto *input = m_window->findChild<QLineEdit *>(QStringLiteral("field_apiKey_input"));
    QTRY_VERIFY(input->isVisible());
    QCOMPARE(input->echoMode(), QLineEdit::Password);
    QTest::keyClicks(input, secret);
    QVERIFY(!input->displayText().contains(secret));

    // Show/hide toggles the mask.
    QAction *reveal = input->findChild<QAction *>(QStringLiteral("field_apiKey_reveal"));
    QVERIFY(reveal);
    reveal->trigger();
    QCOMPARE(input->echoMode(), QLineEdit::Normal);
    reveal->trigger();
    QCOMPARE(input->echoMode(), QLineEdit::Password);

    QTRY_VERIFY(button(QStringLiteral("saveSettingsButton"))->isEnabled());
    QTest::mouseClick(button(QStringLiteral("saveSettingsButton")), Qt::LeftButton);
    auto status = [this] { return m_window->findChild<QLabel *>(QStringLiteral("field_apiKey_status")); };
    QTRY_VERIFY_WITH_TIMEOUT(status() && status()->text() == QStringLiteral("Configured"), 20000);

    auto view = StudioHarness::await(m_harness->client()->settings(ref));
    QVERIFY(view.ok());
    QVERIFY(view.value().secretsConfigured.value(QStringLiteral("apiKey")));
    QCOMPARE(view.value().values.values.value(QStringLiteral("project")).toString(), QStringLiteral("demo"));
    for (const QString &text : WidgetWalk::texts(m_window.get()))
        QVERIFY2(!text.contains(secret), qPrintable(QStringLiteral("the secret shows in: ") + text));

    // Remove is explicit, and is only done once saved.
    QTRY_VERIFY(button(QStringLiteral("field_apiKey_remove"))->isEnabled());
    QTest::mouseClick(button(QStringLiteral("field_apiKey_remove")), Qt::LeftButton);
    QVERIFY(status()->text().contains(QStringLiteral("removed")));
    view = StudioHarness::await(m_harness->client()->settings(ref));
    QVERIFY(view.value().secretsConfigured.value(QStringLiteral("apiKey")));
    QTRY_VERIFY(button(QStringLiteral("saveSettingsButton"))->isEnabled());
    QTest::mouseClick(button(QStringLiteral("saveSettingsButton")), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(status() && status()->text() == QStringLiteral("Not set"), 20000);
    view = StudioHarness::await(m_harness->client()->settings(ref));
    QVERIFY(!view.value().secretsConfigured.value(QStringLiteral("apiKey")));
    for (const QString &text : WidgetWalk::texts(m_window.get()))
        QVERIFY2(!text.contains(secret), qPrintable(QStringLiteral("the secret shows in: ") + text));
}

void TestSchemaForm::emptySecretInputChangesNothing()
{
    const BackendRef ref = TestPack::ref(QStringLiteral("every-field"));
    SettingsValues values;
    values.values.insert(QStringLiteral("project"), QStringLiteral("demo"));
    const Status stored = StudioHarness::await(m_harness->client()->updateSettings(
        ref, values,
        { SecretUpdate{ QStringLiteral("apiKey"), SecretUpdate::Action::Replace, QStringLiteral("kept") } }));
    QVERIFY2(stored.ok(), qPrintable(stored.ok() ? QString() : stored.error().toString()));

    selectEveryField();
    if (QTest::currentTestFailed())
        return;
    auto *status = m_window->findChild<QLabel *>(QStringLiteral("field_apiKey_status"));
    QTRY_COMPARE(status->text(), QStringLiteral("Configured"));
    QTest::mouseClick(button(QStringLiteral("field_apiKey_replace")), Qt::LeftButton);
    // An opened but empty replacement is no change: nothing to save.
    QVERIFY(!button(QStringLiteral("saveSettingsButton"))->isEnabled());
    QVERIFY(m_window->findChild<SchemaForm *>(QStringLiteral("schemaForm"))->secretUpdates().isEmpty());
    QTest::mouseClick(button(QStringLiteral("field_apiKey_cancel")), Qt::LeftButton);
    QCOMPARE(status->text(), QStringLiteral("Configured"));
    const auto view = StudioHarness::await(m_harness->client()->settings(ref));
    QVERIFY(view.value().secretsConfigured.value(QStringLiteral("apiKey")));
}

QTEST_MAIN(TestSchemaForm)
#include "tst_schemaform.moc"
