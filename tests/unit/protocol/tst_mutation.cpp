#include "ProtocolTestSupport.h"
#include "protocol/ActivationEvent.h"
#include "protocol/BackendInfo.h"
#include "protocol/HostInteraction.h"
#include "protocol/JsonReader.h"
#include "protocol/SettingsValues.h"
#include "protocol/SpawnRequest.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTest>

#include <functional>

using namespace sandbox;

// Deterministic mutation testing: valid documents are damaged byte by byte and value by
// value, and every decoder must answer with a value or an error that says where and what.
// Accepted values must survive toJson() -> fromJson() unchanged.
namespace {

struct Outcome
{
    bool accepted = false;
    QString failure; // non-empty: the decoder broke its contract
};

using Decoder = std::function<Outcome(const QJsonValue &)>;

template <typename T, typename Decode> Outcome checkDecoder(const QJsonValue &value, Decode decode)
{
    const Result<T> result = decode(value);
    if (!result.ok()) {
        const Error &error = result.error();
        if (error.where.isEmpty() || error.message.isEmpty())
            return { false, QStringLiteral("error without where or message: ") + error.toString() };
        return { false, QString() };
    }
    const Result<T> again = decode(QJsonValue(result.value().toJson()));
    if (!again.ok())
        return { true, QStringLiteral("re-decoding its own JSON failed: ") + again.error().toString() };
    if (!(again.value() == result.value()))
        return { true, QStringLiteral("round trip changed the value") };
    return { true, QString() };
}

template <typename T> Decoder decoderOf()
{
    return [](const QJsonValue &v) { return checkDecoder<T>(v, [](const QJsonValue &x) { return T::fromJson(x); }); };
}

template <typename T> Decoder decoderWithPath()
{
    return [](const QJsonValue &v) {
        return checkDecoder<T>(v, [](const QJsonValue &x) { return T::fromJson(x, QStringLiteral("doc")); });
    };
}

struct Sample
{
    const char *name;
    Decoder decode;
    QByteArray document;
};

QList<Sample> samples()
{
    return {
        { "descriptor", decoderOf<BackendDescriptor>(), R"({"name":"Cloud sandbox","description":"Remote.",
            "settings":{"fields":[{"id":"region","type":"string","label":"Region","defaultValue":"us-east"},
            {"id":"apiKey","type":"secret","label":"API key","required":true},
            {"id":"cpus","type":"number","label":"CPUs","defaultValue":2,"min":1,"max":64},
            {"id":"warm","type":"boolean","label":"Warm","defaultValue":false},
            {"id":"tier","type":"select","label":"Tier","defaultValue":"s","options":[{"value":"s","label":"S"},{"value":"l"}]}]},
            "platforms":["linux","windows"],"enforcement":{"filesystem":"remote VM","network":"firewall"}})" },
        { "policy", decoderOf<Policy>(), QJsonDocument(Policy::defaults().toJson()).toJson() },
        { "settings", decoderWithPath<SettingsValues>(), R"({"region":"eu","cpus":4,"warm":true})" },
        { "view", decoderWithPath<SettingsView>(),
          R"({"values":{"region":"eu"},"secrets":{"apiKey":{"configured":true}},"insecureStorage":true})" },
        { "secret", decoderWithPath<SecretUpdate>(), R"({"fieldId":"apiKey","action":"replace","value":"sk"})" },
        { "ref", decoderOf<BackendRef>(), R"({"source":"atom-pack","packId":"acme","kind":"cloud"})" },
        { "event", decoderOf<ActivationEvent>(),
          R"({"activationId":3,"ref":{"source":"builtin","kind":"auto"},"step":"probe","state":"failed","message":"m"})" },
        { "warning", decoderOf<CleanupWarning>(),
          R"({"ref":{"source":"builtin","kind":"vm"},"message":"busy","attempt":2,"willRetry":true})" },
        { "result", decoderOf<ActivationResult>(),
          R"({"activationId":4,"ref":{"source":"builtin","kind":"vm"},"ok":false,"active":{"source":"builtin","kind":"auto"},
            "error":{"where":"w","message":"m","details":[{"message":"d"}]},"failedStep":"prepare"})" },
        { "interaction", decoderOf<HostInteractionRequest>(),
          R"({"id":"q1","ref":{"source":"builtin","kind":"auto"},"kind":"choice","title":"Pick","message":"One",
            "options":[{"value":"a","label":"A"},{"value":"b"}],"defaultValue":"a"})" },
        { "answer", decoderOf<HostInteractionResponse>(), R"({"id":"q1","accepted":true,"value":"a"})" },
        { "spawn", decoderOf<SpawnRequest>(),
          R"({"argv":["/bin/sh","-c","true"],"env":{"A":"1"},"cwd":"/w","timeoutMs":100,
            "policy":{"filesystem":{"readable":["/"]},"network":{"mode":"allowlist","allowedDomains":["*.example.com:443"]},
            "hostExecution":"ask"}})" },
        { "exit", decoderOf<ExitStatus>(), R"({"exitCode":0,"signaled":true,"signal":9,"timedOut":false})" },
        { "process", decoderOf<ProcessInfo>(),
          R"({"id":1,"pid":99,"owner":{"source":"builtin","kind":"auto"},"argv":["ls"],"cwd":"/w","state":"exited",
            "exit":{"exitCode":2},"startedAt":"2026-11-30T08:00:00Z"})" },
        { "backend", decoderOf<BackendInfo>(),
          R"({"ref":{"source":"builtin","kind":"auto"},"descriptor":{"name":"Auto"},"availability":{"available":false,
            "reason":"no namespaces"},"active":true,"sourceLabel":"Built-in"})" },
        { "pack", decoderOf<PackInfo>(),
          R"({"id":"acme","publisher":"Acme","name":"Acme","version":"1.0","enabled":true,
            "backends":[{"source":"atom-pack","packId":"acme","kind":"cloud"}]})" },
    };
}

QJsonValue randomScalarOrContainer(QRandomGenerator &random)
{
    switch (random.bounded(12)) {
    case 0:
        return QJsonValue(QJsonValue::Null);
    case 1:
        return random.bounded(2) == 1;
    case 2:
        return double(random.bounded(-1000, 1000)) / 7.0;
    case 3:
        return 1e300;
    case 4:
        return QStringLiteral("<script>alert(1)</script>");
    case 5:
        return QString(random.bounded(1, 300), QChar(u'a' + char16_t(random.bounded(26))));
    case 6:
        return QJsonArray{ 1, QStringLiteral("x"), QJsonObject() };
    case 7:
        return QJsonObject{ { QStringLiteral("code"), QStringLiteral("f()") } };
    case 8:
        return QString();
    case 9:
        return QStringLiteral("../..");
    case 10:
        return -1;
    default:
        return QStringLiteral("*");
    }
}

// Replaces, removes or adds one value somewhere in the tree.
QJsonValue mutateValue(const QJsonValue &value, QRandomGenerator &random, int depth)
{
    const bool stopHere = depth > 6 || random.bounded(4) == 0;
    if (value.isObject()) {
        QJsonObject object = value.toObject();
        const QStringList keys = object.keys();
        if (stopHere || keys.isEmpty()) {
            switch (random.bounded(3)) {
            case 0:
                if (!keys.isEmpty()) {
                    object.remove(keys.at(random.bounded(keys.size())));
                    return object;
                }
                break;
            case 1:
                object.insert(QStringLiteral("script"), randomScalarOrContainer(random));
                return object;
            default:
                break;
            }
            return randomScalarOrContainer(random);
        }
        const QString key = keys.at(random.bounded(keys.size()));
        object.insert(key, mutateValue(object.value(key), random, depth + 1));
        return object;
    }
    if (value.isArray()) {
        QJsonArray array = value.toArray();
        if (stopHere || array.isEmpty()) {
            if (random.bounded(2) == 0 && !array.isEmpty()) {
                array.removeAt(random.bounded(array.size()));
                return array;
            }
            array.append(random.bounded(2) == 0 ? array.isEmpty() ? QJsonValue(1) : array.first()
                                                : randomScalarOrContainer(random));
            return array;
        }
        const qsizetype index = random.bounded(array.size());
        array.replace(index, mutateValue(array.at(index), random, depth + 1));
        return array;
    }
    return randomScalarOrContainer(random);
}

QByteArray mutateBytes(QByteArray text, QRandomGenerator &random)
{
    const int edits = random.bounded(1, 4);
    for (int e = 0; e < edits; ++e) {
        const qsizetype at = text.isEmpty() ? 0 : random.bounded(text.size());
        switch (random.bounded(5)) {
        case 0:
            if (!text.isEmpty())
                text[at] = char(text.at(at) ^ (1 << random.bounded(8)));
            break;
        case 1:
            text.remove(at, random.bounded(1, 8));
            break;
        case 2:
            text.insert(at, char(random.bounded(256)));
            break;
        case 3:
            text.insert(at, text.mid(random.bounded(qMax<qsizetype>(1, text.size())), random.bounded(1, 16)));
            break;
        default: {
            static const char *tokens[] = { "\"", "{", "}", "[", "]", ",", ":", "null", "1e999", "\\u0000", "-" };
            text.insert(at, tokens[random.bounded(int(std::size(tokens)))]);
            break;
        }
        }
    }
    return text;
}

} // namespace

class TestMutation final : public QObject
{
    Q_OBJECT

private slots:
    void samplesAreValid();
    void byteMutations();
    void valueMutations();
};

void TestMutation::samplesAreValid()
{
    for (const Sample &sample : samples()) {
        const Result<QJsonObject> parsed = parseJsonObject(sample.document, QString::fromLatin1(sample.name));
        QVERIFY2(parsed.ok(), sample.name);
        const Outcome outcome = sample.decode(parsed.value());
        QVERIFY2(outcome.accepted && outcome.failure.isEmpty(), qPrintable(QString::fromLatin1(sample.name)));
    }
}

void TestMutation::byteMutations()
{
    QRandomGenerator random(20261130);
    int accepted = 0, rejected = 0, unparsable = 0;
    const QList<Sample> all = samples();
    for (int i = 0; i < 30000; ++i) {
        const Sample &sample = all.at(i % all.size());
        const QByteArray text = mutateBytes(sample.document, random);
        const Result<QJsonObject> parsed = parseJsonObject(text, QStringLiteral("doc"));
        if (!parsed.ok()) {
            QVERIFY(!parsed.error().where.isEmpty() && !parsed.error().message.isEmpty());
            ++unparsable;
            continue;
        }
        const Outcome outcome = sample.decode(parsed.value());
        QVERIFY2(outcome.failure.isEmpty(),
                 qPrintable(QStringLiteral("%1, iteration %2: %3\n%4")
                                .arg(QString::fromLatin1(sample.name))
                                .arg(i)
                                .arg(outcome.failure, QString::fromUtf8(text))));
        outcome.accepted ? ++accepted : ++rejected;
    }
    qInfo("byte mutations: %d accepted, %d rejected, %d not JSON", accepted, rejected, unparsable);
    QVERIFY(rejected > 0);
    QVERIFY(accepted > 0);
}

void TestMutation::valueMutations()
{
    QRandomGenerator random(424242);
    int accepted = 0, rejected = 0;
    const QList<Sample> all = samples();
    for (int i = 0; i < 30000; ++i) {
        const Sample &sample = all.at(i % all.size());
        QJsonValue value = QJsonDocument::fromJson(sample.document).object();
        const int mutations = random.bounded(1, 4);
        for (int m = 0; m < mutations; ++m)
            value = mutateValue(value, random, 0);
        const Outcome outcome = sample.decode(value);
        QVERIFY2(
            outcome.failure.isEmpty(),
            qPrintable(QStringLiteral("%1, iteration %2: %3\n%4")
                           .arg(QString::fromLatin1(sample.name))
                           .arg(i)
                           .arg(outcome.failure,
                                QString::fromUtf8(QJsonDocument(QJsonArray{ value }).toJson(QJsonDocument::Compact)))));
        outcome.accepted ? ++accepted : ++rejected;
    }
    qInfo("value mutations: %d accepted, %d rejected", accepted, rejected);
    QVERIFY(rejected > 0);
    QVERIFY(accepted > 0);
}

QTEST_GUILESS_MAIN(TestMutation)
#include "tst_mutation.moc"
