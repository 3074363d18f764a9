// E2B's settings form in Studio, rendered from the Power Pack's descriptor: the API key is
// typed into the generic secret field, the local E2B (tests/e2b/local-e2b-server.mjs) is
// set as the API and sandbox URL, and the backend activates; the key field then says
// only that a key is configured. An API that cannot be reached fails the activation with
// its cause, not as an error of the key field; a refused key is the key field's error.
#include "ActivationProgress.h"
#include "GuiTest.h"
#include "MainWindow.h"
#include "SchemaForm.h"
#include "StudioHarness.h"
#include "WidgetWalk.h"
#include "client/Client.h"

#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QPushButton>
#include <QRandomGenerator>
#include <QStandardPaths>

using namespace sandbox;
using namespace sandbox::test;

namespace {

const BackendRef e2b = BackendRef::atomPack(QStringLiteral("power-pack"), QStringLiteral("e2b"));

void typeInto(QLineEdit *field, const QString &text)
{
    field->clear();
    QTest::keyClicks(field, text);
}

} // namespace

class TestE2bForm final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void keyThroughTheSecretFieldActivates();
    void unreachableApiIsTheActivationsFailureNotTheKeys();

private:
    QTemporaryDir m_home;
    QProcess m_server;
    QString m_url;
    QString m_key;
};

void TestE2bForm::initTestCase()
{
    QVERIFY(m_home.isValid());
    GuiTest::isolateUserConfig(m_home);
    const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
    QVERIFY2(!node.isEmpty(), "node is needed for the local E2B (installer/install-deps.sh test)");
    m_key = QStringLiteral("e2b_") + QString::number(QRandomGenerator::global()->generate64(), 36);
    m_server.start(node,
                   { QStringLiteral(SANDBOX_LOCAL_E2B), QStringLiteral("--exit-with-stdin"), QStringLiteral("--key"),
                     m_key, QStringLiteral("--root"), m_home.filePath(QStringLiteral("e2b")) });
    QVERIFY(m_server.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(m_server.canReadLine(), 20000);
    const QByteArray line = m_server.readLine().trimmed();
    QVERIFY2(line.startsWith("listening on "), line.constData());
    m_url = QString::fromLatin1(line.mid(int(qstrlen("listening on "))));
}

void TestE2bForm::cleanupTestCase()
{
    m_server.terminate();
    if (!m_server.waitForFinished(10000))
        m_server.kill();
}

void TestE2bForm::keyThroughTheSecretFieldActivates()
{
    StudioHarness harness;
    MainWindow window(harness.client(), nullptr);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(StudioHarness::await(harness.client()->installPack(QStringLiteral(SANDBOX_POWER_PACK_DIR))).ok());

    GuiTest::clickBackend(window, e2b);
    if (QTest::currentTestFailed())
        return;
    auto *form = window.findChild<SchemaForm *>(QStringLiteral("schemaForm"));
    QTRY_VERIFY_WITH_TIMEOUT(form->hasSchema() && window.findChild<QWidget *>(QStringLiteral("field_apiKey")), 20000);
    for (const QString &id :
         { QStringLiteral("template"), QStringLiteral("domain"), QStringLiteral("apiUrl"), QStringLiteral("sandboxUrl"),
           QStringLiteral("timeoutSeconds"), QStringLiteral("workspace") })
        QVERIFY2(window.findChild<QWidget *>(QStringLiteral("field_") + id), qPrintable(id));
    QCOMPARE(window.findChild<QLineEdit *>(QStringLiteral("field_template"))->text(), QStringLiteral("base"));
    QCOMPARE(window.findChild<QLabel *>(QStringLiteral("field_apiKey_status"))->text(), QStringLiteral("Not set"));

    auto *replace = window.findChild<QPushButton *>(QStringLiteral("field_apiKey_replace"));
    QTRY_VERIFY(replace->isVisible());
    QTest::mouseClick(replace, Qt::LeftButton);
    auto *input = window.findChild<QLineEdit *>(QStringLiteral("field_apiKey_input"));
    QTRY_VERIFY(input->isVisible());
    QCOMPARE(input->echoMode(), QLineEdit::Password);
    typeInto(input, m_key);
    typeInto(window.findChild<QLineEdit *>(QStringLiteral("field_apiUrl")), m_url);
    typeInto(window.findChild<QLineEdit *>(QStringLiteral("field_sandboxUrl")), m_url);

    auto *activate = window.findChild<QPushButton *>(QStringLiteral("activateButton"));
    QTRY_VERIFY(activate->isEnabled());
    QTest::mouseClick(activate, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(harness.engine().activeRef(), std::optional<BackendRef>(e2b), 60000);
    // The form is rebuilt from the saved settings: the key is configured, its value is not shown.
    auto keyStatus = [&window] {
        auto *status = window.findChild<QLabel *>(QStringLiteral("field_apiKey_status"));
        return status ? status->text() : QString();
    };
    QTRY_COMPARE_WITH_TIMEOUT(keyStatus(), QStringLiteral("Configured"), 20000);
    auto *typed = window.findChild<QLineEdit *>(QStringLiteral("field_apiKey_input"));
    QVERIFY(typed);
    QVERIFY(typed->text().isEmpty());
}

void TestE2bForm::unreachableApiIsTheActivationsFailureNotTheKeys()
{
    StudioHarness harness;
    MainWindow window(harness.client(), nullptr);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(StudioHarness::await(harness.client()->installPack(QStringLiteral(SANDBOX_POWER_PACK_DIR))).ok());
    GuiTest::clickBackend(window, e2b);
    if (QTest::currentTestFailed())
        return;
    auto *form = window.findChild<SchemaForm *>(QStringLiteral("schemaForm"));
    QTRY_VERIFY_WITH_TIMEOUT(form->hasSchema() && window.findChild<QWidget *>(QStringLiteral("field_apiKey")), 20000);
    auto *replace = window.findChild<QPushButton *>(QStringLiteral("field_apiKey_replace"));
    QTRY_VERIFY(replace->isVisible());
    QTest::mouseClick(replace, Qt::LeftButton);
    auto *key = window.findChild<QLineEdit *>(QStringLiteral("field_apiKey_input"));
    QTRY_VERIFY(key->isVisible());
    typeInto(key, m_key);
    // ".invalid" never resolves (RFC 2606): the name lookup fails, as with no connection.
    const QString unreachable = QStringLiteral("https://e2b-api.invalid");
    typeInto(window.findChild<QLineEdit *>(QStringLiteral("field_apiUrl")), unreachable);
    typeInto(window.findChild<QLineEdit *>(QStringLiteral("field_sandboxUrl")), unreachable);

    auto *progress = window.findChild<ActivationProgress *>(QStringLiteral("activationProgress"));
    auto *activate = window.findChild<QPushButton *>(QStringLiteral("activateButton"));
    QTRY_VERIFY(activate->isEnabled());
    QTest::mouseClick(activate, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!progress->isRunning() && !progress->summary().isEmpty(), 60000);
    QVERIFY(!harness.engine().activeRef());
    // The cause, where the activation's outcome is told ...
    QVERIFY2(progress->summary().contains(QStringLiteral("e2b-api.invalid")), qPrintable(progress->summary()));
    QVERIFY2(progress->summary().contains(QStringLiteral("cannot be used")), qPrintable(progress->summary()));
    // ... and not under the key field, which holds nothing wrong.
    auto *keyError = window.findChild<QLabel *>(QStringLiteral("field_apiKey_error"));
    QVERIFY(keyError);
    QVERIFY2(!keyError->isVisible(), qPrintable(keyError->text()));
    QVERIFY(form->fieldError(QStringLiteral("apiKey")).isEmpty());
    QVERIFY2(window.findChild<QLabel *>(QStringLiteral("backendStatus"))->text().contains(QStringLiteral("Activation")),
             qPrintable(window.findChild<QLabel *>(QStringLiteral("backendStatus"))->text()));
    WidgetWalk::saveScreenshot(&window, QStringLiteral("e2b-unreachable"));

    // A key the reachable API refuses is the key field's error.
    typeInto(window.findChild<QLineEdit *>(QStringLiteral("field_apiUrl")), m_url);
    typeInto(window.findChild<QLineEdit *>(QStringLiteral("field_sandboxUrl")), m_url);
    key = window.findChild<QLineEdit *>(QStringLiteral("field_apiKey_input"));
    if (!key->isVisible()) {
        QTest::mouseClick(window.findChild<QPushButton *>(QStringLiteral("field_apiKey_replace")), Qt::LeftButton);
        QTRY_VERIFY(key->isVisible());
    }
    typeInto(key, QStringLiteral("e2b_refused"));
    QTRY_VERIFY(activate->isEnabled());
    QTest::mouseClick(activate, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(keyError->isVisible(), 60000);
    QVERIFY(!harness.engine().activeRef());
}

QTEST_MAIN(TestE2bForm)
#include "tst_e2bform.moc"
