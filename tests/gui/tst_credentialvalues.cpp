// The values of the policy's credentials in Studio's policy panel: whether each is
// configured, set through a secret field that never shows the value back (and is cleared
// once saved), removed, refused with the reason in the credential's own row, and changes
// made by another client (sandboxctl) followed live. A real engine, the real keychain.
#include "GuiTest.h"
#include "PolicyPanel.h"
#include "StudioHarness.h"
#include "WidgetWalk.h"
#include "client/Client.h"
#include "server/LocalServer.h"

#include <QApplication>
#include <QClipboard>
#include <QDirIterator>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>

using namespace sandbox;
using namespace sandbox::test;

class TestCredentialValues final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void settingAValueConfiguresItAndNeverShowsIt();
    void removingAValue();
    void refusedValueIsSaidInItsRowAndChangesNothing();
    void lockedKeychainIsSaidInItsRowAndChangesNothing();
    void changesByAnotherClientAppear();
    void everyInteractiveWidgetIsNamed();

private:
    template <typename T> T *child(const QString &name) { return m_window->findChild<T *>(name); }
    QString status(const QString &credential)
    {
        auto *label = child<QLabel>(QStringLiteral("credential_%1_status").arg(credential));
        return label ? label->text() : QString();
    }
    // Whether the engine holds a value for `name`, as every client reads it.
    bool configured(const QString &name);
    // Runs sandboxctl against this test's engine with `input` on its stdin; its output.
    QString sandboxctl(const QStringList &args, const QByteArray &input = {});
    // Nothing the window shows or exposes, and no file of the engine's, holds `value`.
    void verifyNowhere(const QString &value);
    // Locks or unlocks the session's login keyring (tests/keyring-lock.py); its exit status.
    int keyring(const QString &action);

    QTemporaryDir m_home;
    std::unique_ptr<StudioHarness> m_harness;
    std::unique_ptr<MainWindow> m_window;
    QString m_token;
    bool m_locked = false;
};

void TestCredentialValues::initTestCase()
{
    QVERIFY(m_home.isValid());
    GuiTest::isolateUserConfig(m_home);
}

void TestCredentialValues::init()
{
    m_harness = std::make_unique<StudioHarness>();
    Policy policy = m_harness->engine().policy();
    PolicyCredential github;
    github.name = QStringLiteral("github");
    github.env = QStringLiteral("GITHUB_TOKEN");
    github.hosts = { QStringLiteral("github.com"), QStringLiteral("*.github.com") };
    PolicyCredential npm;
    npm.name = QStringLiteral("npm");
    npm.hosts = { QStringLiteral("registry.npmjs.org") };
    policy.credentials = { github, npm };
    policy.network = Policy::NetworkMode::Allowlist;
    policy.allowedDomains = { QStringLiteral("github.com"), QStringLiteral("registry.npmjs.org") };
    const Status set = m_harness->engine().setPolicy(policy);
    QVERIFY2(set.ok(), qPrintable(set.ok() ? QString() : set.error().toString()));
    m_token = QStringLiteral("ghp_Studio%1Token").arg(QCoreApplication::applicationPid());

    m_window = std::make_unique<MainWindow>(m_harness->client(), nullptr);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QTRY_VERIFY(child<PolicyPanel>(QStringLiteral("policyPanel"))->isEnabled());
    QTRY_COMPARE(status(QStringLiteral("github")), QStringLiteral("Not set"));
    QTRY_COMPARE(status(QStringLiteral("npm")), QStringLiteral("Not set"));
}

void TestCredentialValues::cleanup()
{
    if (m_locked)
        keyring(QStringLiteral("unlock"));
    m_window.reset();
    m_harness.reset();
}

bool TestCredentialValues::configured(const QString &name)
{
    const Result<QList<CredentialInfo>> list = m_harness->engine().credentials();
    if (!list.ok())
        return false;
    for (const CredentialInfo &info : list.value()) {
        if (info.name == name)
            return info.configured;
    }
    return false;
}

QString TestCredentialValues::sandboxctl(const QStringList &args, const QByteArray &input)
{
    QTemporaryDir run;
    LocalServer local(m_harness->server());
    const QString socket = run.filePath(QStringLiteral("run/engine.sock"));
    if (const Status listening = local.listen(socket); !listening.ok())
        return listening.error().toString();
    // sandboxctl runs while this thread's event loop serves its requests.
    QProcess ctl;
    ctl.setProcessEnvironment(QProcessEnvironment::systemEnvironment());
    ctl.start(QCoreApplication::applicationDirPath() + QStringLiteral("/sandboxctl"),
              QStringList{ QStringLiteral("--socket"), socket } + args);
    ctl.write(input);
    ctl.closeWriteChannel();
    QSignalSpy finished(&ctl, &QProcess::finished);
    if (!QTest::qWaitFor([&finished] { return finished.count() > 0; }, 30000))
        return QStringLiteral("sandboxctl did not finish");
    return QString::fromUtf8(ctl.readAllStandardOutput() + ctl.readAllStandardError());
}

void TestCredentialValues::verifyNowhere(const QString &value)
{
    for (const QString &text : WidgetWalk::texts(m_window.get()))
        QVERIFY2(!text.contains(value), qPrintable(text));
    QDirIterator files(m_harness->directory(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (files.hasNext()) {
        QFile file(files.next());
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
        QVERIFY2(!file.readAll().contains(value.toUtf8()), qPrintable(file.fileName()));
    }
}

int TestCredentialValues::keyring(const QString &action)
{
    m_locked = action == QLatin1String("lock");
    return QProcess::execute(QStringLiteral(SANDBOX_SOURCE_DIR "/tests/keyring-lock.py"), { action });
}

void TestCredentialValues::settingAValueConfiguresItAndNeverShowsIt()
{
    auto *save = child<QPushButton>(QStringLiteral("credential_github_save"));
    QVERIFY(!save->isEnabled());
    QTest::mouseClick(child<QPushButton>(QStringLiteral("credential_github_replace")), Qt::LeftButton);
    auto *input = child<QLineEdit>(QStringLiteral("credential_github_input"));
    QTRY_VERIFY(input->isVisible());
    QCOMPARE(input->echoMode(), QLineEdit::Password);
    QTest::keyClicks(input, m_token);
    QCOMPARE(status(QStringLiteral("github")), QStringLiteral("Not set — will be set when saved"));
    QVERIFY(save->isEnabled());
    QVERIFY(!configured(QStringLiteral("github")));

    QTest::mouseClick(save, Qt::LeftButton);
    QTRY_VERIFY(configured(QStringLiteral("github")));
    QTRY_COMPARE(status(QStringLiteral("github")), QStringLiteral("Configured"));
    QCOMPARE(child<QLabel>(QStringLiteral("credential_github_outcome"))->text(), QStringLiteral("Value saved."));
    // The field is cleared and put away; nothing shows the value, nothing holds it on disk.
    QVERIFY(input->text().isEmpty());
    QVERIFY(!input->isVisible());
    QVERIFY(!save->isEnabled());
    verifyNowhere(m_token);
    // The other credential is untouched.
    QVERIFY(!configured(QStringLiteral("npm")));
    QCOMPARE(status(QStringLiteral("npm")), QStringLiteral("Not set"));

    // Enter saves as well; a replacement keeps the credential configured.
    QTest::mouseClick(child<QPushButton>(QStringLiteral("credential_github_replace")), Qt::LeftButton);
    QTest::keyClicks(input, m_token + QStringLiteral("2"));
    QTest::keyClick(input, Qt::Key_Return);
    QTRY_VERIFY(!input->isVisible());
    QTRY_COMPARE(child<QLabel>(QStringLiteral("credential_github_outcome"))->text(), QStringLiteral("Value saved."));
    QVERIFY(configured(QStringLiteral("github")));
    verifyNowhere(m_token);
    WidgetWalk::saveScreenshot(m_window.get(), QStringLiteral("policy-credential-values"));
}

void TestCredentialValues::removingAValue()
{
    const Status stored = StudioHarness::await(m_harness->client()->setCredential(QStringLiteral("npm"), m_token));
    QVERIFY2(stored.ok(), qPrintable(stored.ok() ? QString() : stored.error().toString()));
    QTRY_COMPARE(status(QStringLiteral("npm")), QStringLiteral("Configured"));

    QTest::mouseClick(child<QPushButton>(QStringLiteral("credential_npm_remove")), Qt::LeftButton);
    QCOMPARE(status(QStringLiteral("npm")), QStringLiteral("Configured — will be removed when saved"));
    // Cancel keeps it ...
    QTest::mouseClick(child<QPushButton>(QStringLiteral("credential_npm_cancel")), Qt::LeftButton);
    QCOMPARE(status(QStringLiteral("npm")), QStringLiteral("Configured"));
    QVERIFY(!child<QPushButton>(QStringLiteral("credential_npm_save"))->isEnabled());
    QVERIFY(configured(QStringLiteral("npm")));
    // ... Save after Remove takes it away.
    QTest::mouseClick(child<QPushButton>(QStringLiteral("credential_npm_remove")), Qt::LeftButton);
    QTest::mouseClick(child<QPushButton>(QStringLiteral("credential_npm_save")), Qt::LeftButton);
    QTRY_VERIFY(!configured(QStringLiteral("npm")));
    QTRY_COMPARE(status(QStringLiteral("npm")), QStringLiteral("Not set"));
    QCOMPARE(child<QLabel>(QStringLiteral("credential_npm_outcome"))->text(), QStringLiteral("Value removed."));
    QVERIFY(!child<QPushButton>(QStringLiteral("credential_npm_remove"))->isEnabled());

    // A value stored for a name the policy does not know is listed, said to be unused, and
    // once removed its row goes.
    const Status orphan = StudioHarness::await(m_harness->client()->setCredential(QStringLiteral("old-ci"), m_token));
    QVERIFY2(orphan.ok(), qPrintable(orphan.ok() ? QString() : orphan.error().toString()));
    QTRY_COMPARE(status(QStringLiteral("old-ci")), QStringLiteral("Configured"));
    QVERIFY(child<QLabel>(QStringLiteral("credential_old-ci_where"))
                ->text()
                .startsWith(QStringLiteral("Not in the policy: this stored value is not used.")));
    QTest::mouseClick(child<QPushButton>(QStringLiteral("credential_old-ci_remove")), Qt::LeftButton);
    QTest::mouseClick(child<QPushButton>(QStringLiteral("credential_old-ci_save")), Qt::LeftButton);
    QTRY_VERIFY(!child<QWidget>(QStringLiteral("credential_old-ci_row")));
    const Result<QList<CredentialInfo>> left = m_harness->engine().credentials();
    QVERIFY(left.ok());
    QCOMPARE(left.value().size(), 2);
}

// A token copied with its line break (as a terminal's selection often has it) cannot go
// into a header: the engine refuses it, the row says so, and nothing is stored.
void TestCredentialValues::refusedValueIsSaidInItsRowAndChangesNothing()
{
    QTest::mouseClick(child<QPushButton>(QStringLiteral("credential_github_replace")), Qt::LeftButton);
    auto *input = child<QLineEdit>(QStringLiteral("credential_github_input"));
    QTRY_VERIFY(input->isVisible());
    QApplication::clipboard()->setText(m_token + QStringLiteral("\n"));
    input->setFocus();
    QTest::keySequence(input, QKeySequence::Paste);
    QVERIFY(!input->text().isEmpty());
    QTest::mouseClick(child<QPushButton>(QStringLiteral("credential_github_save")), Qt::LeftButton);

    auto *outcome = child<QLabel>(QStringLiteral("credential_github_outcome"));
    QTRY_VERIFY(outcome->isVisible()
                && outcome->text().startsWith(QStringLiteral("The value of github was not saved")));
    QVERIFY2(outcome->text().contains(QStringLiteral("control character")), qPrintable(outcome->text()));
    QVERIFY2(!outcome->text().contains(m_token), qPrintable(outcome->text()));
    QVERIFY(!configured(QStringLiteral("github")));
    // Said in the credential's row only: the policy's own error line stays hidden.
    QVERIFY(!child<QLabel>(QStringLiteral("policyError"))->isVisible());
    QVERIFY(!child<QLabel>(QStringLiteral("credential_npm_outcome"))->isVisible());
    // The user's choice stays, to correct and save again.
    QCOMPARE(status(QStringLiteral("github")), QStringLiteral("Not set — will be set when saved"));
    QVERIFY(child<QPushButton>(QStringLiteral("credential_github_save"))->isEnabled());

    input->clear();
    QTest::keyClicks(input, m_token);
    QVERIFY(!outcome->isVisible());
    QTest::mouseClick(child<QPushButton>(QStringLiteral("credential_github_save")), Qt::LeftButton);
    QTRY_VERIFY(configured(QStringLiteral("github")));
    QTRY_COMPARE(status(QStringLiteral("github")), QStringLiteral("Configured"));
}

// The keychain is locked (the screen locked, the user locked it): saving says so in the
// credential's row, with what to do, and stores nothing; once unlocked, Save works.
void TestCredentialValues::lockedKeychainIsSaidInItsRowAndChangesNothing()
{
    QCOMPARE(keyring(QStringLiteral("lock")), 0);
    QTest::mouseClick(child<QPushButton>(QStringLiteral("credential_npm_replace")), Qt::LeftButton);
    QTest::keyClicks(child<QLineEdit>(QStringLiteral("credential_npm_input")), m_token);
    QTest::mouseClick(child<QPushButton>(QStringLiteral("credential_npm_save")), Qt::LeftButton);

    auto *outcome = child<QLabel>(QStringLiteral("credential_npm_outcome"));
    QTRY_VERIFY(outcome->isVisible() && outcome->text().startsWith(QStringLiteral("The value of npm was not saved")));
    QVERIFY2(outcome->text().contains(QStringLiteral("locked")), qPrintable(outcome->text()));
    QVERIFY2(outcome->text().contains(QStringLiteral("Unlock it and try again")), qPrintable(outcome->text()));
    QVERIFY2(!outcome->text().contains(m_token), qPrintable(outcome->text()));
    QVERIFY(!child<QLabel>(QStringLiteral("policyError"))->isVisible());
    QVERIFY(!child<QLabel>(QStringLiteral("credential_github_outcome"))->isVisible());
    QCOMPARE(status(QStringLiteral("npm")), QStringLiteral("Not set — will be set when saved"));

    QCOMPARE(keyring(QStringLiteral("unlock")), 0);
    QVERIFY(!configured(QStringLiteral("npm")));
    QTest::mouseClick(child<QPushButton>(QStringLiteral("credential_npm_save")), Qt::LeftButton);
    QTRY_VERIFY(configured(QStringLiteral("npm")));
    QTRY_COMPARE(status(QStringLiteral("npm")), QStringLiteral("Configured"));
    QCOMPARE(outcome->text(), QStringLiteral("Value saved."));
}

void TestCredentialValues::changesByAnotherClientAppear()
{
    QSignalSpy changed(m_harness->client(), &Client::credentialsChanged);
    QString said
        = sandboxctl({ QStringLiteral("credential"), QStringLiteral("set"), QStringLiteral("npm") }, m_token.toUtf8());
    QVERIFY2(said.contains(QStringLiteral("credential npm stored")), qPrintable(said));
    QTRY_COMPARE(status(QStringLiteral("npm")), QStringLiteral("Configured"));
    QVERIFY(changed.count() >= 1);
    QVERIFY(child<QPushButton>(QStringLiteral("credential_npm_remove"))->isEnabled());
    verifyNowhere(m_token);

    // A value being typed is kept while another client changes the same credential.
    QTest::mouseClick(child<QPushButton>(QStringLiteral("credential_github_replace")), Qt::LeftButton);
    QTest::keyClicks(child<QLineEdit>(QStringLiteral("credential_github_input")), QStringLiteral("typed"));
    said = sandboxctl({ QStringLiteral("credential"), QStringLiteral("set"), QStringLiteral("github") },
                      m_token.toUtf8());
    QVERIFY2(said.contains(QStringLiteral("credential github stored")), qPrintable(said));
    QTRY_COMPARE(status(QStringLiteral("github")), QStringLiteral("Configured — will be replaced when saved"));
    QCOMPARE(child<QLineEdit>(QStringLiteral("credential_github_input"))->text(), QStringLiteral("typed"));

    said = sandboxctl({ QStringLiteral("credential"), QStringLiteral("remove"), QStringLiteral("npm") });
    QVERIFY2(said.contains(QStringLiteral("credential npm removed")), qPrintable(said));
    QTRY_COMPARE(status(QStringLiteral("npm")), QStringLiteral("Not set"));

    // A credential the policy gains elsewhere gets its row.
    Policy policy = m_harness->engine().policy();
    PolicyCredential pypi;
    pypi.name = QStringLiteral("pypi");
    pypi.hosts = { QStringLiteral("upload.pypi.org") };
    policy.credentials.append(pypi);
    policy.allowedDomains.append(QStringLiteral("upload.pypi.org"));
    const Status set = StudioHarness::await(m_harness->client()->setPolicy(policy));
    QVERIFY2(set.ok(), qPrintable(set.ok() ? QString() : set.error().toString()));
    QTRY_COMPARE(status(QStringLiteral("pypi")), QStringLiteral("Not set"));
    QVERIFY(child<QLabel>(QStringLiteral("credential_pypi_where"))->text().contains(QStringLiteral("upload.pypi.org")));
}

void TestCredentialValues::everyInteractiveWidgetIsNamed()
{
    const QStringList missing = WidgetWalk::unnamedInteractiveWidgets(m_window.get());
    QVERIFY2(missing.isEmpty(), qPrintable(missing.join(QLatin1Char('\n'))));
}

QTEST_MAIN(TestCredentialValues)
#include "tst_credentialvalues.moc"
