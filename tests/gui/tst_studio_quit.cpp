// The real sandbox-studio binary as a user runs it, hosting the user's engine: a
// termination signal ends the program (window, tray and engine) and the commands it ran,
// and no engine is left serving the socket for the next launch to attach to. Runs
// offscreen and once more under Xvfb with a real tray host, where closing hides the
// window in the tray (SANDBOX_EXPECT_TRAY=1).
#include "TestFiles.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLocalSocket>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <memory>

namespace {

using sandbox::test::binary;

bool engineAnswers(const QString &socketPath)
{
    QLocalSocket socket;
    socket.connectToServer(socketPath);
    return socket.waitForConnected(1000);
}

} // namespace

class TestStudioQuit : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void terminationSignalEndsTheProgramAndItsCommands_data();
    void terminationSignalEndsTheProgramAndItsCommands();

private:
    QProcessEnvironment environment() const;
    void startStudio();

    std::unique_ptr<QTemporaryDir> m_root;
    std::unique_ptr<QProcess> m_studio;
    QByteArray m_log;
    QString m_socket;
};

QProcessEnvironment TestStudioQuit::environment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_root->filePath(QStringLiteral("run")));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_root->filePath(QStringLiteral("xdg-config")));
    env.insert(QStringLiteral("SANDBOX_CONFIG_DIR"), m_root->filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("SANDBOX_STATE_DIR"), m_root->filePath(QStringLiteral("state")));
    env.insert(QStringLiteral("SANDBOX_PACK_PATH"), m_root->filePath(QStringLiteral("no-packs")));
    return env;
}

void TestStudioQuit::init()
{
    m_root = std::make_unique<QTemporaryDir>();
    QVERIFY(m_root->isValid());
    QVERIFY(QDir(m_root->path()).mkpath(QStringLiteral("run")));
    QVERIFY(QFile::setPermissions(m_root->filePath(QStringLiteral("run")),
                                  QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    QVERIFY(QDir(m_root->path()).mkpath(QStringLiteral("work")));
    m_socket = m_root->filePath(QStringLiteral("run/sandbox-studio/engine.sock"));
    m_log.clear();
}

void TestStudioQuit::cleanup()
{
    if (m_studio && m_studio->state() != QProcess::NotRunning) {
        m_studio->kill();
        m_studio->waitForFinished(5000);
    }
    m_studio.reset();
    m_root.reset();
}

void TestStudioQuit::startStudio()
{
    m_studio = std::make_unique<QProcess>();
    m_studio->setProcessEnvironment(environment());
    m_studio->setProcessChannelMode(QProcess::MergedChannels);
    connect(m_studio.get(), &QProcess::readyRead, this, [this] { m_log += m_studio->readAll(); });
    m_studio->start(binary(QStringLiteral("sandbox-studio")));
    QVERIFY2(m_studio->waitForStarted(), qPrintable(m_studio->errorString()));
    QTRY_VERIFY2_WITH_TIMEOUT(engineAnswers(m_socket), m_log.constData(), 30000);
}

void TestStudioQuit::terminationSignalEndsTheProgramAndItsCommands_data()
{
    QTest::addColumn<int>("signalNumber");
    QTest::newRow("SIGTERM") << int(SIGTERM);
    QTest::newRow("SIGINT") << int(SIGINT);
}

void TestStudioQuit::terminationSignalEndsTheProgramAndItsCommands()
{
    QFETCH(int, signalNumber);
    startStudio();
    if (QTest::currentTestFailed())
        return;

    // The built-in backend is activated (as a user does once), then a command an agent
    // runs goes through Studio's engine.
    QProcess activate;
    activate.setProcessEnvironment(environment());
    activate.setProcessChannelMode(QProcess::MergedChannels);
    activate.start(binary(QStringLiteral("sandboxctl")),
                   { QStringLiteral("activate"), QStringLiteral("builtin:auto") });
    QVERIFY(activate.waitForStarted());
    QSignalSpy activated(&activate, &QProcess::finished);
    QTRY_VERIFY_WITH_TIMEOUT(activated.count() == 1, 60000);
    const QByteArray activation = activate.readAll();
    QVERIFY2(activate.exitCode() == 0, QByteArray(activation + m_log).constData());

    QProcess run;
    run.setProcessEnvironment(environment());
    run.setWorkingDirectory(m_root->filePath(QStringLiteral("work")));
    run.setProcessChannelMode(QProcess::MergedChannels);
    run.start(binary(QStringLiteral("sandboxctl")),
              { QStringLiteral("run"), QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                QStringLiteral("echo running; exec sleep 300") });
    QVERIFY(run.waitForStarted());
    QByteArray runOutput;
    connect(&run, &QProcess::readyRead, this, [&] { runOutput += run.readAll(); });
    QTRY_VERIFY2_WITH_TIMEOUT(runOutput.contains("running"), QByteArray(runOutput + m_log).constData(), 30000);

    QSignalSpy studioFinished(m_studio.get(), &QProcess::finished);
    QSignalSpy runFinished(&run, &QProcess::finished);
    ::kill(pid_t(m_studio->processId()), signalNumber);
    QTRY_VERIFY2_WITH_TIMEOUT(studioFinished.count() == 1, m_log.constData(), 20000);
    QCOMPARE(m_studio->exitStatus(), QProcess::NormalExit);
    QCOMPARE(m_studio->exitCode(), 0);
    // The command it ran ended with it, and nothing serves the socket any more.
    QTRY_COMPARE_WITH_TIMEOUT(runFinished.count(), 1, 20000);
    QVERIFY(!engineAnswers(m_socket));
}

QTEST_GUILESS_MAIN(TestStudioQuit)
#include "tst_studio_quit.moc"
