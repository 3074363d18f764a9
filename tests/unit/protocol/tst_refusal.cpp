#include "ProtocolTestSupport.h"
#include "protocol/Refusal.h"

#include <QTest>

using namespace sandbox;
using sandbox::test::jsonValue;

class TestRefusal final : public QObject
{
    Q_OBJECT

private slots:
    void kinds();
    void roundTrip();
    void minimalRecord();
    void rejects_data();
    void rejects();
    void shortCommand();
    void cleanText();
};

void TestRefusal::kinds()
{
    const QStringList names{ QStringLiteral("path"),        QStringLiteral("syscall"),    QStringLiteral("network"),
                             QStringLiteral("host-socket"), QStringLiteral("credential"), QStringLiteral("engine") };
    QCOMPARE(Refusal::allKinds().size(), names.size());
    for (qsizetype i = 0; i < names.size(); ++i) {
        QCOMPARE(Refusal::kindName(Refusal::allKinds().at(i)), names.at(i));
        QCOMPARE(Refusal::kindFromName(names.at(i)), std::optional(Refusal::allKinds().at(i)));
    }
    QVERIFY(!Refusal::kindFromName(QStringLiteral("Path")));
}

void TestRefusal::roundTrip()
{
    Refusal refusal;
    refusal.id = 7;
    refusal.timeMs = 1764600000123;
    refusal.kind = Refusal::Kind::Network;
    refusal.what = QStringLiteral("example.org:80");
    refusal.rule = QStringLiteral("network: example.org:80 is not in the policy's allowed domains");
    refusal.processId = 3;
    refusal.command = QStringLiteral("curl http://example.org/");
    refusal.ref = BackendRef::builtin(QStringLiteral("auto"));
    refusal.backendName = QStringLiteral("Automatic");
    const QJsonObject json = refusal.toJson();
    QCOMPARE(json.value(QStringLiteral("kind")).toString(), QStringLiteral("network"));
    QCOMPARE(json.value(QStringLiteral("processId")).toInteger(), 3);
    const Result<Refusal> again = Refusal::fromJson(json);
    QVERIFY2(again.ok(), qPrintable(again.ok() ? QString() : again.error().toString()));
    QCOMPARE(again.value(), refusal);
}

void TestRefusal::minimalRecord()
{
    // A peer refused at the engine's socket: no command, no backend.
    const Result<Refusal> decoded = Refusal::fromJson(
        jsonValue(R"({"id":1,"timeMs":0,"kind":"engine","what":"connection from pid 42","rule":"engine: x"})"));
    QVERIFY(decoded.ok());
    QCOMPARE(decoded.value().processId, quint64(0));
    QVERIFY(!decoded.value().ref.isValid());
    const QJsonObject json = decoded.value().toJson();
    QVERIFY(!json.contains(QStringLiteral("processId")));
    QVERIFY(!json.contains(QStringLiteral("ref")));
    QVERIFY(!json.contains(QStringLiteral("command")));
}

void TestRefusal::rejects_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("message");
    const QByteArray base = R"("id":1,"timeMs":5,"kind":"syscall","what":"ptrace","rule":"seccomp: ptrace")";
    QTest::newRow("not an object") << QByteArray("[]") << "refusal"
                                   << "expected an object";
    QTest::newRow("unknown key") << "{" + base + R"(,"html":"x"})"
                                 << "refusal.html"
                                 << "unknown key";
    QTest::newRow("id zero") << QByteArray(R"({"id":0,"timeMs":5,"kind":"syscall","what":"a","rule":"b"})")
                             << "refusal.id"
                             << "between";
    QTest::newRow("negative time") << QByteArray(R"({"id":1,"timeMs":-1,"kind":"syscall","what":"a","rule":"b"})")
                                   << "refusal.timeMs"
                                   << "between";
    QTest::newRow("unknown kind") << QByteArray(R"({"id":1,"timeMs":1,"kind":"magic","what":"a","rule":"b"})")
                                  << "refusal.kind"
                                  << "unknown kind";
    QTest::newRow("empty what") << QByteArray(R"({"id":1,"timeMs":1,"kind":"path","what":"","rule":"b"})")
                                << "refusal.what"
                                << "must not be empty";
    QTest::newRow("missing rule") << QByteArray(R"({"id":1,"timeMs":1,"kind":"path","what":"a"})") << "refusal.rule"
                                  << "missing required key";
    QTest::newRow("control character") << QByteArray(
        R"({"id":1,"timeMs":1,"kind":"path","what":"a\u001b[2J","rule":"b"})")
                                       << "refusal.what"
                                       << "control character";
    QTest::newRow("bidi override") << QByteArray(R"({"id":1,"timeMs":1,"kind":"path","what":"a","rule":"b\u202e"})")
                                   << "refusal.rule"
                                   << "bidirectional override at position 1";
    QTest::newRow("bidi isolate") << QByteArray(R"({"id":1,"timeMs":1,"kind":"path","what":"ab\u2068","rule":"b"})")
                                  << "refusal.what"
                                  << "bidirectional override at position 2";
    QTest::newRow("fractional process") << "{" + base + R"(,"processId":1.5})"
                                        << "refusal.processId"
                                        << "integer";
    QTest::newRow("bad ref") << "{" + base + R"(,"ref":{"source":"nowhere"}})"
                             << "refusal.ref.source"
                             << "";
    const QByteArray longWhat = QByteArray(R"({"id":1,"timeMs":5,"kind":"path","rule":"b","what":")")
        + QByteArray(5000, 'a') + QByteArray(R"("})");
    QTest::newRow("long what") << longWhat << "refusal.what"
                               << "too long";
}

void TestRefusal::rejects()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, where);
    QFETCH(QString, message);
    const Result<Refusal> decoded = Refusal::fromJson(jsonValue(json));
    QVERIFY(!decoded.ok());
    SANDBOX_EXPECT_ERROR(decoded.error(), where, message);
}

void TestRefusal::shortCommand()
{
    QCOMPARE(Refusal::shortCommand({ QStringLiteral("curl"), QStringLiteral("-s"), QStringLiteral("http://a.b/c") }),
             QStringLiteral("curl -s http://a.b/c"));
    QCOMPARE(Refusal::shortCommand({ QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo 'hi' there") }),
             QStringLiteral("sh -c 'echo '\\''hi'\\'' there'"));
    const QString longCommand = Refusal::shortCommand(QStringList(400, QStringLiteral("argument")));
    QVERIFY(longCommand.size() <= Refusal::maxCommandLength);
    QVERIFY(longCommand.startsWith(QStringLiteral("argument argument")));
}

void TestRefusal::cleanText()
{
    QCOMPARE(Refusal::cleanText(QStringLiteral("a\x1b[2Jb"), 100), QStringLiteral("a\uFFFD[2Jb"));
    QCOMPARE(Refusal::cleanText(QStringLiteral("abcdef"), 4).size(), 4);
    QVERIFY(Refusal::cleanText(QStringLiteral("abcdef"), 4).endsWith(QChar(0x2026)));
}

QTEST_GUILESS_MAIN(TestRefusal)
#include "tst_refusal.moc"
