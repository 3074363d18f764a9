// The local protocol's framing and message handling, through the real transports: byte
// streams cut anywhere, garbage, truncated and oversized frames, unknown methods, wrong
// and missing parameters. Each gets a JSON-RPC error naming what is wrong (or, for a
// broken stream, a clean hang-up), and the server keeps serving everyone else.
#include "client/Client.h"
#include "client/FrameDecoder.h"
#include "client/InProcessTransport.h"
#include "client/LocalSocketTransport.h"
#include "client/ProtocolMethods.h"
#include "client/RpcMessage.h"
#include "core/Engine.h"
#include "core/launcher/Launcher.h"
#include "server/LocalServer.h"
#include "server/ProtocolServer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLocalSocket>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

#include <algorithm>
#include <memory>

using namespace sandbox;

namespace {

QByteArray frameOf(const QByteArray &payload)
{
    QByteArray header(4, Qt::Uninitialized);
    qToBigEndian<quint32>(quint32(payload.size()), header.data());
    return header + payload;
}

QByteArray frameOf(const QJsonObject &object)
{
    return frameOf(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

QJsonObject request(int id, const QString &method, const QJsonObject &params = {})
{
    return QJsonObject{ { QStringLiteral("jsonrpc"), QStringLiteral("2.0") },
                        { QStringLiteral("id"), id },
                        { QStringLiteral("method"), method },
                        { QStringLiteral("params"), params } };
}

template <typename T> T waitFor(const QFuture<T> &future)
{
    if (!QTest::qWaitFor([&future] { return future.isFinished(); }, 20000))
        return T(); // an error Result: the caller's check fails and says so
    return future.result();
}

// A client that speaks raw bytes, to send what a well-behaved Client never would.
class RawClient
{
public:
    explicit RawClient(const QString &path)
    {
        m_socket.connectToServer(path);
        QVERIFY(m_socket.waitForConnected(5000));
    }

    void send(const QByteArray &bytes)
    {
        m_socket.write(bytes);
        m_socket.flush();
    }

    // The next message from the server (skipping notifications), or an empty object when
    // the server hung up first. Waits in the event loop: the server runs in this thread.
    QJsonObject next(int timeoutMs = 10000)
    {
        QJsonObject found;
        auto take = [this, &found] {
            m_decoder.append(m_socket.readAll());
            while (const auto payload = m_decoder.takeFrame()) {
                const QJsonObject object = QJsonDocument::fromJson(*payload).object();
                if (!object.contains(QStringLiteral("method"))) {
                    found = object;
                    return true;
                }
            }
            return m_socket.state() != QLocalSocket::ConnectedState;
        };
        [[maybe_unused]] const bool done = QTest::qWaitFor(take, timeoutMs);
        return found;
    }

    // The next notification named `method`; messages before it are dropped.
    QJsonObject nextNotification(const QString &method, int timeoutMs = 10000)
    {
        QJsonObject found;
        auto take = [this, &found, &method] {
            m_decoder.append(m_socket.readAll());
            while (const auto payload = m_decoder.takeFrame()) {
                const QJsonObject object = QJsonDocument::fromJson(*payload).object();
                if (object.value(QStringLiteral("method")).toString() == method) {
                    found = object;
                    return true;
                }
            }
            return m_socket.state() != QLocalSocket::ConnectedState;
        };
        [[maybe_unused]] const bool done = QTest::qWaitFor(take, timeoutMs);
        return found;
    }

    bool waitForDisconnect(int timeoutMs = 10000)
    {
        return QTest::qWaitFor([this] { return m_socket.state() == QLocalSocket::UnconnectedState; }, timeoutMs);
    }

    void hello()
    {
        send(frameOf(request(0, Method::Hello, { { QStringLiteral("protocolVersion"), ProtocolVersion } })));
        const QJsonObject reply = next();
        QCOMPARE(reply.value(QStringLiteral("result")).toObject().value(QStringLiteral("protocolVersion")).toInt(),
                 ProtocolVersion);
    }

    QLocalSocket m_socket;
    FrameDecoder m_decoder;
};

// A launcher that only says things about itself: what the listing tests need.
class TextLauncher final : public Launcher
{
public:
    TextLauncher(QString kind, QString reason)
        : m_kind(std::move(kind))
        , m_reason(std::move(reason))
    { }

    QString kind() const override { return m_kind; }
    BackendDescriptor descriptor() const override
    {
        BackendDescriptor descriptor;
        descriptor.name = QStringLiteral("Text launcher %1").arg(m_kind);
        // Every dimension holds: this launcher runs no command at all.
        for (const QString &dimension : BackendDescriptor::enforcementDimensions())
            descriptor.enforcement.insert(dimension,
                                          QStringLiteral("nothing runs: this test launcher runs no commands"));
        return descriptor;
    }
    QFuture<Status> configure(const ResolvedSettings &) override { return QtFuture::makeReadyFuture(Status()); }
    QFuture<Status> prepare() override { return QtFuture::makeReadyFuture(Status()); }
    QFuture<Availability> isAvailable() override
    {
        return QtFuture::makeReadyFuture(Availability{ m_reason.isEmpty(), m_reason });
    }
    Result<std::shared_ptr<SandboxProcess>> spawn(const SpawnRequest &, const Policy &) override
    {
        return Error{ m_kind, QStringLiteral("this launcher runs nothing"), {} };
    }
    QFuture<Status> disposeIdle() override { return QtFuture::makeReadyFuture(Status()); }

private:
    QString m_kind;
    QString m_reason;
};

// A command that has ended by the time anyone could write to it: started, then finished
// with status 0, from the event loop. It runs nothing.
class EndedProcess final : public SandboxProcess
{
public:
    EndedProcess()
    {
        QMetaObject::invokeMethod(
            this,
            [this] {
                emit started();
                m_running = false;
                emit finished(ExitStatus{ 0, false, 0, false });
            },
            Qt::QueuedConnection);
    }
    qint64 pid() const override { return 0; }
    bool isRunning() const override { return m_running; }
    ExitStatus exitStatus() const override { return ExitStatus{ 0, false, 0, false }; }
    void writeStdin(const QByteArray &) override { }
    void closeStdin() override { }
    void terminate() override { }
    void kill() override { }

private:
    bool m_running = true;
};

class EndingLauncher final : public Launcher
{
public:
    QString kind() const override { return QStringLiteral("ending"); }
    BackendDescriptor descriptor() const override
    {
        BackendDescriptor descriptor;
        descriptor.name = QStringLiteral("Ending launcher");
        for (const QString &dimension : BackendDescriptor::enforcementDimensions())
            descriptor.enforcement.insert(dimension, QStringLiteral("nothing runs: its commands end at once"));
        return descriptor;
    }
    QFuture<Status> configure(const ResolvedSettings &) override { return QtFuture::makeReadyFuture(Status()); }
    QFuture<Status> prepare() override { return QtFuture::makeReadyFuture(Status()); }
    QFuture<Availability> isAvailable() override { return QtFuture::makeReadyFuture(Availability{ true, {} }); }
    Result<std::shared_ptr<SandboxProcess>> spawn(const SpawnRequest &, const Policy &) override
    {
        return std::shared_ptr<SandboxProcess>(std::make_shared<EndedProcess>());
    }
    QFuture<Status> disposeIdle() override { return QtFuture::makeReadyFuture(Status()); }
};

QJsonObject errorOf(const QJsonObject &reply)
{
    return reply.value(QStringLiteral("error")).toObject();
}

} // namespace

class TestProtocolWire final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void frameDecoderReassemblesPieces();
    void frameDecoderRejectsOversizedAndEmptyFrames();
    void frameDecoderNamesTruncation();
    void messageDecoderNamesTheField_data();
    void messageDecoderNamesTheField();

    void garbageGetsParseErrorAndConnectionSurvives();
    void requestBeforeHelloIsRefused();
    void unknownProtocolVersionIsRefusedAndClosed();
    void unknownMethodIsNamed();
    void wrongOrMissingParametersAreNamed_data();
    void wrongOrMissingParametersAreNamed();
    void oversizedMessageClosesOnlyThatConnection();
    void truncatedFrameThenHangUpLeavesServerHealthy();
    void clientSeesSameResultsInProcessAndOverSocket();
    void credentialChangesArePushedWithoutTheValue();
    void clientFailsPendingCallsWhenEngineGoesAway();
    void clientRefusesAQuestionItCannotDecode();
    void clientReportsNotificationsItCannotDecode();
    void markupInAReasonHidesNoBackend();
    void clientListsTheBackendsItCanRead();
    void stdinCrossingTheExitIsNoError();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Engine> m_engine;
    std::unique_ptr<ProtocolServer> m_server;
    std::unique_ptr<LocalServer> m_local;
    QString m_socketPath;
};

void TestProtocolWire::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    Engine::Options options;
    options.configDirectory = m_dir->filePath(QStringLiteral("config"));
    options.stateDirectory = m_dir->filePath(QStringLiteral("state"));
    options.keychainService = QStringLiteral("sandbox-studio-test-wire");
    m_engine = std::make_unique<Engine>(options);
    m_server = std::make_unique<ProtocolServer>(*m_engine);
    m_local = std::make_unique<LocalServer>(*m_server);
    m_socketPath = m_dir->filePath(QStringLiteral("run/engine.sock"));
    const Status listening = m_local->listen(m_socketPath);
    QVERIFY2(listening.ok(), qPrintable(listening.ok() ? QString() : listening.error().toString()));
}

void TestProtocolWire::cleanup()
{
    m_local.reset();
    m_server.reset();
    m_engine.reset();
    m_dir.reset();
}

void TestProtocolWire::frameDecoderReassemblesPieces()
{
    QByteArray stream;
    const QList<QByteArray> payloads{ QByteArrayLiteral("{\"a\":1}"), QByteArray(70000, 'x'),
                                      QByteArrayLiteral("{\"b\":\"\xc3\xa9\"}") };
    for (const QByteArray &p : payloads)
        stream += *FrameDecoder::encode(p);
    FrameDecoder decoder;
    QList<QByteArray> received;
    for (char byte : stream) {
        decoder.append(QByteArray(1, byte));
        while (const auto payload = decoder.takeFrame())
            received.append(*payload);
    }
    QCOMPARE(received, payloads);
    QCOMPARE(decoder.pendingBytes(), 0);
    QVERIFY(decoder.truncationError().isEmpty());
}

void TestProtocolWire::frameDecoderRejectsOversizedAndEmptyFrames()
{
    FrameDecoder decoder;
    QByteArray header(4, Qt::Uninitialized);
    qToBigEndian<quint32>(9 * 1024 * 1024, header.data());
    decoder.append(header);
    QVERIFY(!decoder.takeFrame());
    QVERIFY(decoder.failed());
    QCOMPARE(decoder.errorString(),
             QStringLiteral("protocol error: message of 9437184 bytes exceeds the limit of 8388608 bytes"));
    decoder.append(*FrameDecoder::encode(QByteArrayLiteral("{}")));
    QVERIFY2(!decoder.takeFrame(), "a broken stream must stay broken");

    FrameDecoder empty;
    empty.append(QByteArray(4, '\0'));
    QVERIFY(!empty.takeFrame());
    QCOMPARE(empty.errorString(), QStringLiteral("protocol error: empty frame (length 0)"));

    QVERIFY(!FrameDecoder::encode(QByteArray(FrameDecoder::DefaultMaxPayload + 1, 'x')));
}

void TestProtocolWire::frameDecoderNamesTruncation()
{
    FrameDecoder decoder;
    decoder.append(frameOf(QByteArrayLiteral("{\"jsonrpc\":\"2.0\"}")).left(10));
    QVERIFY(!decoder.takeFrame());
    QCOMPARE(decoder.truncationError(),
             QStringLiteral("protocol error: connection closed inside a frame (6 of 17 bytes)"));
    FrameDecoder header;
    header.append(QByteArray(2, '\0'));
    QCOMPARE(header.truncationError(),
             QStringLiteral("protocol error: connection closed inside a frame header (2 of 4 bytes)"));
}

void TestProtocolWire::messageDecoderNamesTheField_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("message");
    QTest::newRow("not json") << QByteArrayLiteral("{\"jsonrpc\":") << QStringLiteral("message")
                              << QStringLiteral("not valid JSON at offset");
    QTest::newRow("array") << QByteArrayLiteral("[1]") << QStringLiteral("message")
                           << QStringLiteral("expected a JSON object");
    QTest::newRow("no version") << QByteArrayLiteral("{\"id\":1,\"method\":\"x\"}") << QStringLiteral("jsonrpc")
                                << QStringLiteral("missing");
    QTest::newRow("old version") << QByteArrayLiteral("{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"x\"}")
                                 << QStringLiteral("jsonrpc") << QStringLiteral("expected \"2.0\"");
    QTest::newRow("method number") << QByteArrayLiteral("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":5}")
                                   << QStringLiteral("method")
                                   << QStringLiteral("expected a non-empty string, got a number");
    QTest::newRow("params array") << QByteArrayLiteral("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":[]}")
                                  << QStringLiteral("params") << QStringLiteral("expected an object, got an array");
    QTest::newRow("id object") << QByteArrayLiteral("{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"x\"}")
                               << QStringLiteral("id") << QStringLiteral("expected an integer or a string");
    QTest::newRow("id fraction") << QByteArrayLiteral("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"x\"}")
                                 << QStringLiteral("id") << QStringLiteral("expected an integer or a string");
    QTest::newRow("extra member") << QByteArrayLiteral("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"code\":1}")
                                  << QStringLiteral("message") << QStringLiteral("unknown member \"code\"");
    QTest::newRow("result and error") << QByteArrayLiteral("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":1,\"error\":{}}")
                                      << QStringLiteral("result") << QStringLiteral("exactly one of");
    QTest::newRow("error code text") << QByteArrayLiteral(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":\"x\",\"message\":\"m\"}}")
                                     << QStringLiteral("error.code")
                                     << QStringLiteral("expected an integer, got a string");
}

void TestProtocolWire::messageDecoderNamesTheField()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, where);
    QFETCH(QString, message);
    const Result<QJsonObject> object = decodePayload(json);
    const Error error = object.ok() ? RpcMessage::fromJson(object.value()).error() : object.error();
    QCOMPARE(error.where, where);
    QVERIFY2(error.message.contains(message), qPrintable(error.message));
}

void TestProtocolWire::garbageGetsParseErrorAndConnectionSurvives()
{
    RawClient raw(m_socketPath);
    raw.hello();
    raw.send(frameOf(QByteArrayLiteral("this is not json")));
    const QJsonObject reply = raw.next();
    QCOMPARE(errorOf(reply).value(QStringLiteral("code")).toInt(), RpcErrorCode::ParseError);
    QVERIFY(errorOf(reply).value(QStringLiteral("message")).toString().contains(QStringLiteral("not valid JSON")));
    QVERIFY(reply.value(QStringLiteral("id")).isNull());

    raw.send(frameOf(request(7, Method::PolicyGet)));
    const QJsonObject policy = raw.next();
    QCOMPARE(policy.value(QStringLiteral("id")).toInt(), 7);
    QVERIFY(policy.value(QStringLiteral("result")).toObject().contains(QStringLiteral("policy")));
}

void TestProtocolWire::requestBeforeHelloIsRefused()
{
    RawClient raw(m_socketPath);
    raw.send(frameOf(request(1, Method::BackendsList)));
    const QJsonObject reply = raw.next();
    QCOMPARE(errorOf(reply).value(QStringLiteral("code")).toInt(), RpcErrorCode::HelloRequired);
    QVERIFY(errorOf(reply).value(QStringLiteral("message")).toString().contains(QStringLiteral("hello")));
    raw.hello();
}

void TestProtocolWire::unknownProtocolVersionIsRefusedAndClosed()
{
    RawClient raw(m_socketPath);
    raw.send(frameOf(request(1, Method::Hello, { { QStringLiteral("protocolVersion"), 99 } })));
    const QJsonObject reply = raw.next();
    QCOMPARE(errorOf(reply).value(QStringLiteral("code")).toInt(), RpcErrorCode::VersionMismatch);
    QCOMPARE(errorOf(reply).value(QStringLiteral("message")).toString(),
             QStringLiteral("protocol version 99 is not supported; this engine speaks version 1"));
    QVERIFY(raw.waitForDisconnect());
}

void TestProtocolWire::unknownMethodIsNamed()
{
    RawClient raw(m_socketPath);
    raw.hello();
    raw.send(frameOf(request(3, QStringLiteral("backends.explode"))));
    const QJsonObject reply = raw.next();
    QCOMPARE(reply.value(QStringLiteral("id")).toInt(), 3);
    QCOMPARE(errorOf(reply).value(QStringLiteral("code")).toInt(), RpcErrorCode::MethodNotFound);
    QCOMPARE(errorOf(reply).value(QStringLiteral("message")).toString(),
             QStringLiteral("unknown method \"backends.explode\""));
}

void TestProtocolWire::wrongOrMissingParametersAreNamed_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<QJsonObject>("params");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing ref") << QString(Method::BackendsDescribe) << QJsonObject() << QStringLiteral("params.ref")
                                 << QStringLiteral("missing");
    QTest::newRow("ref number") << QString(Method::SettingsGet) << QJsonObject{ { QStringLiteral("ref"), 4 } }
                                << QStringLiteral("params.ref") << QStringLiteral("expected");
    QTest::newRow("ref text bad") << QString(Method::BackendsActivate)
                                  << QJsonObject{ { QStringLiteral("ref"), QStringLiteral("nonsense") } }
                                  << QStringLiteral("params.ref") << QString();
    QTest::newRow("unknown param") << QString(Method::PolicyGet) << QJsonObject{ { QStringLiteral("bogus"), 1 } }
                                   << QStringLiteral("params.bogus") << QStringLiteral("unknown parameter");
    QTest::newRow("process id text") << QString(Method::ProcessKill)
                                     << QJsonObject{ { QStringLiteral("processId"), QStringLiteral("abc") } }
                                     << QStringLiteral("params.processId")
                                     << QStringLiteral("expected a positive integer, got a string");
    QTest::newRow("signal unknown") << QString(Method::ProcessKill)
                                    << QJsonObject{ { QStringLiteral("processId"), 1 },
                                                    { QStringLiteral("signal"), QStringLiteral("SIGKILL") } }
                                    << QStringLiteral("params.signal")
                                    << QStringLiteral("expected \"interrupt\", \"terminate\" or \"hangup\"");
    QTest::newRow("process id missing") << QString(Method::ProcessCloseStdin) << QJsonObject()
                                        << QStringLiteral("params.processId") << QStringLiteral("missing");
    QTest::newRow("stdin not base64") << QString(Method::ProcessWrite)
                                      << QJsonObject{ { QStringLiteral("processId"), 1 },
                                                      { QStringLiteral("data"), QStringLiteral("%%%") } }
                                      << QStringLiteral("params.data") << QStringLiteral("not valid base64");
    QTest::newRow("policy wrong type") << QString(Method::PolicySet)
                                       << QJsonObject{ { QStringLiteral("policy"), QStringLiteral("open") } }
                                       << QStringLiteral("params.policy") << QString();
    QTest::newRow("spawn without argv")
        << QString(Method::ProcessSpawn)
        << QJsonObject{ { QStringLiteral("request"), QJsonObject{ { QStringLiteral("cwd"), QStringLiteral("/") } } } }
        << QStringLiteral("params.request.argv") << QString();
    QTest::newRow("secret empty") << QString(Method::SecretsReplace)
                                  << QJsonObject{ { QStringLiteral("ref"), QStringLiteral("builtin:auto") },
                                                  { QStringLiteral("field"), QStringLiteral("k") },
                                                  { QStringLiteral("value"), QString() } }
                                  << QStringLiteral("params.value") << QStringLiteral("non-empty");
    QTest::newRow("pack id missing") << QString(Method::PacksDisable) << QJsonObject()
                                     << QStringLiteral("params.packId") << QStringLiteral("missing");
    QTest::newRow("answer wrong") << QString(Method::InteractionAnswer)
                                  << QJsonObject{ { QStringLiteral("answer"),
                                                    QJsonObject{ { QStringLiteral("id"), 3 } } } }
                                  << QStringLiteral("params.answer.id") << QString();
}

void TestProtocolWire::wrongOrMissingParametersAreNamed()
{
    QFETCH(QString, method);
    QFETCH(QJsonObject, params);
    QFETCH(QString, where);
    QFETCH(QString, message);
    const Policy before = m_engine->policy();
    RawClient raw(m_socketPath);
    raw.hello();
    raw.send(frameOf(request(9, method, params)));
    const QJsonObject reply = raw.next();
    QCOMPARE(reply.value(QStringLiteral("id")).toInt(), 9);
    const QJsonObject error = errorOf(reply);
    QCOMPARE(error.value(QStringLiteral("code")).toInt(), RpcErrorCode::InvalidParams);
    const QString text = error.value(QStringLiteral("message")).toString();
    QVERIFY2(text.startsWith(where), qPrintable(text));
    QVERIFY2(text.contains(message), qPrintable(text));
    QCOMPARE(
        error.value(QStringLiteral("data")).toObject().value(QStringLiteral("where")).toString().left(where.size()),
        where);
    QCOMPARE(m_engine->policy(), before);
}

void TestProtocolWire::oversizedMessageClosesOnlyThatConnection()
{
    RawClient bystander(m_socketPath);
    bystander.hello();

    RawClient raw(m_socketPath);
    raw.hello();
    QByteArray header(4, Qt::Uninitialized);
    qToBigEndian<quint32>(FrameDecoder::DefaultMaxPayload + 1, header.data());
    raw.send(header + QByteArray(1024, '{'));
    const QJsonObject reply = raw.next();
    QCOMPARE(errorOf(reply).value(QStringLiteral("code")).toInt(), RpcErrorCode::TooLarge);
    QCOMPARE(errorOf(reply).value(QStringLiteral("message")).toString(),
             QStringLiteral("protocol error: message of 8388609 bytes exceeds the limit of 8388608 bytes"));
    QVERIFY(raw.waitForDisconnect());

    bystander.send(frameOf(request(2, Method::EngineStatus)));
    const QJsonObject status = bystander.next();
    QCOMPARE(status.value(QStringLiteral("result")).toObject().value(QStringLiteral("clients")).toInt(), 1);
}

void TestProtocolWire::truncatedFrameThenHangUpLeavesServerHealthy()
{
    QSignalSpy closed(m_server.get(), &ProtocolServer::sessionClosed);
    {
        RawClient raw(m_socketPath);
        raw.hello();
        raw.send(frameOf(request(5, Method::BackendsList)).left(12));
        raw.m_socket.disconnectFromServer();
    }
    QTRY_COMPARE(closed.count(), 1);
    QVERIFY2(closed.at(0).at(2).toString().contains(QStringLiteral("inside a frame")),
             qPrintable(closed.at(0).at(2).toString()));
    QCOMPARE(m_server->sessionCount(), 0);

    RawClient next(m_socketPath);
    next.hello();
}

void TestProtocolWire::clientSeesSameResultsInProcessAndOverSocket()
{
    auto [clientEnd, serverEnd] = InProcessTransport::createPair();
    m_server->addConnection(std::move(serverEnd));
    Client embedded(std::move(clientEnd));
    QString error;
    auto transport = LocalSocketTransport::connectTo(m_socketPath, 5000, &error);
    QVERIFY2(transport, qPrintable(error));
    Client remote(std::move(transport));

    const Result<Policy> a = waitFor(embedded.policy());
    const Result<Policy> b = waitFor(remote.policy());
    QVERIFY(a.ok() && b.ok());
    QCOMPARE(a.value(), b.value());

    // The same refusal, word for word, whichever way the request travelled.
    const BackendRef missing = BackendRef::builtin(QStringLiteral("no-such-kind"));
    const Result<SettingsView> ea = waitFor(embedded.settings(missing));
    const Result<SettingsView> eb = waitFor(remote.settings(missing));
    QVERIFY(!ea.ok() && !eb.ok());
    QCOMPARE(ea.error().toString(), eb.error().toString());
    QVERIFY(ea.error().toString().contains(QStringLiteral("builtin:no-such-kind")));

    // A policy change made by one client is pushed to the other.
    QSignalSpy pushed(&remote, &Client::policyChanged);
    Policy changed = a.value();
    changed.network = Policy::NetworkMode::Full;
    QVERIFY(waitFor(embedded.setPolicy(changed)).ok());
    QTRY_COMPARE(pushed.count(), 1);
    QCOMPARE(pushed.at(0).at(0).value<Policy>().network, Policy::NetworkMode::Full);
}

// A credential's value stored or removed by one client reaches every client as
// credentials.changed, which carries nothing but the news (no name, never the value).
void TestProtocolWire::credentialChangesArePushedWithoutTheValue()
{
    auto [clientEnd, serverEnd] = InProcessTransport::createPair();
    m_server->addConnection(std::move(serverEnd));
    Client setter(std::move(clientEnd));
    QString error;
    auto transport = LocalSocketTransport::connectTo(m_socketPath, 5000, &error);
    QVERIFY2(transport, qPrintable(error));
    Client watcher(std::move(transport));
    RawClient raw(m_socketPath);
    raw.hello();
    QVERIFY(waitFor(watcher.policy()).ok());

    const QString name = QStringLiteral("wire%1").arg(QCoreApplication::applicationPid());
    const QString value = QStringLiteral("wire-token-%1").arg(QCoreApplication::applicationPid());
    QSignalSpy changed(&watcher, &Client::credentialsChanged);
    const Status set = waitFor(setter.setCredential(name, value));
    QVERIFY2(set.ok(), qPrintable(set.ok() ? QString() : set.error().toString()));
    QTRY_COMPARE(changed.count(), 1);
    const QJsonObject pushed = raw.nextNotification(Notification::CredentialsChanged);
    QCOMPARE(pushed.value(QStringLiteral("params")).toObject(), QJsonObject());
    const Result<QList<CredentialInfo>> listed = waitFor(watcher.credentials());
    QVERIFY(listed.ok());
    QVERIFY(std::any_of(listed.value().cbegin(), listed.value().cend(),
                        [&name](const CredentialInfo &info) { return info.name == name && info.configured; }));

    QVERIFY(waitFor(setter.removeCredential(name)).ok());
    QTRY_COMPARE(changed.count(), 2);
    QVERIFY(!raw.nextNotification(Notification::CredentialsChanged).isEmpty());

    // A refused value changes nothing, and nobody is told otherwise.
    QVERIFY(!waitFor(setter.setCredential(name, QStringLiteral("line\nbreak"))).ok());
    QVERIFY(waitFor(watcher.policy()).ok());
    QCOMPARE(changed.count(), 2);
}

void TestProtocolWire::clientFailsPendingCallsWhenEngineGoesAway()
{
    QString error;
    auto transport = LocalSocketTransport::connectTo(m_socketPath, 5000, &error);
    QVERIFY2(transport, qPrintable(error));
    Client client(std::move(transport));
    QVERIFY(waitFor(client.policy()).ok());
    QSignalSpy gone(&client, &Client::disconnected);
    m_local.reset();
    m_server.reset();
    QTRY_COMPARE(gone.count(), 1);
    const Result<QList<BackendInfo>> after = waitFor(client.backends());
    QVERIFY(!after.ok());
    QVERIFY2(after.error().message.contains(QStringLiteral("not connected")), qPrintable(after.error().message));
}

namespace {

// The far end of a Client's connection, played by the test: it sends what the real
// engine never would, and shows what the Client sends back.
class FakeEngine final
{
public:
    FakeEngine()
    {
        auto [clientEnd, engineEnd] = InProcessTransport::createPair();
        m_transport = std::move(engineEnd);
        m_fromClient = std::make_unique<QSignalSpy>(m_transport.get(), &Transport::messageReceived);
        client = std::make_unique<Client>(std::move(clientEnd));
    }

    // Answers the Client's handshake.
    bool greet()
    {
        if (!QTest::qWaitFor([this] { return m_fromClient->count() >= 1; }, 10000))
            return false;
        const QJsonObject hello = m_fromClient->at(0).at(0).toJsonObject();
        if (hello.value(QStringLiteral("method")).toString() != Method::Hello)
            return false;
        return m_transport->send(
            RpcMessage::response(hello.value(QStringLiteral("id")),
                                 QJsonObject{ { QStringLiteral("protocolVersion"), ProtocolVersion } })
                .toJson());
    }

    // Answers the Client's request number `index` (after the handshake) with `result`.
    bool reply(qsizetype index, const QJsonObject &result)
    {
        if (!QTest::qWaitFor([this, index] { return sent().size() > index; }, 10000))
            return false;
        return m_transport->send(RpcMessage::response(sent().at(index).value(QStringLiteral("id")), result).toJson());
    }

    bool notify(const QString &method, const QJsonObject &params)
    {
        return m_transport->send(RpcMessage::notification(method, params).toJson());
    }

    // Everything the Client sent after its handshake.
    QList<QJsonObject> sent() const
    {
        QList<QJsonObject> messages;
        for (qsizetype i = 1; i < m_fromClient->count(); ++i)
            messages.append(m_fromClient->at(i).at(0).toJsonObject());
        return messages;
    }

    std::unique_ptr<Client> client;

private:
    std::unique_ptr<InProcessTransport> m_transport;
    std::unique_ptr<QSignalSpy> m_fromClient;
};

QJsonObject confirmWithOptions(const QJsonValue &id)
{
    QJsonObject request{ { QStringLiteral("kind"), QStringLiteral("confirm") },
                         { QStringLiteral("title"), QStringLiteral("Set up") },
                         { QStringLiteral("message"), QStringLiteral("Allow the set-up?") },
                         { QStringLiteral("options"),
                           QJsonArray{ QJsonObject{ { QStringLiteral("value"), QStringLiteral("yes") },
                                                    { QStringLiteral("label"), QStringLiteral("Yes") } } } } };
    if (!id.isUndefined())
        request.insert(QStringLiteral("id"), id);
    return request;
}

} // namespace

void TestProtocolWire::clientRefusesAQuestionItCannotDecode()
{
    FakeEngine engine;
    QVERIFY(engine.greet());
    QSignalSpy asked(engine.client.get(), &Client::hostInteractionRequested);

    QTest::ignoreMessage(
        QtWarningMsg,
        QRegularExpression(QStringLiteral("interaction\\.request.*params\\.request\\.options.*only a choice")));
    QVERIFY(engine.notify(Notification::InteractionRequest,
                          { { QStringLiteral("request"), confirmWithOptions(QStringLiteral("q-1")) } }));
    QTRY_COMPARE(engine.sent().size(), 1);
    const QJsonObject answer = engine.sent().first();
    QCOMPARE(answer.value(QStringLiteral("method")).toString(), QString(Method::InteractionAnswer));
    const Result<HostInteractionResponse> refusal = HostInteractionResponse::fromJson(
        answer.value(QStringLiteral("params")).toObject().value(QStringLiteral("answer")));
    QVERIFY2(refusal.ok(), qPrintable(refusal.ok() ? QString() : refusal.error().toString()));
    QCOMPARE(refusal.value(), (HostInteractionResponse{ QStringLiteral("q-1"), false, {} }));

    // A title with markup is refused the same way.
    QJsonObject markup = confirmWithOptions(QStringLiteral("q-2"));
    markup.remove(QStringLiteral("options"));
    markup.insert(QStringLiteral("title"), QStringLiteral("<b>Set up</b>"));
    QTest::ignoreMessage(QtWarningMsg,
                         QRegularExpression(QStringLiteral("interaction\\.request.*params\\.request\\.title")));
    QVERIFY(engine.notify(Notification::InteractionRequest, { { QStringLiteral("request"), markup } }));
    QTRY_COMPARE(engine.sent().size(), 2);
    QCOMPARE(engine.sent().at(1).value(QStringLiteral("params")).toObject().value(QStringLiteral("answer")),
             QJsonValue(QJsonObject{ { QStringLiteral("id"), QStringLiteral("q-2") },
                                     { QStringLiteral("accepted"), false } }));

    // Without a readable id there is nothing to answer; it is still reported, and the
    // client goes on showing the questions it can decode.
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("interaction\\.request.*params\\.request")));
    QVERIFY(engine.notify(Notification::InteractionRequest,
                          { { QStringLiteral("request"), confirmWithOptions(QJsonValue(42)) } }));
    QJsonObject valid = confirmWithOptions(QStringLiteral("q-3"));
    valid.remove(QStringLiteral("options"));
    QVERIFY(engine.notify(Notification::InteractionRequest, { { QStringLiteral("request"), valid } }));
    QTRY_COMPARE(asked.count(), 1);
    QCOMPARE(asked.at(0).at(0).value<HostInteractionRequest>().id, QStringLiteral("q-3"));
    QCOMPARE(engine.sent().size(), 2);
}

void TestProtocolWire::clientReportsNotificationsItCannotDecode()
{
    FakeEngine engine;
    QVERIFY(engine.greet());
    QSignalSpy finished(engine.client.get(), &Client::activationFinished);
    QSignalSpy policy(engine.client.get(), &Client::policyChanged);
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("activation\\.finished.*params\\.result")));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("policy\\.changed.*params\\.policy")));
    QVERIFY(engine.notify(Notification::ActivationFinished, { { QStringLiteral("result"), QStringLiteral("done") } }));
    QVERIFY(engine.notify(Notification::PolicyChanged, { { QStringLiteral("policy"), 7 } }));
    // Delivery is in order: once a later notification arrives, both were handled.
    QSignalSpy backendsChanged(engine.client.get(), &Client::backendsChanged);
    QVERIFY(engine.notify(Notification::BackendsChanged, {}));
    QTRY_COMPARE(backendsChanged.count(), 1);
    QCOMPARE(finished.count(), 0);
    QCOMPARE(policy.count(), 0);
}

void TestProtocolWire::markupInAReasonHidesNoBackend()
{
    // A reason that clients would refuse as markup is checked where it enters the engine.
    m_engine->registerBuiltin(
        std::make_shared<TextLauncher>(QStringLiteral("marked"), QStringLiteral("start <runtime> first")));
    m_engine->registerBuiltin(std::make_shared<TextLauncher>(QStringLiteral("plain"), QString()));
    auto [clientEnd, serverEnd] = InProcessTransport::createPair();
    m_server->addConnection(std::move(serverEnd));
    Client client(std::move(clientEnd));

    const BackendRef marked = BackendRef::builtin(QStringLiteral("marked"));
    const BackendRef plain = BackendRef::builtin(QStringLiteral("plain"));
    QTRY_VERIFY(m_engine->backend(plain).value().availability.available);
    QTRY_VERIFY(!m_engine->backend(marked).value().availability.reason.contains(QStringLiteral("Not checked")));
    const Result<QList<BackendInfo>> listed = waitFor(client.backends());
    QVERIFY2(listed.ok(), qPrintable(listed.ok() ? QString() : listed.error().toString()));
    QCOMPARE(listed.value().size(), 2);
    QCOMPARE(listed.value().at(0).ref, marked);
    QVERIFY(!listed.value().at(0).availability.available);
    QVERIFY(!listed.value().at(0).availability.reason.contains(QLatin1Char('<')));
    QVERIFY(listed.value().at(0).availability.reason.contains(QStringLiteral("not plain text")));
    QCOMPARE(listed.value().at(1).ref, plain);
    QVERIFY(listed.value().at(1).availability.available);

    // Activating it says why it is not available, in words a client can show.
    const Result<ActivationResult> activated = waitFor(client.activate(marked));
    QVERIFY(activated.ok());
    QVERIFY(!activated.value().ok);
    QVERIFY(!activated.value().error.toString().contains(QStringLiteral("<runtime>")));
}

void TestProtocolWire::clientListsTheBackendsItCanRead()
{
    FakeEngine engine;
    QVERIFY(engine.greet());
    const QFuture<Result<QList<BackendInfo>>> listing = engine.client->backends();

    BackendInfo good;
    good.ref = BackendRef::builtin(QStringLiteral("good"));
    good.descriptor.name = QStringLiteral("Good");
    good.availability = Availability{ true, {} };
    good.sourceLabel = QStringLiteral("Built-in");
    QJsonObject bad = good.toJson();
    bad.insert(QStringLiteral("ref"), BackendRef::builtin(QStringLiteral("bad")).toJson());
    bad.insert(QStringLiteral("availability"),
               QJsonObject{ { QStringLiteral("available"), false },
                            { QStringLiteral("reason"), QStringLiteral("install <b>it</b>") } });
    const QJsonObject noRef{ { QStringLiteral("descriptor"), QStringLiteral("<script>") } };
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("backend entry was left out")));
    QVERIFY(engine.reply(0, { { QStringLiteral("backends"), QJsonArray{ bad, noRef, good.toJson() } } }));

    const Result<QList<BackendInfo>> listed = waitFor(listing);
    QVERIFY2(listed.ok(), qPrintable(listed.ok() ? QString() : listed.error().toString()));
    QCOMPARE(listed.value().size(), 2);
    QCOMPARE(listed.value().at(0).ref, BackendRef::builtin(QStringLiteral("bad")));
    QVERIFY(!listed.value().at(0).availability.available);
    QVERIFY(listed.value().at(0).availability.reason.contains(QStringLiteral("result.backends[0].availability")));
    QCOMPARE(listed.value().at(1), good);
}

void TestProtocolWire::stdinCrossingTheExitIsNoError()
{
    m_engine->registerBuiltin(std::make_shared<EndingLauncher>());
    const BackendRef ending = BackendRef::builtin(QStringLiteral("ending"));
    QTRY_VERIFY(m_engine->backend(ending).value().availability.available);
    QVERIFY(waitFor(m_engine->activate(ending)).ok);

    RawClient raw(m_socketPath);
    raw.hello();
    SpawnRequest command;
    command.argv = QStringList{ QStringLiteral("/bin/true") };
    command.cwd = m_dir->path();
    raw.send(frameOf(request(1, Method::ProcessSpawn, { { QStringLiteral("request"), command.toJson() } })));
    const QJsonObject spawned = raw.next();
    const qint64 processId
        = spawned.value(QStringLiteral("result")).toObject().value(QStringLiteral("processId")).toInteger();
    QVERIFY2(processId > 0, QJsonDocument(spawned).toJson().constData());
    QVERIFY(!raw.nextNotification(Notification::ProcessExited).isEmpty());

    // The client's end of input, and input, sent before it saw the exit: nothing to do.
    raw.send(frameOf(request(2, Method::ProcessWrite,
                             { { QStringLiteral("processId"), processId },
                               { QStringLiteral("data"), QString::fromLatin1(QByteArray("late").toBase64()) } })));
    QJsonObject reply = raw.next();
    QCOMPARE(reply.value(QStringLiteral("id")).toInt(), 2);
    QVERIFY2(!reply.contains(QStringLiteral("error")), QJsonDocument(reply).toJson().constData());
    raw.send(frameOf(request(3, Method::ProcessCloseStdin, { { QStringLiteral("processId"), processId } })));
    reply = raw.next();
    QCOMPARE(reply.value(QStringLiteral("id")).toInt(), 3);
    QVERIFY2(!reply.contains(QStringLiteral("error")), QJsonDocument(reply).toJson().constData());

    // A process this client never spawned is still refused.
    raw.send(frameOf(request(4, Method::ProcessCloseStdin, { { QStringLiteral("processId"), processId + 1000 } })));
    reply = raw.next();
    QVERIFY(errorOf(reply).value(QStringLiteral("message")).toString().contains(QStringLiteral("no running process")));
    RawClient other(m_socketPath);
    other.hello();
    other.send(frameOf(request(5, Method::ProcessCloseStdin, { { QStringLiteral("processId"), processId } })));
    reply = other.next();
    QVERIFY(errorOf(reply).value(QStringLiteral("message")).toString().contains(QStringLiteral("no running process")));
}

QTEST_GUILESS_MAIN(TestProtocolWire)
#include "tst_protocol_wire.moc"
