#include "ProtocolTestSupport.h"
#include "protocol/ActivationEvent.h"
#include "protocol/BackendInfo.h"
#include "protocol/HostInteraction.h"
#include "protocol/JsonReader.h"
#include "protocol/SpawnRequest.h"

#include <QJsonArray>
#include <QTest>

using namespace sandbox;
using sandbox::test::jsonValue;

namespace {

const BackendRef autoRef = BackendRef::builtin(QStringLiteral("auto"));
const BackendRef cloudRef = BackendRef::atomPack(QStringLiteral("acme-tools"), QStringLiteral("cloud"));

template <typename T> T roundTripped(const T &value)
{
    const Result<T> again = T::fromJson(value.toJson());
    if (!again.ok())
        qFatal("round trip failed: %s", qPrintable(again.error().toString()));
    return again.value();
}

} // namespace

class TestMessages final : public QObject
{
    Q_OBJECT

private slots:
    void activationSteps();
    void activationEventRoundTrip();
    void cleanupWarningRoundTrip();
    void activationResultRoundTrip();
    void hostInteractionRoundTrip();
    void spawnRoundTrip();
    void processRoundTrip();
    void backendAndPackRoundTrip();
    void errorJson();
    void rejects_data();
    void rejects();
    void parseJsonObjectErrors();
    void readerReportsPaths();
};

void TestMessages::activationSteps()
{
    const QStringList names{ QStringLiteral("validate"), QStringLiteral("resolve-secrets"),
                             QStringLiteral("prepare"),  QStringLiteral("probe"),
                             QStringLiteral("swap"),     QStringLiteral("persist"),
                             QStringLiteral("cleanup") };
    const QList<ActivationStep> steps = allActivationSteps();
    QCOMPARE(steps.size(), names.size());
    for (qsizetype i = 0; i < steps.size(); ++i) {
        QCOMPARE(activationStepName(steps.at(i)), names.at(i));
        QCOMPARE(activationStepFromName(names.at(i)), std::optional(steps.at(i)));
    }
    QVERIFY(!activationStepFromName(QStringLiteral("Validate")).has_value());
}

void TestMessages::activationEventRoundTrip()
{
    ActivationEvent event;
    event.activationId = 42;
    event.ref = cloudRef;
    event.step = ActivationStep::Probe;
    event.state = ActivationEvent::State::Failed;
    event.message = QStringLiteral("runtime not reachable");
    QCOMPARE(roundTripped(event), event);
    QCOMPARE(event.toJson().value(QStringLiteral("step")).toString(), QStringLiteral("probe"));
    QCOMPARE(event.toJson().value(QStringLiteral("state")).toString(), QStringLiteral("failed"));
}

void TestMessages::cleanupWarningRoundTrip()
{
    const CleanupWarning warning{ autoRef, QStringLiteral("helper still busy"), 3, false };
    QCOMPARE(roundTripped(warning), warning);
}

void TestMessages::activationResultRoundTrip()
{
    ActivationResult ok;
    ok.activationId = 7;
    ok.ref = cloudRef;
    ok.ok = true;
    ok.active = cloudRef;
    QCOMPARE(roundTripped(ok), ok);

    ActivationResult failed;
    failed.activationId = 8;
    failed.ref = cloudRef;
    failed.ok = false;
    failed.error = Error{ QStringLiteral("atom-pack:acme-tools:cloud"),
                          QStringLiteral("2 settings are invalid"),
                          { Error{ QStringLiteral("a.x"), QStringLiteral("bad"), {} } } };
    failed.failedStep = ActivationStep::Validate;
    failed.active = autoRef; // nothing changed
    QCOMPARE(roundTripped(failed), failed);

    // When not even the fallback could be established, no backend is active.
    failed.active = BackendRef();
    QVERIFY(!failed.toJson().contains(QStringLiteral("active")));
    QCOMPARE(roundTripped(failed), failed);
}

void TestMessages::hostInteractionRoundTrip()
{
    HostInteractionRequest choice;
    choice.id = QStringLiteral("q-1");
    choice.subject = QStringLiteral("region.pick-1");
    choice.ref = cloudRef;
    choice.hasRef = true;
    choice.kind = HostInteractionRequest::Kind::Choice;
    choice.title = QStringLiteral("Pick a region");
    choice.message = QStringLiteral("The nearest region is fastest.");
    choice.options = { { QStringLiteral("eu"), QStringLiteral("Europe") }, { QStringLiteral("us"), QString() } };
    choice.defaultValue = QStringLiteral("eu");
    QCOMPARE(roundTripped(choice), choice);

    HostInteractionRequest secret;
    secret.id = QStringLiteral("q-2");
    secret.kind = HostInteractionRequest::Kind::Secret;
    secret.title = QStringLiteral("API key");
    QCOMPARE(roundTripped(secret), secret);
    QVERIFY(!secret.toJson().contains(QStringLiteral("ref")));

    const HostInteractionResponse answer{ QStringLiteral("q-1"), true, QStringLiteral("eu") };
    QCOMPARE(roundTripped(answer), answer);
    const HostInteractionResponse declined{ QStringLiteral("q-2"), false, QString() };
    QCOMPARE(roundTripped(declined), declined);
}

void TestMessages::spawnRoundTrip()
{
    SpawnRequest request;
    request.argv = { QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("echo hi; exit 3") };
    request.env = { { QStringLiteral("LANG"), QStringLiteral("C.UTF-8") }, { QStringLiteral("EMPTY"), QString() } };
    request.cwd = QStringLiteral("/home/dev/project");
    request.timeoutMs = 5000;
    QCOMPARE(roundTripped(request), request);
    request.policy = Policy::defaults();
    QCOMPARE(roundTripped(request), request);
    // Without a workspace the cwd is the workspace, and the key is left out.
    QVERIFY(!request.toJson().contains(QStringLiteral("workspace")));
    QCOMPARE(request.effectiveWorkspace(), request.cwd);
    request.workspace = QStringLiteral("/home/dev");
    QCOMPARE(request.toJson().value(QStringLiteral("workspace")).toString(), QStringLiteral("/home/dev"));
    QCOMPARE(roundTripped(request), request);
    QCOMPARE(roundTripped(request).effectiveWorkspace(), QStringLiteral("/home/dev"));
    request.workspace = request.cwd;
    QCOMPARE(roundTripped(request), request);

    const ExitStatus normal{ 3, false, 0, false };
    QCOMPARE(roundTripped(normal), normal);
    QCOMPARE(normal.shellStatus(), 3);
    const ExitStatus killed{ 0, true, 9, true };
    QCOMPARE(roundTripped(killed), killed);
    QCOMPARE(killed.shellStatus(), 137);
}

void TestMessages::processRoundTrip()
{
    ProcessInfo info;
    info.id = 12;
    info.pid = 4242;
    info.owner = autoRef;
    info.argv = { QStringLiteral("make"), QStringLiteral("test") };
    info.cwd = QStringLiteral("/work/project");
    info.running = true;
    info.startedAt = QStringLiteral("2026-11-30T08:00:00.123Z");
    QCOMPARE(roundTripped(info), info);
    info.running = false;
    info.exit = ExitStatus{ 0, true, 15, false };
    QCOMPARE(roundTripped(info), info);
    QVERIFY(!info.toJson().contains(QStringLiteral("notes")));
    info.notes = { QStringLiteral("workspace VM restored from baseline b1, 3 shares attached") };
    QCOMPARE(roundTripped(info), info);
    QJsonObject wrong = info.toJson();
    wrong.insert(QStringLiteral("notes"), QJsonArray{ 7 });
    QVERIFY(!ProcessInfo::fromJson(wrong).ok());
}

void TestMessages::backendAndPackRoundTrip()
{
    BackendInfo info;
    info.ref = cloudRef;
    info.descriptor.name = QStringLiteral("Cloud sandbox");
    FieldSpec key;
    key.id = QStringLiteral("apiKey");
    key.type = FieldSpec::Type::Secret;
    key.label = QStringLiteral("API key");
    key.required = true;
    info.descriptor.fields = { key };
    info.availability = Availability{ false, QStringLiteral("API key not set") };
    info.active = false;
    info.sourceLabel = QStringLiteral("Acme Tools");
    QCOMPARE(roundTripped(info), info);
    // What would stop an activation travels with it, and only what can be true.
    info.unenforced = { QStringLiteral("network"), QStringLiteral("hostExecution") };
    info.missingSettings = { QStringLiteral("apiKey") };
    QCOMPARE(roundTripped(info), info);
    for (const auto &[member, bad] : QList<std::pair<QString, QJsonArray>>{
             { QStringLiteral("unenforced"), QJsonArray{ QStringLiteral("kernel") } },
             { QStringLiteral("unenforced"), QJsonArray{ QStringLiteral("network"), QStringLiteral("network") } },
             { QStringLiteral("missingSettings"), QJsonArray{ QStringLiteral("endpoint") } },
             { QStringLiteral("missingSettings"), QJsonArray{ 7 } } }) {
        QJsonObject json = info.toJson();
        json.insert(member, bad);
        const Result<BackendInfo> decoded = BackendInfo::fromJson(json);
        QVERIFY2(!decoded.ok(), qPrintable(member));
        QVERIFY2(decoded.error().where.contains(member), qPrintable(decoded.error().toString()));
    }
    const Availability available{ true, QString() };
    QCOMPARE(roundTripped(available), available);

    PackInfo pack;
    pack.id = QStringLiteral("acme-tools");
    pack.publisher = QStringLiteral("Acme");
    pack.name = QStringLiteral("Acme Tools");
    pack.version = QStringLiteral("1.2.0");
    pack.enabled = false;
    pack.backends = { cloudRef, BackendRef::atomPack(QStringLiteral("acme-tools"), QStringLiteral("local")) };
    QCOMPARE(roundTripped(pack), pack);
}

void TestMessages::errorJson()
{
    const Error error{ QStringLiteral("settings"),
                       QStringLiteral("2 settings are invalid"),
                       { Error{ QStringLiteral("settings.a"), QStringLiteral("bad"), {} },
                         Error{ QStringLiteral("settings.b"), QStringLiteral("worse"), {} } } };
    QCOMPARE(Error::fromJson(error.toJson()), error);
    Error strict;
    QVERIFY(errorFromJson(error.toJson(), QStringLiteral("error"), strict).ok());
    QCOMPARE(strict, error);
    QCOMPARE(error.toString(),
             QStringLiteral("settings: 2 settings are invalid\n  - settings.a: bad\n  - settings.b: worse"));
    QCOMPARE((Error{ QString(), QStringLiteral("plain"), {} }).toString(), QStringLiteral("plain"));

    // Deeply nested details are refused by the strict decoder and cut off by the lenient one.
    QJsonObject nested{ { QStringLiteral("message"), QStringLiteral("leaf") } };
    for (int i = 0; i < 20; ++i)
        nested = QJsonObject{ { QStringLiteral("message"), QStringLiteral("m") },
                              { QStringLiteral("details"), QJsonArray{ nested } } };
    Error decoded;
    const Status status = errorFromJson(nested, QStringLiteral("error"), decoded);
    QVERIFY(!status.ok());
    QVERIFY(status.error().message.contains(QStringLiteral("nest too deeply")));
    const Error lenient = Error::fromJson(nested);
    QCOMPARE(lenient.message, QStringLiteral("m"));
    QVERIFY(!lenient.toString().isEmpty());

    const Status unknown = errorFromJson(jsonValue(R"({"message":"x","stack":"..."})"), QStringLiteral("e"), decoded);
    QVERIFY(!unknown.ok());
    SANDBOX_EXPECT_ERROR(unknown.error(), QStringLiteral("e.stack"), QStringLiteral("unknown key"));
}

void TestMessages::rejects_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("message");

    const QByteArray ref = R"({"source":"builtin","kind":"auto"})";
    QTest::newRow("event step") << "event"
                                << R"({"activationId":1,"ref":)" + ref + R"(,"step":"launch","state":"started"})"
                                << "event.step"
                                << "unknown step \"launch\"; expected one of validate, resolve-secrets";
    QTest::newRow("event state") << "event"
                                 << R"({"activationId":1,"ref":)" + ref + R"(,"step":"swap","state":"done"})"
                                 << "event.state"
                                 << "unknown state \"done\"";
    QTest::newRow("event negative id") << "event"
                                       << R"({"activationId":-1,"ref":)" + ref + R"(,"step":"swap","state":"started"})"
                                       << "event.activationId"
                                       << "must be between 0 and";
    QTest::newRow("event fractional id") << "event"
                                         << R"({"activationId":1.5,"ref":)" + ref
            + R"(,"step":"swap","state":"started"})"
                                         << "event.activationId"
                                         << "expected an integer";
    QTest::newRow("event bad ref")
        << "event"
        << QByteArray(R"({"activationId":1,"ref":{"source":"x","kind":"a"},"step":"swap","state":"started"})")
        << "event.ref.source"
        << "unknown source";
    QTest::newRow("event missing ref") << "event" << QByteArray(R"({"activationId":1,"step":"swap","state":"started"})")
                                       << "event.ref"
                                       << "missing required key";
    QTest::newRow("warning attempt") << "warning"
                                     << R"({"ref":)" + ref + R"(,"message":"m","attempt":0,"willRetry":true})"
                                     << "warning.attempt"
                                     << "must be between 1 and";
    QTest::newRow("result ok with error")
        << "result"
        << R"({"activationId":1,"ref":)" + ref + R"(,"ok":true,"active":)" + ref + R"(,"error":{"message":"x"}})"
        << "result.error"
        << "only a failed activation carries error";
    QTest::newRow("result failed without error")
        << "result"
        << R"({"activationId":1,"ref":)" + ref + R"(,"ok":false,"active":)" + ref + "}"
        << "result.error"
        << "a failed activation must say why";
    QTest::newRow("result error type") << "result"
                                       << R"({"activationId":1,"ref":)" + ref + R"(,"ok":false,"active":)" + ref
            + R"(,"error":"boom"})"
                                       << "result.error"
                                       << "expected an object, got a string";
    QTest::newRow("interaction kind") << "interaction" << QByteArray(R"({"id":"q","kind":"html","title":"T"})")
                                      << "interaction.kind"
                                      << "unknown kind \"html\"";
    QTest::newRow("interaction markup") << "interaction"
                                        << QByteArray(R"({"id":"q","kind":"confirm","title":"<a href=x>Click</a>"})")
                                        << "interaction.title"
                                        << "contains markup";
    QTest::newRow("interaction script key")
        << "interaction" << QByteArray(R"({"id":"q","kind":"confirm","title":"T","onAnswer":"x"})")
        << "interaction.onAnswer"
        << "unknown key; interactions are data only";
    QTest::newRow("choice without options")
        << "interaction" << QByteArray(R"({"id":"q","kind":"choice","title":"T"})") << "interaction.options"
        << "a choice needs at least one option";
    QTest::newRow("secret with default") << "interaction"
                                         << QByteArray(R"({"id":"q","kind":"secret","title":"T","defaultValue":"x"})")
                                         << "interaction.defaultValue"
                                         << "a secret question cannot have a default";
    QTest::newRow("choice default")
        << "interaction"
        << QByteArray(R"({"id":"q","kind":"choice","title":"T","options":[{"value":"a"}],"defaultValue":"b"})")
        << "interaction.defaultValue"
        << "not one of the options";
    QTest::newRow("interaction id space")
        << "interaction" << QByteArray(R"({"id":"a b","kind":"confirm","title":"T"})") << "interaction.id"
        << "must not contain whitespace";
    QTest::newRow("interaction subject upper case")
        << "interaction" << QByteArray(R"({"id":"q","subject":"Host","kind":"confirm","title":"T"})")
        << "interaction.subject"
        << "only lower-case letters";
    QTest::newRow("interaction subject empty")
        << "interaction" << QByteArray(R"({"id":"q","subject":"","kind":"confirm","title":"T"})")
        << "interaction.subject"
        << "must have 1 to 64 characters";
    QTest::newRow("answer accepted type")
        << "answer" << QByteArray(R"({"id":"q","accepted":"yes"})") << "answer.accepted"
        << "expected a boolean, got a string";
    QTest::newRow("spawn empty argv") << "spawn" << QByteArray(R"({"argv":[],"cwd":"/w"})") << "spawn.argv"
                                      << "must name a program to run";
    QTest::newRow("spawn missing argv") << "spawn" << QByteArray(R"({"cwd":"/w"})") << "spawn.argv"
                                        << "missing required key";
    QTest::newRow("spawn relative cwd") << "spawn" << QByteArray(R"({"argv":["ls"],"cwd":"w"})") << "spawn.cwd"
                                        << "must be an absolute path";
    QTest::newRow("spawn cwd dotdot") << "spawn" << QByteArray(R"({"argv":["ls"],"cwd":"/w/../etc"})") << "spawn.cwd"
                                      << "\"..\"";
    QTest::newRow("spawn nul arg") << "spawn" << QByteArray(R"({"argv":["ls","a\u0000b"],"cwd":"/w"})")
                                   << "spawn.argv[1]"
                                   << "contains a NUL character";
    QTest::newRow("spawn env name") << "spawn" << QByteArray(R"({"argv":["ls"],"cwd":"/w","env":{"A=B":"x"}})")
                                    << "spawn.env"
                                    << "is not a valid variable name";
    QTest::newRow("spawn env value") << "spawn" << QByteArray(R"({"argv":["ls"],"cwd":"/w","env":{"A":1}})")
                                     << "spawn.env.A"
                                     << "expected a string, got a number";
    QTest::newRow("spawn workspace type")
        << "spawn" << QByteArray(R"({"argv":["ls"],"cwd":"/w","workspace":7})") << "spawn.workspace"
        << "expected a string, got a number";
    QTest::newRow("spawn workspace relative")
        << "spawn" << QByteArray(R"({"argv":["ls"],"cwd":"/w","workspace":"w"})") << "spawn.workspace"
        << "must be an absolute path";
    QTest::newRow("spawn workspace empty")
        << "spawn" << QByteArray(R"({"argv":["ls"],"cwd":"/w","workspace":""})") << "spawn.workspace"
        << "must be an absolute path";
    QTest::newRow("spawn workspace dotdot")
        << "spawn" << QByteArray(R"({"argv":["ls"],"cwd":"/w","workspace":"/w/sub/.."})") << "spawn.workspace"
        << "\"..\"";
    QTest::newRow("spawn cwd outside workspace")
        << "spawn" << QByteArray(R"({"argv":["ls"],"cwd":"/home/dev","workspace":"/home/dev/project"})") << "spawn.cwd"
        << "/home/dev is not inside the workspace /home/dev/project";
    QTest::newRow("spawn cwd beside workspace")
        << "spawn" << QByteArray(R"({"argv":["ls"],"cwd":"/w/project2","workspace":"/w/project"})") << "spawn.cwd"
        << "is not inside the workspace";
    QTest::newRow("spawn timeout") << "spawn" << QByteArray(R"({"argv":["ls"],"cwd":"/w","timeoutMs":-5})")
                                   << "spawn.timeoutMs"
                                   << "must be between 0 and";
    QTest::newRow("spawn bad policy")
        << "spawn"
        << QByteArray(
               R"({"argv":["ls"],"cwd":"/w","policy":{"filesystem":{},"network":{"mode":1},"hostExecution":"deny"}})")
        << "spawn.policy.network.mode"
        << "expected a string, got a number";
    QTest::newRow("exit signal missing") << "exit" << QByteArray(R"({"exitCode":0,"signaled":true})") << "exit.signal"
                                         << "a signaled exit must name its signal";
    QTest::newRow("exit code range") << "exit" << QByteArray(R"({"exitCode":1000})") << "exit.exitCode"
                                     << "must be between";
    QTest::newRow("process state") << "process"
                                   << R"({"id":1,"pid":2,"owner":)" + ref
            + R"(,"argv":["a"],"cwd":"/w","state":"zombie","startedAt":"2026-01-01T00:00:00Z"})"
                                   << "process.state"
                                   << "unknown state \"zombie\"";
    QTest::newRow("process date") << "process"
                                  << R"({"id":1,"pid":2,"owner":)" + ref
            + R"(,"argv":["a"],"cwd":"/w","state":"running","startedAt":"yesterday"})"
                                  << "process.startedAt"
                                  << "expected an ISO 8601 date";
    QTest::newRow("exited without status") << "process"
                                           << R"({"id":1,"pid":2,"owner":)" + ref
            + R"(,"argv":["a"],"cwd":"/w","state":"exited","startedAt":"2026-01-01T00:00:00Z"})"
                                           << "process.exit"
                                           << "must report its exit status";
    QTest::newRow("backend descriptor") << "backend"
                                        << R"({"ref":)" + ref
            + R"(,"descriptor":{"name":"A","script":"x"},"availability":{"available":true},"active":true,"sourceLabel":"Built-in"})"
                                        << "backend.descriptor.script"
                                        << "unknown key; descriptors are data only";
    QTest::newRow("backend missing availability")
        << "backend"
        << R"({"ref":)" + ref + R"(,"descriptor":{"name":"A"},"active":true,"sourceLabel":"Built-in"})"
        << "backend.availability"
        << "missing required key";
    QTest::newRow("availability reason markup")
        << "availability" << QByteArray(R"({"available":false,"reason":"<script>x</script>"})") << "availability.reason"
        << "contains markup";
    QTest::newRow("pack foreign backend")
        << "pack"
        << QByteArray(
               R"({"id":"acme","publisher":"A","name":"A","version":"1","enabled":true,"backends":[{"source":"atom-pack","packId":"other","kind":"x"}]})")
        << "pack.backends[0]"
        << "atom-pack:other:x does not belong to pack \"acme\"";
    QTest::newRow("pack builtin backend")
        << "pack"
        << R"({"id":"acme","publisher":"A","name":"A","version":"1","enabled":true,"backends":[)" + ref + "]}"
        << "pack.backends[0]"
        << "builtin:auto does not belong to pack";
    QTest::newRow("pack id") << "pack"
                             << QByteArray(
                                    R"({"id":"Acme Pack","publisher":"A","name":"A","version":"1","enabled":true})")
                             << "pack.id"
                             << "is not a valid pack id";
}

void TestMessages::rejects()
{
    QFETCH(QString, type);
    QFETCH(QByteArray, json);
    QFETCH(QString, where);
    QFETCH(QString, message);
    const QJsonValue value = jsonValue(json);
    std::optional<Error> error;
    auto check = [&](const auto &result) {
        if (!result.ok())
            error = result.error();
    };
    if (type == QLatin1String("event"))
        check(ActivationEvent::fromJson(value));
    else if (type == QLatin1String("warning"))
        check(CleanupWarning::fromJson(value));
    else if (type == QLatin1String("result"))
        check(ActivationResult::fromJson(value));
    else if (type == QLatin1String("interaction"))
        check(HostInteractionRequest::fromJson(value));
    else if (type == QLatin1String("answer"))
        check(HostInteractionResponse::fromJson(value));
    else if (type == QLatin1String("spawn"))
        check(SpawnRequest::fromJson(value));
    else if (type == QLatin1String("exit"))
        check(ExitStatus::fromJson(value));
    else if (type == QLatin1String("process"))
        check(ProcessInfo::fromJson(value));
    else if (type == QLatin1String("backend"))
        check(BackendInfo::fromJson(value));
    else if (type == QLatin1String("availability"))
        check(Availability::fromJson(value));
    else if (type == QLatin1String("pack"))
        check(PackInfo::fromJson(value));
    else
        QFAIL("unknown type in test data");
    QVERIFY2(error.has_value(), "the document was accepted");
    SANDBOX_EXPECT_ERROR(*error, where, message);
}

void TestMessages::parseJsonObjectErrors()
{
    Result<QJsonObject> parsed = parseJsonObject(R"({"a":)", QStringLiteral("settings.json"));
    QVERIFY(!parsed.ok());
    SANDBOX_EXPECT_ERROR(parsed.error(), QStringLiteral("settings.json"), QStringLiteral("not valid JSON at offset"));
    parsed = parseJsonObject("[1,2]", QStringLiteral("f"));
    QVERIFY(!parsed.ok());
    SANDBOX_EXPECT_ERROR(parsed.error(), QStringLiteral("f"), QStringLiteral("expected a JSON object, got an array"));
    parsed = parseJsonObject(QByteArray(maxDocumentSize + 1, ' '), QStringLiteral("f"));
    QVERIFY(!parsed.ok());
    SANDBOX_EXPECT_ERROR(parsed.error(), QStringLiteral("f"), QStringLiteral("document is too large"));
    parsed = parseJsonObject(R"({"a":1})", QStringLiteral("f"));
    QVERIFY(parsed.ok());
    QCOMPARE(parsed.value().value(QStringLiteral("a")).toInt(), 1);
}

void TestMessages::readerReportsPaths()
{
    JsonReader reader(
        jsonValue(R"({"s":"x","n":1,"big":")" + QByteArray(JsonReader::maxStringLength + 1, 'a') + R"("})"),
        QStringLiteral("root"));
    QCOMPARE(reader.requireString(QStringLiteral("s")), QStringLiteral("x"));
    QVERIFY(reader.ok());
    QCOMPARE(reader.requireString(QStringLiteral("big")), QString());
    QVERIFY(!reader.ok());
    SANDBOX_EXPECT_ERROR(reader.error(), QStringLiteral("root.big"), QStringLiteral("is too long"));
    // The first error wins; later reads are no-ops.
    QCOMPARE(reader.requireNumber(QStringLiteral("s")), 0.0);
    QCOMPARE(reader.error().where, QStringLiteral("root.big"));

    JsonReader typed(jsonValue(R"({"n":1})"), QStringLiteral("root"));
    typed.requireString(QStringLiteral("n"));
    SANDBOX_EXPECT_ERROR(typed.error(), QStringLiteral("root.n"), QStringLiteral("expected a string, got a number"));

    QCOMPARE(JsonReader::typeName(QJsonValue()), QStringLiteral("null"));
    QCOMPARE(JsonReader::typeName(QJsonArray()), QStringLiteral("an array"));
    QVERIFY(JsonReader::plainTextProblem(QStringLiteral("a < b <= c")).isEmpty());
    QVERIFY(!JsonReader::plainTextProblem(QStringLiteral("<SCRIPT>")).isEmpty());
    QVERIFY(!JsonReader::plainTextProblem(QStringLiteral("x<?php")).isEmpty());
}

QTEST_GUILESS_MAIN(TestMessages)
#include "tst_messages.moc"
