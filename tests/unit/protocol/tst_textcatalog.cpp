// A presenter translates what the engine sends: exact texts, texts composed from a source
// text and arguments (arguments translated too), counts, and anything unknown unchanged.
#include "protocol/TextCatalog.h"

#include <QBuffer>
#include <QFile>
#include <QTest>

using namespace sandbox;

class TestTextCatalog : public QObject
{
    Q_OBJECT

private slots:
    void exactTextIsTranslated();
    void composedTextIsTranslatedWithItsArguments();
    void argumentsKeepTheirOwnPercentSigns();
    void repeatedPlaceholderMustRepeat();
    void joinedTextsAreTranslatedPartByPart();
    void unknownTextIsShownAsReceived();
    void textWithTooLittleWordingIsNotGuessed();
    void errorKeepsWhereItHappened();
    void countChoosesItsForm();
    void protocolObjectsAreTranslated();
    void unfinishedTranslationsAreNotUsed();
    void germanEngineCatalogueTranslatesARefusal();
};

namespace {

TextCatalog catalog()
{
    return TextCatalog({
        { QStringLiteral("A"), QStringLiteral("Not checked yet."), QStringLiteral("Noch nicht geprüft.") },
        { QStringLiteral("A"), QStringLiteral("No sandbox tier is available: %1"),
          QStringLiteral("Keine Sandbox-Stufe ist verfügbar: %1") },
        { QStringLiteral("A"), QStringLiteral("seccomp is unavailable: %1"),
          QStringLiteral("Seccomp ist nicht verfügbar: %1") },
        { QStringLiteral("A"), QStringLiteral("%1 is above the maximum %2"),
          QStringLiteral("Das Maximum %2 ist kleiner als %1") },
        { QStringLiteral("A"), QStringLiteral("Get it with \"docker pull %1\" or \"podman pull %1\"."),
          QStringLiteral("Mit „docker pull %1“ oder „podman pull %1“ holen.") },
        { QStringLiteral("A"), QStringLiteral("%1: %2"), QStringLiteral("%2 (%1)") },
        { QStringLiteral("A"), QStringLiteral("Backend"), QStringLiteral("Backend") },
        { QStringLiteral("A"), QStringLiteral("tier 2 because %1. "), QStringLiteral("Stufe 2, weil %1. ") },
        { QStringLiteral("A"), QStringLiteral("truncating needs write access; "),
          QStringLiteral("Kürzen braucht Schreibzugriff; ") },
    });
}

} // namespace

void TestTextCatalog::exactTextIsTranslated()
{
    QCOMPARE(catalog().translate(QStringLiteral("Not checked yet.")), QStringLiteral("Noch nicht geprüft."));
}

void TestTextCatalog::composedTextIsTranslatedWithItsArguments()
{
    const TextCatalog c = catalog();
    QCOMPARE(c.translate(QStringLiteral("No sandbox tier is available: seccomp is unavailable: ENOSYS")),
             QStringLiteral("Keine Sandbox-Stufe ist verfügbar: Seccomp ist nicht verfügbar: ENOSYS"));
    // Arguments go where the translation puts them, whatever their order.
    QCOMPARE(c.translate(QStringLiteral("12 is above the maximum 8")),
             QStringLiteral("Das Maximum 8 ist kleiner als 12"));
}

void TestTextCatalog::argumentsKeepTheirOwnPercentSigns()
{
    QCOMPARE(catalog().translate(QStringLiteral("100% is above the maximum %2")),
             QStringLiteral("Das Maximum %2 ist kleiner als 100%"));
}

void TestTextCatalog::repeatedPlaceholderMustRepeat()
{
    const TextCatalog c = catalog();
    QCOMPARE(c.translate(QStringLiteral("Get it with \"docker pull x:1\" or \"podman pull x:1\".")),
             QStringLiteral("Mit „docker pull x:1“ oder „podman pull x:1“ holen."));
    const QString different = QStringLiteral("Get it with \"docker pull x:1\" or \"podman pull y:2\".");
    QCOMPARE(c.translate(different), different);
}

void TestTextCatalog::joinedTextsAreTranslatedPartByPart()
{
    const TextCatalog c = catalog();
    QCOMPARE(c.translate(QStringLiteral("tier 2 because of AppArmor. Not checked yet.")),
             QStringLiteral("Stufe 2, weil of AppArmor. Noch nicht geprüft."));
    // ... also as an argument.
    QCOMPARE(
        c.translate(QStringLiteral("No sandbox tier is available: truncating needs write access; Not checked yet.")),
        QStringLiteral("Keine Sandbox-Stufe ist verfügbar: Kürzen braucht Schreibzugriff; Noch nicht geprüft."));
    // A join with a part nobody knows stays whole, as received.
    const QString partly = QStringLiteral("tier 2 because x. Something else entirely.");
    QCOMPARE(c.translate(partly), partly);
}

void TestTextCatalog::unknownTextIsShownAsReceived()
{
    const TextCatalog c = catalog();
    for (const QString &text :
         { QStringLiteral("A pack's own description."), QStringLiteral("/home/user/project"), QString() })
        QCOMPARE(c.translate(text), text);
}

void TestTextCatalog::textWithTooLittleWordingIsNotGuessed()
{
    // "%1: %2" would match almost anything; it is never used to take a text apart.
    const QString text = QStringLiteral("Some words: Not checked yet.");
    QCOMPARE(catalog().translate(text), text);
}

void TestTextCatalog::errorKeepsWhereItHappened()
{
    // As Error::toString() writes it: the place is a name, only the message is translated.
    QCOMPARE(catalog().translate(QStringLiteral("atom-pack:gui-test:plain.tier: Not checked yet.")),
             QStringLiteral("atom-pack:gui-test:plain.tier: Noch nicht geprüft."));
    const QString unknown = QStringLiteral("builtin:auto: something unknown");
    QCOMPARE(catalog().translate(unknown), unknown);
}

void TestTextCatalog::countChoosesItsForm()
{
    QByteArray ts = R"(<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context><name>C</name>
<message numerus="yes"><source>Deferred until %n process(es) ended.</source>
<translation><numerusform>Wartet auf %n Prozess.</numerusform><numerusform>Wartet auf %n Prozesse.</numerusform></translation>
</message>
<message><source>Say &quot;hi&quot;</source><translation>Sag &quot;hallo&quot;</translation></message>
</context>
</TS>
)";
    QBuffer buffer(&ts);
    QVERIFY(buffer.open(QIODevice::ReadOnly));
    const std::shared_ptr<TextCatalog> c = TextCatalog::fromTs(buffer);
    QVERIFY(c);
    QCOMPARE(c->translate(QStringLiteral("Deferred until 1 process(es) ended.")),
             QStringLiteral("Wartet auf 1 Prozess."));
    QCOMPARE(c->translate(QStringLiteral("Deferred until 3 process(es) ended.")),
             QStringLiteral("Wartet auf 3 Prozesse."));
    QCOMPARE(c->translate(QStringLiteral("Say \"hi\"")), QStringLiteral("Sag \"hallo\""));
}

void TestTextCatalog::protocolObjectsAreTranslated()
{
    const TextCatalog c = catalog();
    BackendInfo info;
    info.descriptor.name = QStringLiteral("Backend");
    info.descriptor.enforcement.insert(QStringLiteral("network"), QStringLiteral("Not checked yet."));
    FieldSpec field;
    field.label = QStringLiteral("Not checked yet.");
    field.options = { { QStringLiteral("v"), QStringLiteral("Not checked yet.") } };
    info.descriptor.fields = { field };
    info.availability = Availability{ false, QStringLiteral("seccomp is unavailable: ENOSYS") };
    c.translate(info);
    QCOMPARE(info.descriptor.enforcement.value(QStringLiteral("network")), QStringLiteral("Noch nicht geprüft."));
    QCOMPARE(info.descriptor.fields.first().label, QStringLiteral("Noch nicht geprüft."));
    QCOMPARE(info.descriptor.fields.first().options.first().label, QStringLiteral("Noch nicht geprüft."));
    QCOMPARE(info.descriptor.fields.first().options.first().value, QStringLiteral("v"));
    QCOMPARE(info.availability.reason, QStringLiteral("Seccomp ist nicht verfügbar: ENOSYS"));

    Error error{ QStringLiteral("settings.tier"),
                 QStringLiteral("Not checked yet."),
                 { Error{ QStringLiteral("x"), QStringLiteral("seccomp is unavailable: 1"), {} } } };
    c.translate(error);
    QCOMPARE(error.where, QStringLiteral("settings.tier"));
    QCOMPARE(error.message, QStringLiteral("Noch nicht geprüft."));
    QCOMPARE(error.details.first().message, QStringLiteral("Seccomp ist nicht verfügbar: 1"));

    HostInteractionRequest question;
    question.title = QStringLiteral("Not checked yet.");
    question.message = QStringLiteral("No sandbox tier is available: x");
    c.translate(question);
    QCOMPARE(question.title, QStringLiteral("Noch nicht geprüft."));
    QCOMPARE(question.message, QStringLiteral("Keine Sandbox-Stufe ist verfügbar: x"));
}

void TestTextCatalog::unfinishedTranslationsAreNotUsed()
{
    QByteArray ts = R"(<?xml version="1.0" encoding="utf-8"?>
<TS version="2.1" language="de_DE"><context><name>C</name>
<message><source>Open</source><translation type="unfinished">Offen</translation></message>
<message><source>Gone</source><translation type="vanished">Weg</translation></message>
</context></TS>)";
    QBuffer buffer(&ts);
    QVERIFY(buffer.open(QIODevice::ReadOnly));
    const std::shared_ptr<TextCatalog> c = TextCatalog::fromTs(buffer);
    QVERIFY(c);
    QCOMPARE(c->translate(QStringLiteral("Open")), QStringLiteral("Open"));
    QCOMPARE(c->translate(QStringLiteral("Gone")), QStringLiteral("Gone"));

    QByteArray broken = "<TS><context><name>C</name>";
    QBuffer brokenBuffer(&broken);
    QVERIFY(brokenBuffer.open(QIODevice::ReadOnly));
    QString error;
    QVERIFY(!TextCatalog::fromTs(brokenBuffer, &error));
    QVERIFY(!error.isEmpty());
}

void TestTextCatalog::germanEngineCatalogueTranslatesARefusal()
{
    QFile file(QStringLiteral(SANDBOX_SOURCE_DIR "/translations/sandbox-engine_de.ts"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const std::shared_ptr<TextCatalog> c = TextCatalog::fromTs(file);
    QVERIFY(c);
    QVERIFY(c->size() > 500);
    const QString english = QStringLiteral(
        "This backend does not enforce network, hostExecution, which the sandbox policy restricts, so it does not "
        "run commands under it (commands never run unconfined). Choose a backend that does, or change the policy.");
    const QString german = c->translate(english);
    QVERIFY2(german.startsWith(QStringLiteral("Dieses Backend setzt network, hostExecution nicht durch")),
             qPrintable(german));
}

QTEST_GUILESS_MAIN(TestTextCatalog)
#include "tst_textcatalog.moc"
