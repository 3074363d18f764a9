// sandbox-acp end to end, as an editor runs it: this test is the editor (it writes the
// editor's JSON-RPC lines to sandbox-acp's stdin and reads its stdout), and the agent
// behind it is a real ACP agent program (acp/fake_agent.py) that calls the client methods
// each prompt names. The engine is the real one, hosted by sandbox-acp, with the built-in
// auto backend: terminals and file access are really confined.
#include "protocol/Policy.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalServer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <memory>

using namespace Qt::StringLiterals;

namespace {

// How many host processes have `argument` among their arguments.
int hostProcessesWith(const QString &argument)
{
    int count = 0;
    const QStringList pids = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &pid : pids) {
        QFile cmdline(QStringLiteral("/proc/") + pid + QStringLiteral("/cmdline"));
        if (!cmdline.open(QIODevice::ReadOnly))
            continue;
        if (cmdline.readAll().split('\0').contains(argument.toUtf8()))
            ++count;
    }
    return count;
}

} // namespace

class TestAcpBridge final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void initializeOffersTerminalAndFileSystem();
    void initializeSentAtOnceOffersOnlyWhatThePolicyAllows();
    void terminalCommandsAreConfined();
    void killAndReleaseEndTheCommand();
    void outputByteLimitKeepsTheEnd();
    void fileAccessFollowsThePolicy();
    void permissionAllowed();
    void permissionRejected();
    void permissionCancelled();
    void permissionUnansweredIsDenied();
    void malformedLinesGetErrorsAndChangeNothing();
    void agentThatDiesFailsPendingRequests();
    void editorThatDisconnectsEndsTheBridge();
    void confinedAgentIsInTheSandboxToo();
    void terminalOutsideTheWorkspaceIsRefused_data();
    void terminalOutsideTheWorkspaceIsRefused();
    void terminalInASubFolderKeepsTheSessionWorkspace();
    void refusedTerminalGetsAnErrorAndTheBridgeKeepsServing();
    void missingAgentProgramIsNamed();
    void bridgeGoesOnWhenTheEngineItUsesGoesAway();

private:
    // Starts sandbox-acp as m_bridge; with `hostEngine` it hosts the engine (--embedded),
    // else it uses the one serving the test's socket, or hosts one when none does.
    void start(const QStringList &options = {}, const QStringList &agent = {}, bool hostEngine = true);
    QProcessEnvironment bridgeEnvironment() const;
    QString socketPath() const { return m_root->filePath(QStringLiteral("run/engine.sock")); }
    void send(const QJsonObject &message);
    void sendLine(const QByteArray &line);
    // The next line from sandbox-acp that satisfies `accept` (others are kept for later).
    QJsonObject next(const std::function<bool(const QJsonObject &)> &accept, int timeoutMs = 60000);
    QJsonObject responseTo(const QJsonValue &id);
    QJsonObject request(const QString &method, const QJsonObject &params);
    // A prompt the agent turns into one client call; the agent's view of the response.
    QJsonObject agentCall(const QString &method, const QJsonObject &params);
    QJsonObject prompt(const QJsonObject &order);
    // The client capabilities the agent was offered in initialize, as the agent reports them.
    QJsonObject offeredCapabilities();
    // initialize, then session/new in `workspace` (default: the bridge's working directory).
    void handshake(const QString &workspace = {});
    // terminal/create in `cwd` of `/bin/sh -c script sh args...`, as the agent sees the answer.
    QJsonObject createTerminal(const QString &cwd, const QString &script, const QStringList &args = {});
    void writeHostExecutionAskPolicy();
    QString runsWithHostChannels(const std::function<void(const QJsonObject &)> &answer);
    // terminal/wait_for_exit, then terminal/output: the terminal's whole output, trimmed.
    QString outputWhenEnded(const QString &terminalId);

    // The agent program to start (a copy of acp/fake_agent.py in m_agentDirectory).
    QString agentScript() const { return m_agentDirectory->filePath(QStringLiteral("fake_agent.py")); }

    std::unique_ptr<QTemporaryDir> m_private;
    std::unique_ptr<QTemporaryDir> m_root;
    std::unique_ptr<QTemporaryDir> m_outside;
    std::unique_ptr<QTemporaryDir> m_agentDirectory;
    QString m_workspace;
    std::unique_ptr<QProcess> m_bridge;
    QByteArray m_buffer;
    QList<QJsonObject> m_unclaimed;
    QByteArray m_stderr;
    int m_nextId = 1;
};

void TestAcpBridge::initTestCase()
{
    // What must be outside /tmp wherever the checkout is (a sandbox of the strongest tier has
    // a private /tmp, where a path of the host's /tmp does not exist): one owner-only folder
    // under /var/tmp for the whole run, each test function's folders in it, so /var/tmp
    // itself (which recorded plans list) changes only twice.
    m_private = std::make_unique<QTemporaryDir>(QStringLiteral("/var/tmp/acp-bridge-XXXXXX"));
    QVERIFY(m_private->isValid());
}

void TestAcpBridge::init()
{
    m_root = std::make_unique<QTemporaryDir>();
    QVERIFY(m_root->isValid());
    // Outside the workspace and outside /tmp.
    m_outside = std::make_unique<QTemporaryDir>(m_private->filePath(QStringLiteral("outside-XXXXXX")));
    QVERIFY(m_outside->isValid());
    // The agent as a user installs one, in a folder the policy reads: a confined agent could
    // not start from a source tree under /tmp.
    m_agentDirectory = std::make_unique<QTemporaryDir>(m_private->filePath(QStringLiteral("agent-XXXXXX")));
    QVERIFY(m_agentDirectory->isValid());
    QVERIFY(QFile::copy(QStringLiteral(SANDBOX_ACP_TEST_DIR "/fake_agent.py"), agentScript()));
    QVERIFY(QDir(m_root->path()).mkpath(QStringLiteral("work")));
    QVERIFY(QDir(m_root->path()).mkpath(QStringLiteral("home/.ssh")));
    m_workspace = m_root->filePath(QStringLiteral("work"));
    m_buffer.clear();
    m_unclaimed.clear();
    m_stderr.clear();
    m_nextId = 1;
}

void TestAcpBridge::cleanup()
{
    if (m_bridge && m_bridge->state() != QProcess::NotRunning) {
        m_bridge->closeWriteChannel();
        if (!m_bridge->waitForFinished(20000))
            m_bridge->kill();
        m_bridge->waitForFinished(5000);
    }
    if (QTest::currentTestFailed())
        qWarning().noquote() << "sandbox-acp stderr:\n" << QString::fromUtf8(m_stderr);
    m_bridge.reset();
    m_outside.reset();
    m_agentDirectory.reset();
    m_root.reset();
}

QProcessEnvironment TestAcpBridge::bridgeEnvironment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SANDBOX_CONFIG_DIR"), m_root->filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("SANDBOX_STATE_DIR"), m_root->filePath(QStringLiteral("state")));
    env.insert(QStringLiteral("HOME"), m_root->filePath(QStringLiteral("home")));
    return env;
}

void TestAcpBridge::start(const QStringList &options, const QStringList &agent, bool hostEngine)
{
    m_bridge = std::make_unique<QProcess>();
    m_bridge->setProcessEnvironment(bridgeEnvironment());
    m_bridge->setWorkingDirectory(m_workspace);
    connect(m_bridge.get(), &QProcess::readyReadStandardError, this,
            [this] { m_stderr += m_bridge->readAllStandardError(); });
    QStringList args{ QStringLiteral("--socket"), socketPath() };
    if (hostEngine)
        args.prepend(QStringLiteral("--embedded"));
    args << options << QStringLiteral("--");
    if (agent.isEmpty())
        args << QStringLiteral("python3") << agentScript();
    else
        args << agent;
    m_bridge->start(QCoreApplication::applicationDirPath() + QStringLiteral("/sandbox-acp"), args);
    QVERIFY2(m_bridge->waitForStarted(10000), qPrintable(m_bridge->errorString()));
}

void TestAcpBridge::send(const QJsonObject &message)
{
    sendLine(QJsonDocument(message).toJson(QJsonDocument::Compact));
}

void TestAcpBridge::sendLine(const QByteArray &line)
{
    m_bridge->write(line + '\n');
}

QJsonObject TestAcpBridge::next(const std::function<bool(const QJsonObject &)> &accept, int timeoutMs)
{
    for (qsizetype i = 0; i < m_unclaimed.size(); ++i) {
        if (accept(m_unclaimed.at(i)))
            return m_unclaimed.takeAt(i);
    }
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        qsizetype newline;
        while ((newline = m_buffer.indexOf('\n')) >= 0) {
            const QByteArray line = m_buffer.left(newline);
            m_buffer.remove(0, newline + 1);
            QJsonParseError error;
            const QJsonDocument document = QJsonDocument::fromJson(line, &error);
            if (error.error != QJsonParseError::NoError || !document.isObject()) {
                qWarning() << "sandbox-acp wrote a line that is not a JSON object:" << line;
                return {};
            }
            if (accept(document.object()))
                return document.object();
            m_unclaimed.append(document.object());
        }
        if (m_bridge->state() == QProcess::NotRunning && m_bridge->bytesAvailable() == 0)
            return {};
        m_bridge->waitForReadyRead(int(qMin<qint64>(deadline.remainingTime(), 1000)));
        m_buffer += m_bridge->readAllStandardOutput();
    }
    return {};
}

QJsonObject TestAcpBridge::responseTo(const QJsonValue &id)
{
    return next([id](const QJsonObject &m) { return !m.contains(QLatin1String("method")) && m.value(u"id"_s) == id; });
}

QJsonObject TestAcpBridge::request(const QString &method, const QJsonObject &params)
{
    const int id = m_nextId++;
    send(QJsonObject{ { u"jsonrpc"_s, u"2.0"_s }, { u"id"_s, id }, { u"method"_s, method }, { u"params"_s, params } });
    return responseTo(id);
}

QJsonObject TestAcpBridge::prompt(const QJsonObject &order)
{
    const QString text = QString::fromUtf8(QJsonDocument(order).toJson(QJsonDocument::Compact));
    return request(
        QStringLiteral("session/prompt"),
        QJsonObject{ { u"sessionId"_s, u"sess-1"_s },
                     { u"prompt"_s, QJsonArray{ QJsonObject{ { u"type"_s, u"text"_s }, { u"text"_s, text } } } } });
}

QJsonObject TestAcpBridge::agentCall(const QString &method, const QJsonObject &params)
{
    QJsonObject withSession = params;
    withSession.insert(QStringLiteral("sessionId"), QStringLiteral("sess-1"));
    const QJsonObject reply = prompt(QJsonObject{ { u"call"_s, method }, { u"params"_s, withSession } });
    return reply.value(u"result"_s).toObject().value(u"_meta"_s).toObject().value(u"response"_s).toObject();
}

QJsonObject TestAcpBridge::offeredCapabilities()
{
    return prompt(QJsonObject{ { u"capabilities"_s, true } })
        .value(u"result"_s)
        .toObject()
        .value(u"_meta"_s)
        .toObject()
        .value(u"response"_s)
        .toObject();
}

void TestAcpBridge::handshake(const QString &workspace)
{
    const QJsonObject init = request(
        QStringLiteral("initialize"),
        QJsonObject{
            { u"protocolVersion"_s, 1 },
            { u"clientCapabilities"_s,
              QJsonObject{ { u"fs"_s, QJsonObject{ { u"readTextFile"_s, false }, { u"writeTextFile"_s, false } } },
                           { u"terminal"_s, false } } } });
    QCOMPARE(init.value(u"result"_s).toObject().value(u"protocolVersion"_s).toInt(), 1);
    const QJsonObject session = request(
        QStringLiteral("session/new"),
        QJsonObject{ { u"cwd"_s, workspace.isEmpty() ? m_workspace : workspace }, { u"mcpServers"_s, QJsonArray() } });
    QCOMPARE(session.value(u"result"_s).toObject().value(u"sessionId"_s).toString(), QStringLiteral("sess-1"));
}

void TestAcpBridge::initializeOffersTerminalAndFileSystem()
{
    start();
    handshake();
    const QJsonObject offered = offeredCapabilities();
    QCOMPARE(offered.value(u"terminal"_s).toBool(), true);
    QCOMPARE(offered.value(u"fs"_s).toObject().value(u"readTextFile"_s).toBool(), true);
    QCOMPARE(offered.value(u"fs"_s).toObject().value(u"writeTextFile"_s).toBool(), true);
}

// An editor that sends `initialize` the moment the bridge starts (before the bridge has
// heard the policy from the engine) is offered file access only as the policy allows.
void TestAcpBridge::initializeSentAtOnceOffersOnlyWhatThePolicyAllows()
{
    sandbox::Policy policy = sandbox::Policy::defaults();
    policy.writable.clear();
    QVERIFY(QDir().mkpath(m_root->filePath(QStringLiteral("config"))));
    QFile file(m_root->filePath(QStringLiteral("config/policy.json")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(policy.toJson()).toJson());
    file.close();

    start();
    handshake();
    const QJsonObject offered = offeredCapabilities();
    QCOMPARE(offered.value(u"fs"_s).toObject().value(u"readTextFile"_s).toBool(), true);
    QCOMPARE(offered.value(u"fs"_s).toObject().value(u"writeTextFile"_s).toBool(), false);
}

void TestAcpBridge::terminalCommandsAreConfined()
{
    start();
    handshake();
    const QString outside = m_outside->filePath(QStringLiteral("escape.txt"));
    const QJsonObject created = agentCall(
        QStringLiteral("terminal/create"),
        QJsonObject{
            { u"command"_s, u"/bin/sh"_s },
            { u"args"_s,
              QJsonArray{ u"-c"_s,
                          u"echo hello; echo in > inside.txt && echo wrote-inside; "_s
                          u"(echo out > \"$1\") 2>/dev/null || echo outside-refused; exit 3"_s,
                          u"sh"_s, outside } },
            { u"env"_s, QJsonArray{ QJsonObject{ { u"name"_s, u"GREETING"_s }, { u"value"_s, u"hi"_s } } } } });
    const QString terminalId = created.value(u"result"_s).toObject().value(u"terminalId"_s).toString();
    QVERIFY2(!terminalId.isEmpty(), QJsonDocument(created).toJson().constData());

    const QJsonObject exited = agentCall(QStringLiteral("terminal/wait_for_exit"), { { u"terminalId"_s, terminalId } });
    QCOMPARE(exited.value(u"result"_s).toObject().value(u"exitCode"_s).toInt(-1), 3);
    QVERIFY(exited.value(u"result"_s).toObject().value(u"signal"_s).isNull());

    const QJsonObject output = agentCall(QStringLiteral("terminal/output"), { { u"terminalId"_s, terminalId } });
    const QJsonObject result = output.value(u"result"_s).toObject();
    QCOMPARE(result.value(u"output"_s).toString(), QStringLiteral("hello\nwrote-inside\noutside-refused\n"));
    QCOMPARE(result.value(u"truncated"_s).toBool(true), false);
    QCOMPARE(result.value(u"exitStatus"_s).toObject().value(u"exitCode"_s).toInt(-1), 3);
    QVERIFY(QFile::exists(m_workspace + QStringLiteral("/inside.txt")));
    QVERIFY(!QFile::exists(outside));

    QVERIFY(agentCall(QStringLiteral("terminal/release"), { { u"terminalId"_s, terminalId } }).contains(u"result"_s));
    const QJsonObject gone = agentCall(QStringLiteral("terminal/output"), { { u"terminalId"_s, terminalId } });
    QVERIFY(gone.value(u"error"_s).toObject().value(u"message"_s).toString().contains(terminalId));
}

void TestAcpBridge::killAndReleaseEndTheCommand()
{
    start();
    handshake();
    const QString id
        = agentCall(QStringLiteral("terminal/create"),
                    QJsonObject{ { u"command"_s, u"/bin/sleep"_s }, { u"args"_s, QJsonArray{ u"600"_s } } })
              .value(u"result"_s)
              .toObject()
              .value(u"terminalId"_s)
              .toString();
    QVERIFY(!id.isEmpty());
    QVERIFY(!agentCall(QStringLiteral("terminal/output"), { { u"terminalId"_s, id } })
                 .value(u"result"_s)
                 .toObject()
                 .contains(u"exitStatus"_s));
    QVERIFY(agentCall(QStringLiteral("terminal/kill"), { { u"terminalId"_s, id } }).contains(u"result"_s));
    const QJsonObject exited = agentCall(QStringLiteral("terminal/wait_for_exit"), { { u"terminalId"_s, id } })
                                   .value(u"result"_s)
                                   .toObject();
    QVERIFY(exited.value(u"exitCode"_s).isNull());
    QCOMPARE(exited.value(u"signal"_s).toString(), QStringLiteral("SIGKILL"));
    // Still readable after the kill, gone after the release.
    QVERIFY(agentCall(QStringLiteral("terminal/output"), { { u"terminalId"_s, id } }).contains(u"result"_s));
    QVERIFY(agentCall(QStringLiteral("terminal/release"), { { u"terminalId"_s, id } }).contains(u"result"_s));
    QVERIFY(agentCall(QStringLiteral("terminal/kill"), { { u"terminalId"_s, id } }).contains(u"error"_s));

    // Releasing a running command ends it: its process (seen from the host) goes away.
    const QString marker = QStringLiteral("600.%1").arg(QCoreApplication::applicationPid());
    const QString second
        = agentCall(u"terminal/create"_s,
                    QJsonObject{
                        { u"command"_s, u"/bin/sh"_s },
                        { u"args"_s, QJsonArray{ u"-c"_s, u"touch started; exec sleep \"$1\""_s, u"sh"_s, marker } } })
              .value(u"result"_s)
              .toObject()
              .value(u"terminalId"_s)
              .toString();
    QVERIFY(!second.isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(m_workspace + QStringLiteral("/started")), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(hostProcessesWith(marker) > 0, 30000);
    QVERIFY(agentCall(u"terminal/release"_s, { { u"terminalId"_s, second } }).contains(u"result"_s));
    QTRY_COMPARE_WITH_TIMEOUT(hostProcessesWith(marker), 0, 30000);
}

void TestAcpBridge::outputByteLimitKeepsTheEnd()
{
    start();
    handshake();
    const QString id
        = agentCall(QStringLiteral("terminal/create"),
                    QJsonObject{ { u"command"_s, u"/bin/sh"_s },
                                 { u"args"_s, QJsonArray{ u"-c"_s, u"printf 'aaaaaaaaaa\\303\\251end'"_s } },
                                 { u"outputByteLimit"_s, 4 } })
              .value(u"result"_s)
              .toObject()
              .value(u"terminalId"_s)
              .toString();
    QVERIFY(!id.isEmpty());
    agentCall(QStringLiteral("terminal/wait_for_exit"), { { u"terminalId"_s, id } });
    const QJsonObject result
        = agentCall(QStringLiteral("terminal/output"), { { u"terminalId"_s, id } }).value(u"result"_s).toObject();
    // The last 4 bytes would start inside the two-byte 'é': the cut moves past it.
    QCOMPARE(result.value(u"output"_s).toString(), QStringLiteral("end"));
    QCOMPARE(result.value(u"truncated"_s).toBool(), true);
}

void TestAcpBridge::fileAccessFollowsThePolicy()
{
    QFile secret(m_root->filePath(QStringLiteral("home/.ssh/id_test")));
    QVERIFY(secret.open(QIODevice::WriteOnly));
    secret.write("PRIVATE KEY\n");
    secret.close();
    QFile notes(m_workspace + QStringLiteral("/notes.txt"));
    QVERIFY(notes.open(QIODevice::WriteOnly));
    notes.write("one\ntwo\nthree\n");
    notes.close();

    start();
    handshake();
    const QJsonObject read = agentCall(QStringLiteral("fs/read_text_file"), { { u"path"_s, notes.fileName() } });
    QCOMPARE(read.value(u"result"_s).toObject().value(u"content"_s).toString(), QStringLiteral("one\ntwo\nthree\n"));
    const QJsonObject part = agentCall(QStringLiteral("fs/read_text_file"),
                                       { { u"path"_s, notes.fileName() }, { u"line"_s, 2 }, { u"limit"_s, 1 } });
    QCOMPARE(part.value(u"result"_s).toObject().value(u"content"_s).toString(), QStringLiteral("two"));

    const QJsonObject denied = agentCall(QStringLiteral("fs/read_text_file"), { { u"path"_s, secret.fileName() } });
    QVERIFY2(denied.contains(u"error"_s), QJsonDocument(denied).toJson().constData());
    QVERIFY(!denied.contains(u"result"_s));
    QCOMPARE(denied.value(u"error"_s).toObject().value(u"code"_s).toInt(), -32000);
    QVERIFY(denied.value(u"error"_s).toObject().value(u"message"_s).toString().contains(secret.fileName()));
    QVERIFY(!QJsonDocument(denied).toJson().contains("PRIVATE KEY"));

    const QString written = m_workspace + QStringLiteral("/written.txt");
    QVERIFY(agentCall(QStringLiteral("fs/write_text_file"), { { u"path"_s, written }, { u"content"_s, u"héllo\n"_s } })
                .contains(u"result"_s));
    QFile check(written);
    QVERIFY(check.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(check.readAll()), QStringLiteral("héllo\n"));

    const QString outside = m_outside->filePath(QStringLiteral("planted.txt"));
    const QJsonObject refused
        = agentCall(QStringLiteral("fs/write_text_file"), { { u"path"_s, outside }, { u"content"_s, u"x"_s } });
    QCOMPARE(refused.value(u"error"_s).toObject().value(u"code"_s).toInt(), -32000);
    QVERIFY(!QFile::exists(outside));
    const QJsonObject hooks = agentCall(QStringLiteral("fs/write_text_file"),
                                        { { u"path"_s, QStringLiteral("relative.txt") }, { u"content"_s, u"x"_s } });
    QCOMPARE(hooks.value(u"error"_s).toObject().value(u"code"_s).toInt(), -32602);
    QVERIFY(hooks.value(u"error"_s).toObject().value(u"message"_s).toString().contains(u"params.path"_s));
}

void TestAcpBridge::writeHostExecutionAskPolicy()
{
    sandbox::Policy policy = sandbox::Policy::defaults();
    policy.hostExecution = sandbox::Policy::HostExecution::Ask;
    QVERIFY(QDir().mkpath(m_root->filePath(QStringLiteral("config"))));
    QFile file(m_root->filePath(QStringLiteral("config/policy.json")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(policy.toJson()).toJson());
}

// Runs a command that reports whether a host socket below /run is reachable, with the
// policy asking about host execution; `answer` gets the permission request the editor sees.
QString TestAcpBridge::runsWithHostChannels(const std::function<void(const QJsonObject &)> &answer)
{
    QLocalServer hostService;
    hostService.setSocketOptions(QLocalServer::UserAccessOption);
    const QString socketPath = QStringLiteral("/run/sandbox-acp-test-%1.sock").arg(QCoreApplication::applicationPid());
    QLocalServer::removeServer(socketPath);
    if (!hostService.listen(socketPath)) {
        qWarning() << "cannot listen on" << socketPath << hostService.errorString();
        return {};
    }
    const QString text = QString::fromUtf8(
        QJsonDocument(
            QJsonObject{ { u"call"_s, u"terminal/create"_s },
                         { u"params"_s,
                           QJsonObject{ { u"sessionId"_s, u"sess-1"_s },
                                        { u"command"_s, u"/bin/sh"_s },
                                        { u"args"_s,
                                          QJsonArray{ u"-c"_s, u"test -S \"$1\" && echo exposed || echo hidden"_s,
                                                      u"sh"_s, socketPath } } } } })
            .toJson(QJsonDocument::Compact));
    const int promptId = m_nextId++;
    send(QJsonObject{
        { u"jsonrpc"_s, u"2.0"_s },
        { u"id"_s, promptId },
        { u"method"_s, u"session/prompt"_s },
        { u"params"_s,
          QJsonObject{
              { u"sessionId"_s, u"sess-1"_s },
              { u"prompt"_s, QJsonArray{ QJsonObject{ { u"type"_s, u"text"_s }, { u"text"_s, text } } } } } } });
    const QJsonObject question = next(
        [](const QJsonObject &m) { return m.value(u"method"_s) == QLatin1String("session/request_permission"); });
    if (question.isEmpty())
        return QStringLiteral("no permission request");
    answer(question);
    const QJsonObject created = responseTo(promptId);
    const QString id = created.value(u"result"_s)
                           .toObject()
                           .value(u"_meta"_s)
                           .toObject()
                           .value(u"response"_s)
                           .toObject()
                           .value(u"result"_s)
                           .toObject()
                           .value(u"terminalId"_s)
                           .toString();
    if (id.isEmpty())
        return QStringLiteral("no terminal: ") + QString::fromUtf8(QJsonDocument(created).toJson());
    return outputWhenEnded(id);
}

QString TestAcpBridge::outputWhenEnded(const QString &terminalId)
{
    agentCall(QStringLiteral("terminal/wait_for_exit"), { { u"terminalId"_s, terminalId } });
    return agentCall(QStringLiteral("terminal/output"), { { u"terminalId"_s, terminalId } })
        .value(u"result"_s)
        .toObject()
        .value(u"output"_s)
        .toString()
        .trimmed();
}

void TestAcpBridge::permissionAllowed()
{
    writeHostExecutionAskPolicy();
    start();
    handshake();
    QString seen;
    const QString result = runsWithHostChannels([&](const QJsonObject &question) {
        const QJsonObject params = question.value(u"params"_s).toObject();
        QCOMPARE(params.value(u"sessionId"_s).toString(), QStringLiteral("sess-1"));
        QVERIFY(!params.value(u"toolCall"_s).toObject().value(u"title"_s).toString().isEmpty());
        QStringList kinds;
        for (const QJsonValue &option : params.value(u"options"_s).toArray())
            kinds << option.toObject().value(u"kind"_s).toString() + QLatin1Char(':')
                    + option.toObject().value(u"optionId"_s).toString();
        seen = kinds.join(QLatin1Char(','));
        send(QJsonObject{
            { u"jsonrpc"_s, u"2.0"_s },
            { u"id"_s, question.value(u"id"_s) },
            { u"result"_s,
              QJsonObject{ { u"outcome"_s,
                             QJsonObject{ { u"outcome"_s, u"selected"_s }, { u"optionId"_s, u"allow"_s } } } } } });
    });
    QCOMPARE(seen, QStringLiteral("allow_once:allow,reject_once:reject"));
    QCOMPARE(result, QStringLiteral("exposed"));
}

void TestAcpBridge::permissionRejected()
{
    writeHostExecutionAskPolicy();
    start();
    handshake();
    const QString result = runsWithHostChannels([&](const QJsonObject &question) {
        send(QJsonObject{
            { u"jsonrpc"_s, u"2.0"_s },
            { u"id"_s, question.value(u"id"_s) },
            { u"result"_s,
              QJsonObject{ { u"outcome"_s,
                             QJsonObject{ { u"outcome"_s, u"selected"_s }, { u"optionId"_s, u"reject"_s } } } } } });
    });
    QCOMPARE(result, QStringLiteral("hidden"));
}

void TestAcpBridge::permissionCancelled()
{
    writeHostExecutionAskPolicy();
    start();
    handshake();
    const QString result = runsWithHostChannels([&](const QJsonObject &question) {
        send(QJsonObject{
            { u"jsonrpc"_s, u"2.0"_s },
            { u"id"_s, question.value(u"id"_s) },
            { u"result"_s, QJsonObject{ { u"outcome"_s, QJsonObject{ { u"outcome"_s, u"cancelled"_s } } } } } });
    });
    QCOMPARE(result, QStringLiteral("hidden"));
}

void TestAcpBridge::permissionUnansweredIsDenied()
{
    writeHostExecutionAskPolicy();
    start({ QStringLiteral("--answer-timeout"), QStringLiteral("1") });
    handshake();
    QJsonValue questionId;
    const QString result
        = runsWithHostChannels([&](const QJsonObject &question) { questionId = question.value(u"id"_s); });
    QCOMPARE(result, QStringLiteral("hidden"));
    // A late answer changes nothing and gets no reply.
    send(QJsonObject{
        { u"jsonrpc"_s, u"2.0"_s },
        { u"id"_s, questionId },
        { u"result"_s,
          QJsonObject{
              { u"outcome"_s, QJsonObject{ { u"outcome"_s, u"selected"_s }, { u"optionId"_s, u"allow"_s } } } } } });
    QVERIFY(prompt(QJsonObject{ { u"capabilities"_s, true } }).contains(u"result"_s));
}

void TestAcpBridge::malformedLinesGetErrorsAndChangeNothing()
{
    start();
    handshake();
    sendLine("this is not json");
    QJsonObject error = next([](const QJsonObject &m) { return m.contains(u"error"_s); });
    QCOMPARE(error.value(u"error"_s).toObject().value(u"code"_s).toInt(), -32700);
    QVERIFY(error.value(u"id"_s).isNull());
    QVERIFY(error.value(u"error"_s).toObject().value(u"message"_s).toString().contains(u"editor line 3"_s));

    sendLine(R"({"jsonrpc":"1.0","id":41,"method":"session/prompt","params":{}})");
    error = responseTo(41);
    QCOMPARE(error.value(u"error"_s).toObject().value(u"code"_s).toInt(), -32600);
    QVERIFY(error.value(u"error"_s).toObject().value(u"message"_s).toString().contains(u"editor line 4: jsonrpc"_s));

    sendLine(R"({"jsonrpc":"2.0","id":42,"method":"session/prompt","params":"text"})");
    error = responseTo(42);
    QVERIFY(error.value(u"error"_s).toObject().value(u"message"_s).toString().contains(u"params"_s));

    sendLine("[1,2,3]");
    error = next([](const QJsonObject &m) { return m.contains(u"error"_s); });
    QVERIFY(error.value(u"error"_s).toObject().value(u"message"_s).toString().contains(u"editor line 6"_s));

    // None reached the agent: it has seen initialize, session/new and this prompt only.
    const QJsonObject reply = prompt(QJsonObject{ { u"capabilities"_s, true } });
    QCOMPARE(reply.value(u"result"_s).toObject().value(u"_meta"_s).toObject().value(u"received"_s).toInt(), 3);

    // The agent's malformed line is answered with an error naming where it was.
    const QJsonObject agentSide = prompt(QJsonObject{ { u"raw"_s, u"{\"jsonrpc\":\"2.0\",\"method\":42}"_s } })
                                      .value(u"result"_s)
                                      .toObject()
                                      .value(u"_meta"_s)
                                      .toObject()
                                      .value(u"response"_s)
                                      .toObject();
    QCOMPARE(agentSide.value(u"error"_s).toObject().value(u"code"_s).toInt(), -32600);
    QVERIFY(agentSide.value(u"error"_s).toObject().value(u"message"_s).toString().contains(u"agent line"_s));
    QVERIFY(agentSide.value(u"error"_s).toObject().value(u"message"_s).toString().contains(u"method"_s));

    // Unknown client methods are errors, not silence.
    const QJsonObject unknown = agentCall(QStringLiteral("terminal/teleport"), {});
    QCOMPARE(unknown.value(u"error"_s).toObject().value(u"code"_s).toInt(), -32601);
}

void TestAcpBridge::agentThatDiesFailsPendingRequests()
{
    start();
    handshake();
    const int id = m_nextId++;
    send(QJsonObject{ { u"jsonrpc"_s, u"2.0"_s },
                      { u"id"_s, id },
                      { u"method"_s, u"session/prompt"_s },
                      { u"params"_s,
                        QJsonObject{ { u"sessionId"_s, u"sess-1"_s },
                                     { u"prompt"_s,
                                       QJsonArray{ QJsonObject{ { u"type"_s, u"text"_s },
                                                                { u"text"_s, u"{\"exit\":7}"_s } } } } } } });
    const QJsonObject failed = responseTo(id);
    QVERIFY(failed.value(u"error"_s).toObject().value(u"message"_s).toString().contains(u"status 7"_s));
    QVERIFY(m_bridge->waitForFinished(30000));
    QCOMPARE(m_bridge->exitCode(), 7);
}

void TestAcpBridge::editorThatDisconnectsEndsTheBridge()
{
    start();
    handshake();
    m_bridge->closeWriteChannel();
    QVERIFY(m_bridge->waitForFinished(30000));
    QCOMPARE(m_bridge->exitStatus(), QProcess::NormalExit);
    QCOMPARE(m_bridge->exitCode(), 0);
}

void TestAcpBridge::confinedAgentIsInTheSandboxToo()
{
    start({ QStringLiteral("--confine-agent") });
    handshake();
    const auto report = [this](const QString &path) {
        return prompt(QJsonObject{ { u"write"_s, path } })
            .value(u"result"_s)
            .toObject()
            .value(u"_meta"_s)
            .toObject()
            .value(u"response"_s)
            .toString();
    };
    QCOMPARE(report(m_workspace + QStringLiteral("/by-agent.txt")), QStringLiteral("written"));
    const QString outside = m_outside->filePath(QStringLiteral("by-agent.txt"));
    QVERIFY(report(outside) != QStringLiteral("written"));
    QVERIFY(!QFile::exists(outside));
    QVERIFY(QFile::exists(m_workspace + QStringLiteral("/by-agent.txt")));
}

QJsonObject TestAcpBridge::createTerminal(const QString &cwd, const QString &script, const QStringList &args)
{
    QJsonArray argv{ u"-c"_s, script, u"sh"_s };
    for (const QString &arg : args)
        argv.append(arg);
    QJsonObject params{ { u"command"_s, u"/bin/sh"_s }, { u"args"_s, argv } };
    if (!cwd.isEmpty())
        params.insert(u"cwd"_s, cwd);
    return agentCall(QStringLiteral("terminal/create"), params);
}

void TestAcpBridge::terminalOutsideTheWorkspaceIsRefused_data()
{
    QTest::addColumn<bool>("confined");
    QTest::newRow("agent on the host") << false;
    QTest::newRow("confined agent") << true;
}

// The agent cannot move the workspace by asking for a terminal elsewhere: the home, the
// root and a folder beside the workspace are refused, with the cwd and the workspace named.
void TestAcpBridge::terminalOutsideTheWorkspaceIsRefused()
{
    QFETCH(bool, confined);
    const QString home = m_root->filePath(QStringLiteral("home"));
    const QString sibling = m_root->filePath(QStringLiteral("sibling"));
    QVERIFY(QDir().mkpath(sibling));
    start(confined ? QStringList{ QStringLiteral("--confine-agent") } : QStringList());
    handshake();
    const QString marker = m_workspace + QStringLiteral("/ran");
    for (const QString &cwd : { home, QStringLiteral("/"), sibling, QString(m_workspace + QStringLiteral("/..")) }) {
        const QJsonObject refused
            = createTerminal(cwd, u"touch \"$1\"; echo x >> \"$2\"/.bashrc"_s, { marker, QDir::cleanPath(cwd) });
        const QJsonObject error = refused.value(u"error"_s).toObject();
        QVERIFY2(!refused.contains(u"result"_s), QJsonDocument(refused).toJson().constData());
        QCOMPARE(error.value(u"code"_s).toInt(), -32000);
        QVERIFY2(error.value(u"message"_s).toString().contains(cwd), qPrintable(error.value(u"message"_s).toString()));
        QVERIFY2(error.value(u"message"_s).toString().contains(m_workspace),
                 qPrintable(error.value(u"message"_s).toString()));
    }
    QVERIFY(!QFile::exists(home + QStringLiteral("/.bashrc")));
    QVERIFY(!QFile::exists(sibling + QStringLiteral("/.bashrc")));
    // The bridge still serves, and nothing of the refused commands ran.
    const QString id
        = createTerminal({}, u"echo served"_s).value(u"result"_s).toObject().value(u"terminalId"_s).toString();
    QVERIFY(!id.isEmpty());
    agentCall(QStringLiteral("terminal/wait_for_exit"), { { u"terminalId"_s, id } });
    QCOMPARE(agentCall(QStringLiteral("terminal/output"), { { u"terminalId"_s, id } })
                 .value(u"result"_s)
                 .toObject()
                 .value(u"output"_s)
                 .toString(),
             QStringLiteral("served\n"));
    QVERIFY(!QFile::exists(marker));
}

// A terminal in a sub-folder starts there, and the policy's ${workspace} is still the
// session's workspace: the workspace root is writable from the sub-folder, its parent not.
void TestAcpBridge::terminalInASubFolderKeepsTheSessionWorkspace()
{
    // Outside /tmp, which the default policy makes writable as a whole.
    const QString workspace = m_outside->filePath(QStringLiteral("project"));
    QVERIFY(QDir().mkpath(workspace + QStringLiteral("/src/deep")));
    start();
    handshake(workspace);
    const QString atRoot = workspace + QStringLiteral("/from-sub.txt");
    const QString inParent = m_outside->filePath(QStringLiteral("from-sub.txt"));
    const QJsonObject created = createTerminal(
        workspace + QStringLiteral("/src/deep"),
        u"pwd; echo root > \"$1\" && echo wrote-root; (echo parent > \"$2\") 2>/dev/null || echo parent-refused"_s,
        { atRoot, inParent });
    const QString id = created.value(u"result"_s).toObject().value(u"terminalId"_s).toString();
    QVERIFY2(!id.isEmpty(), QJsonDocument(created).toJson().constData());
    agentCall(QStringLiteral("terminal/wait_for_exit"), { { u"terminalId"_s, id } });
    const QString output = agentCall(QStringLiteral("terminal/output"), { { u"terminalId"_s, id } })
                               .value(u"result"_s)
                               .toObject()
                               .value(u"output"_s)
                               .toString();
    QCOMPARE(output, workspace + QStringLiteral("/src/deep\nwrote-root\nparent-refused\n"));
    QVERIFY(QFile::exists(atRoot));
    QVERIFY(!QFile::exists(inParent));
}

// The engine refusing a terminal (a cwd that does not exist, a cwd the policy denies) is an
// error for the agent, and the bridge goes on serving.
void TestAcpBridge::refusedTerminalGetsAnErrorAndTheBridgeKeepsServing()
{
    const QString home = m_root->filePath(QStringLiteral("home"));
    start();
    handshake(home);
    for (const QString &cwd :
         { QString(home + QStringLiteral("/no-such-folder")), QString(home + QStringLiteral("/.ssh")) }) {
        const QJsonObject refused = createTerminal(cwd, u"echo ran"_s);
        QVERIFY2(refused.contains(u"error"_s), QJsonDocument(refused).toJson().constData());
        QCOMPARE(refused.value(u"error"_s).toObject().value(u"code"_s).toInt(), -32000);
        QVERIFY2(refused.value(u"error"_s).toObject().value(u"message"_s).toString().contains(cwd),
                 QJsonDocument(refused).toJson().constData());
        const QJsonObject next = createTerminal({}, u"echo next"_s);
        const QString id = next.value(u"result"_s).toObject().value(u"terminalId"_s).toString();
        QVERIFY2(!id.isEmpty(), QJsonDocument(next).toJson().constData());
        QCOMPARE(agentCall(QStringLiteral("terminal/wait_for_exit"), { { u"terminalId"_s, id } })
                     .value(u"result"_s)
                     .toObject()
                     .value(u"exitCode"_s)
                     .toInt(-1),
                 0);
    }
    QCOMPARE(m_bridge->state(), QProcess::Running);
}

void TestAcpBridge::missingAgentProgramIsNamed()
{
    const QString program = m_root->filePath(QStringLiteral("no-such-agent"));
    start({}, { program, QStringLiteral("--stdio") });
    QVERIFY(m_bridge->waitForFinished(30000));
    m_stderr += m_bridge->readAllStandardError();
    QCOMPARE(m_bridge->exitCode(), 127);
    QVERIFY2(m_stderr.contains(program.toUtf8()), m_stderr.constData());
}

// Two editors' bridges share the engine the first one hosts; when the first quits, the
// second goes on: its next terminal runs in an engine it reaches or hosts itself.
void TestAcpBridge::bridgeGoesOnWhenTheEngineItUsesGoesAway()
{
    QProcess first;
    first.setProcessEnvironment(bridgeEnvironment());
    first.setWorkingDirectory(m_workspace);
    first.start(QCoreApplication::applicationDirPath() + QStringLiteral("/sandbox-acp"),
                { QStringLiteral("--embedded"), QStringLiteral("--socket"), socketPath(), QStringLiteral("--"),
                  QStringLiteral("python3"), agentScript() });
    QVERIFY2(first.waitForStarted(10000), qPrintable(first.errorString()));
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(socketPath()), 30000);

    start({}, {}, false);
    handshake();
    const auto runs = [this](const QString &word) {
        const QJsonObject created = createTerminal({}, u"echo "_s + word);
        const QString id = created.value(u"result"_s).toObject().value(u"terminalId"_s).toString();
        if (id.isEmpty())
            return QString::fromUtf8(QJsonDocument(created).toJson());
        return outputWhenEnded(id);
    };
    QCOMPARE(runs(u"one"_s), QStringLiteral("one"));

    first.closeWriteChannel();
    QVERIFY(first.waitForFinished(30000));
    QCOMPARE(first.exitCode(), 0);

    QCOMPARE(runs(u"two"_s), QStringLiteral("two"));
    QCOMPARE(m_bridge->state(), QProcess::Running);
    QTRY_VERIFY_WITH_TIMEOUT(m_stderr.contains("the engine went away"), 10000);
}

QTEST_GUILESS_MAIN(TestAcpBridge)
#include "tst_acp_bridge.moc"
