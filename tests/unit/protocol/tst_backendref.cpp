#include "ProtocolTestSupport.h"
#include "protocol/BackendRef.h"

#include <QSet>
#include <QTest>

using namespace sandbox;
using sandbox::test::jsonValue;

class TestBackendRef final : public QObject
{
    Q_OBJECT

private slots:
    void canonicalText_data();
    void canonicalText();
    void parseRejects_data();
    void parseRejects();
    void samePackKindsNeverCollide();
    void jsonRoundTrip_data();
    void jsonRoundTrip();
    void fromJsonRejects_data();
    void fromJsonRejects();
    void identifierRules_data();
    void identifierRules();
};

void TestBackendRef::canonicalText_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("builtin");
    QTest::addColumn<QString>("packId");
    QTest::addColumn<QString>("kind");
    QTest::newRow("builtin auto") << "builtin:auto" << true << QString() << "auto";
    QTest::newRow("builtin vm") << "builtin:vm" << true << QString() << "vm";
    QTest::newRow("pack") << "atom-pack:acme-tools:cloud" << false << "acme-tools"
                          << "cloud";
    QTest::newRow("pack with dots") << "atom-pack:org.example.pack:remote_1" << false << "org.example.pack"
                                    << "remote_1";
}

void TestBackendRef::canonicalText()
{
    QFETCH(QString, text);
    QFETCH(bool, builtin);
    QFETCH(QString, packId);
    QFETCH(QString, kind);

    const Result<BackendRef> parsed = BackendRef::parse(text);
    QVERIFY2(parsed.ok(), qPrintable(parsed.ok() ? QString() : parsed.error().toString()));
    const BackendRef &ref = parsed.value();
    QCOMPARE(ref.isBuiltin(), builtin);
    QCOMPARE(ref.packId(), packId);
    QCOMPARE(ref.kind(), kind);
    QVERIFY(ref.isValid());
    QCOMPARE(ref.toString(), text);
    const BackendRef constructed = builtin ? BackendRef::builtin(kind) : BackendRef::atomPack(packId, kind);
    QCOMPARE(constructed, ref);
}

void TestBackendRef::parseRejects_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << QString() << "is not a backend reference";
    QTest::newRow("no colon") << "auto"
                              << "expected builtin:<kind> or atom-pack:<packId>:<kind>";
    QTest::newRow("unknown source") << "plugin:auto"
                                    << "is not a backend reference";
    QTest::newRow("builtin with pack") << "builtin:x:auto"
                                       << "is not a backend reference";
    QTest::newRow("pack without kind") << "atom-pack:acme"
                                       << "is not a backend reference";
    QTest::newRow("too many parts") << "atom-pack:a:b:c"
                                    << "is not a backend reference";
    QTest::newRow("empty kind") << "builtin:"
                                << "kind \"\" must match";
    QTest::newRow("upper case kind") << "builtin:Auto"
                                     << "kind \"Auto\" must match";
    QTest::newRow("bad pack id") << "atom-pack:Acme:cloud"
                                 << "pack id \"Acme\" must match";
    QTest::newRow("leading dash") << "atom-pack:-acme:cloud"
                                  << "pack id \"-acme\" must match";
    QTest::newRow("space") << "builtin:au to"
                           << "must match";
    QTest::newRow("too long kind") << QStringLiteral("builtin:") + QString(65, QLatin1Char('a')) << "must match";
    QTest::newRow("huge") << QString(100000, QLatin1Char('a')) << "too long";
    QTest::newRow("uppercase source") << "BUILTIN:auto"
                                      << "is not a backend reference";
}

void TestBackendRef::parseRejects()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    const Result<BackendRef> parsed = BackendRef::parse(text);
    QVERIFY(!parsed.ok());
    SANDBOX_EXPECT_ERROR(parsed.error(), QStringLiteral("ref"), message);
}

void TestBackendRef::samePackKindsNeverCollide()
{
    // Two packs contributing the same kind are distinct backends with distinct settings keys.
    const BackendRef a = BackendRef::atomPack(QStringLiteral("acme-tools"), QStringLiteral("cloud"));
    const BackendRef b = BackendRef::atomPack(QStringLiteral("other-pack"), QStringLiteral("cloud"));
    const BackendRef builtin = BackendRef::builtin(QStringLiteral("cloud"));
    QVERIFY(a != b);
    QVERIFY(a != builtin);
    QVERIFY(a.toString() != b.toString());
    QVERIFY(a.toString() != builtin.toString());
    QSet<BackendRef> set{ a, b, builtin };
    QCOMPARE(set.size(), 3);
    QCOMPARE(BackendRef::parse(a.toString()).value(), a);
    QCOMPARE(BackendRef::parse(b.toString()).value(), b);
    QVERIFY(a.toJson() != b.toJson());
}

void TestBackendRef::jsonRoundTrip_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("builtin") << "builtin:auto";
    QTest::newRow("pack") << "atom-pack:acme-tools:cloud";
}

void TestBackendRef::jsonRoundTrip()
{
    QFETCH(QString, text);
    const BackendRef ref = BackendRef::parse(text).value();
    const Result<BackendRef> decoded = BackendRef::fromJson(ref.toJson());
    QVERIFY(decoded.ok());
    QCOMPARE(decoded.value(), ref);
    // The canonical text is accepted as JSON too.
    const Result<BackendRef> fromText = BackendRef::fromJson(QJsonValue(text));
    QVERIFY(fromText.ok());
    QCOMPARE(fromText.value(), ref);
    if (ref.isBuiltin())
        QCOMPARE(ref.toJson(), jsonValue(R"({"source":"builtin","kind":"auto"})").toObject());
    else
        QCOMPARE(ref.toJson(), jsonValue(R"({"source":"atom-pack","packId":"acme-tools","kind":"cloud"})").toObject());
}

void TestBackendRef::fromJsonRejects_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("message");
    QTest::newRow("number") << QByteArray("5") << "ref"
                            << "expected an object, got a number";
    QTest::newRow("array") << QByteArray("[]") << "ref"
                           << "expected an object, got an array";
    QTest::newRow("missing source") << QByteArray(R"({"kind":"auto"})") << "ref.source"
                                    << "missing required key";
    QTest::newRow("source type") << QByteArray(R"({"source":1,"kind":"auto"})") << "ref.source"
                                 << "expected a string, got a number";
    QTest::newRow("unknown source") << QByteArray(R"({"source":"plugin","kind":"auto"})") << "ref.source"
                                    << "unknown source \"plugin\"";
    QTest::newRow("missing kind") << QByteArray(R"({"source":"builtin"})") << "ref.kind"
                                  << "missing required key";
    QTest::newRow("builtin with packId") << QByteArray(R"({"source":"builtin","packId":"x","kind":"auto"})")
                                         << "ref.packId"
                                         << "unknown key";
    QTest::newRow("pack missing packId") << QByteArray(R"({"source":"atom-pack","kind":"cloud"})") << "ref.packId"
                                         << "missing required key";
    QTest::newRow("bad kind") << QByteArray(R"({"source":"builtin","kind":"Auto"})") << "ref.kind"
                              << "\"Auto\" must match";
    QTest::newRow("bad pack id") << QByteArray(R"({"source":"atom-pack","packId":"a b","kind":"c"})") << "ref.packId"
                                 << "must match";
    QTest::newRow("extra key") << QByteArray(R"({"source":"builtin","kind":"auto","script":"x"})") << "ref.script"
                               << "unknown key";
    QTest::newRow("bad text") << QByteArray(R"("builtin")") << "ref"
                              << "is not a backend reference";
}

void TestBackendRef::fromJsonRejects()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, where);
    QFETCH(QString, message);
    const Result<BackendRef> decoded = BackendRef::fromJson(jsonValue(json));
    QVERIFY(!decoded.ok());
    SANDBOX_EXPECT_ERROR(decoded.error(), where, message);
}

void TestBackendRef::identifierRules_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::newRow("simple") << "auto" << true;
    QTest::newRow("digit first") << "9lives" << true;
    QTest::newRow("inner punctuation") << "a.b_c-d" << true;
    QTest::newRow("64 chars") << QString(64, QLatin1Char('a')) << true;
    QTest::newRow("65 chars") << QString(65, QLatin1Char('a')) << false;
    QTest::newRow("empty") << QString() << false;
    QTest::newRow("dot first") << ".hidden" << false;
    QTest::newRow("upper") << "Auto" << false;
    QTest::newRow("colon") << "a:b" << false;
    QTest::newRow("slash") << "a/b" << false;
    QTest::newRow("non-ascii") << QStringLiteral("caf\u00e9") << false;
}

void TestBackendRef::identifierRules()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QCOMPARE(BackendRef::isValidIdentifier(text), valid);
    QCOMPARE(BackendRef::builtin(text).isValid(), valid);
    QCOMPARE(BackendRef::atomPack(text, QStringLiteral("k")).isValid(), valid);
    QCOMPARE(BackendRef::parse(QStringLiteral("builtin:") + text).ok(), valid);
}

QTEST_GUILESS_MAIN(TestBackendRef)
#include "tst_backendref.moc"
