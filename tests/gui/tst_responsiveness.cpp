// Studio's window only presents: the engine, its protocol server and its socket server
// run on their own thread (EngineThread, as EngineProvider runs them in the application). With
// a keychain and a launcher that block until the test releases them, the window keeps
// handling input and repainting, and finishes the activation correctly once released.
#include "BackendList.h"
#include "GuiTest.h"
#include "MainWindow.h"
#include "SchemaForm.h"
#include "client/Client.h"
#include "core/secrets/KeychainSecretStore.h"
#include "server/EngineThread.h"

#include <QKeyEvent>
#include <QLineEdit>
#include <QListWidget>
#include <QPromise>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QWaitCondition>
#include <QtConcurrent/QtConcurrentRun>

using namespace sandbox;
using namespace sandbox::test;

namespace {

// Holds every caller until the test opens it; counts who waits.
class Gate final
{
public:
    void pass()
    {
        QMutexLocker locker(&m_mutex);
        ++m_waiting;
        while (!m_open)
            m_opened.wait(&m_mutex);
        --m_waiting;
    }
    void open()
    {
        QMutexLocker locker(&m_mutex);
        m_open = true;
        m_opened.wakeAll();
    }
    int waiting() const
    {
        QMutexLocker locker(&m_mutex);
        return m_waiting;
    }

private:
    mutable QMutex m_mutex;
    QWaitCondition m_opened;
    bool m_open = false;
    int m_waiting = 0;
};

// The real OS keychain, behind a gate: every call waits until the test opens it, as a
// keychain waiting for an unlock prompt does.
class GatedKeychain final : public SecretStore
{
public:
    GatedKeychain(QString service, Gate &gate)
        : m_keychain(std::move(service))
        , m_gate(gate)
    { }

    Result<bool> isConfigured(const BackendRef &ref, const QString &fieldId) override
    {
        m_gate.pass();
        return m_keychain.isConfigured(ref, fieldId);
    }
    Result<std::optional<QString>> read(const BackendRef &ref, const QString &fieldId) override
    {
        m_gate.pass();
        return m_keychain.read(ref, fieldId);
    }
    Status write(const BackendRef &ref, const QString &fieldId, const QString &value) override
    {
        m_gate.pass();
        return m_keychain.write(ref, fieldId, value);
    }
    Status remove(const BackendRef &ref, const QString &fieldId) override
    {
        m_gate.pass();
        return m_keychain.remove(ref, fieldId);
    }
    bool isInsecure() const override { return false; }
    QString location() const override { return m_keychain.location(); }

private:
    KeychainSecretStore m_keychain;
    Gate &m_gate;
};

// A launcher whose prepare() answers only once the test opens its gate. It runs nothing.
class GatedLauncher final : public Launcher
{
public:
    explicit GatedLauncher(Gate &gate)
        : m_gate(gate)
    { }

    QString kind() const override { return QStringLiteral("gated"); }
    BackendDescriptor descriptor() const override
    {
        BackendDescriptor descriptor;
        descriptor.name = QStringLiteral("Gated test launcher");
        descriptor.fields
            = { FieldSpec::make(QStringLiteral("token"), FieldSpec::Type::Secret, QStringLiteral("Token")) };
        // Every dimension holds: this launcher runs no command at all.
        for (const QString &dimension : BackendDescriptor::enforcementDimensions())
            descriptor.enforcement.insert(dimension,
                                          QStringLiteral("nothing runs: this test launcher runs no commands"));
        return descriptor;
    }
    QFuture<Status> configure(const ResolvedSettings &) override { return QtFuture::makeReadyFuture(Status()); }
    QFuture<Status> prepare() override
    {
        return QtConcurrent::run([this] {
            m_gate.pass();
            return Status();
        });
    }
    QFuture<Availability> isAvailable() override { return QtFuture::makeReadyFuture(Availability{ true, {} }); }
    Result<std::shared_ptr<SandboxProcess>> spawn(const SpawnRequest &, const Policy &) override
    {
        return Error{ kind(), QStringLiteral("this launcher runs nothing"), {} };
    }
    QFuture<Status> disposeIdle() override { return QtFuture::makeReadyFuture(Status()); }

private:
    Gate &m_gate;
};

class PaintCounter final : public QObject
{
public:
    int paints = 0;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint)
            ++paints;
        return QObject::eventFilter(watched, event);
    }
};

} // namespace

class TestResponsiveness final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void windowAnswersWhileKeychainAndLauncherBlock();

private:
    // Input posted to the window (only a running event loop delivers it) arrives, and a
    // repaint asked for happens.
    void expectResponsive(MainWindow &window, PaintCounter &counter, const QString &typed);

    QTemporaryDir m_home;
};

void TestResponsiveness::initTestCase()
{
    QVERIFY(m_home.isValid());
    GuiTest::isolateUserConfig(m_home);
}

void TestResponsiveness::expectResponsive(MainWindow &window, PaintCounter &counter, const QString &typed)
{
    auto *input = window.findChild<QLineEdit *>(QStringLiteral("policyReadableInput"));
    QVERIFY(input);
    input->clear();
    for (const QChar c : typed) {
        QCoreApplication::postEvent(input, new QKeyEvent(QEvent::KeyPress, 0, Qt::NoModifier, QString(c)));
        QCoreApplication::postEvent(input, new QKeyEvent(QEvent::KeyRelease, 0, Qt::NoModifier, QString(c)));
    }
    QTRY_COMPARE(input->text(), typed);
    const int before = counter.paints;
    window.update();
    QTRY_VERIFY(counter.paints > before);
}

void TestResponsiveness::windowAnswersWhileKeychainAndLauncherBlock()
{
    QTemporaryDir dir;
    Gate keychainGate;
    Gate launcherGate;
    EngineThread::Options options;
    options.engine.configDirectory = dir.filePath(QStringLiteral("config"));
    options.engine.stateDirectory = dir.filePath(QStringLiteral("state"));
    options.engine.secretStore = std::make_shared<GatedKeychain>(
        QStringLiteral("sandbox-studio-responsiveness-%1").arg(QCoreApplication::applicationPid()), keychainGate);
    options.setUp = [&launcherGate](Engine &engine) {
        const Status registered = engine.registerBuiltin(
            QStringLiteral("gated"), [&launcherGate] { return std::make_shared<GatedLauncher>(launcherGate); });
        if (!registered.ok())
            qFatal("registering the gated launcher failed: %s", qPrintable(registered.error().toString()));
    };
    EngineThread engine(options);
    QSignalSpy ready(&engine, &EngineThread::ready);
    engine.start();
    std::unique_ptr<Client> client = engine.createClient();
    QVERIFY(ready.wait(20000));

    MainWindow window(client.get(), nullptr);
    PaintCounter counter;
    window.installEventFilter(&counter);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    // The user picks the backend (its form needs the keychain) and activates it with a token.
    const BackendRef gated = BackendRef::builtin(QStringLiteral("gated"));
    auto *list = window.findChild<BackendList *>(QStringLiteral("backendList"));
    QVERIFY(list);
    QTRY_VERIFY(list->count() > 0);
    QListWidgetItem *item = nullptr;
    for (int i = 0; i < list->count(); ++i) {
        if (list->item(i)->data(Qt::UserRole).toString() == gated.toString())
            item = list->item(i);
    }
    QVERIFY(item);
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(item).center());
    QSignalSpy finished(client.get(), &Client::activationFinished);
    const QFuture<Result<ActivationResult>> activation = client->activate(
        gated, std::nullopt,
        { SecretUpdate{ QStringLiteral("token"), SecretUpdate::Action::Replace, QStringLiteral("t0k3n") } });

    // The keychain blocks the engine: the window still answers.
    QTRY_VERIFY_WITH_TIMEOUT(keychainGate.waiting() >= 1, 20000);
    expectResponsive(window, counter, QStringLiteral("/srv/keychain-blocked"));
    QVERIFY(!activation.isFinished());

    // The keychain answers; the launcher's prepare() blocks: the window still answers.
    keychainGate.open();
    QTRY_VERIFY_WITH_TIMEOUT(launcherGate.waiting() == 1, 20000);
    expectResponsive(window, counter, QStringLiteral("/srv/launcher-blocked"));
    QVERIFY(!activation.isFinished());

    // Released, everything finishes as it would have at once.
    launcherGate.open();
    QTRY_VERIFY_WITH_TIMEOUT(activation.isFinished(), 20000);
    QVERIFY(activation.result().ok());
    QVERIFY2(activation.result().value().ok, qPrintable(activation.result().value().error.toString()));
    QTRY_COMPARE(finished.count(), 1);
    auto *form = window.findChild<SchemaForm *>(QStringLiteral("schemaForm"));
    QTRY_VERIFY_WITH_TIMEOUT(form->hasSchema(), 20000);
    const QFuture<Result<SettingsView>> settings = client->settings(gated);
    QTRY_VERIFY_WITH_TIMEOUT(settings.isFinished(), 20000);
    const Result<SettingsView> view = settings.result();
    QVERIFY(view.ok());
    QVERIFY(view.value().secretsConfigured.value(QStringLiteral("token")));
    QCOMPARE(engine.engine()->activeRef(), std::optional<BackendRef>(gated));

    window.close();
    client.reset();
    engine.stop();
    // The keychain entry this test made is removed.
    KeychainSecretStore(QStringLiteral("sandbox-studio-responsiveness-%1").arg(QCoreApplication::applicationPid()))
        .remove(gated, QStringLiteral("token"));
}

QTEST_MAIN(TestResponsiveness)
#include "tst_responsiveness.moc"
