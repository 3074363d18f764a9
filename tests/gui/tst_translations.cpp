// Every visible string is translatable and translated: the German catalogues (Studio's and
// the engine's) are complete (also for strings added since they were last updated), are
// built into the application, and a German window shows no English string that has a
// translation, including the texts the engine sends (descriptors, claims, reasons, errors,
// step messages).
#include "ActivationProgress.h"
#include "GuiTest.h"
#include "PacksPage.h"
#include "StudioHarness.h"
#include "StudioTranslations.h"
#include "UnconfinedPolicy.h"
#include "WidgetWalk.h"
#include "client/Client.h"
#include "launchers/Builtins.h"
#include "protocol/TextCatalog.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QPushButton>
#include <QTabWidget>
#include <QXmlStreamReader>

using namespace sandbox;
using namespace sandbox::test;

namespace {

struct Catalogue
{
    QHash<QString, QString> translations; // source -> translation
    QStringList unfinished;
};

Catalogue readCatalogue(const QString &path)
{
    Catalogue catalogue;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return catalogue;
    QXmlStreamReader xml(&file);
    QString source;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement())
            continue;
        if (xml.name() == QLatin1String("source")) {
            source = xml.readElementText();
        } else if (xml.name() == QLatin1String("translation")) {
            const QString type = xml.attributes().value(QStringLiteral("type")).toString();
            // A count's forms are child elements; their text together is the translation here.
            const QString text = xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
            if (type == QLatin1String("unfinished") || text.isEmpty())
                catalogue.unfinished << source;
            else if (type != QLatin1String("vanished") && type != QLatin1String("obsolete"))
                catalogue.translations.insert(source, text);
        }
    }
    return catalogue;
}

} // namespace

class TestTranslations : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void germanCatalogueIsComplete_data();
    void germanCatalogueIsComplete();
    void catalogueCoversEverySourceString_data();
    void catalogueCoversEverySourceString();
    void germanWindowShowsNoUntranslatedString();

private:
    // Visible texts below `root` that are still English: a Studio string whose translation
    // differs, or an engine text the engine catalogue would translate (whole or line by line).
    QStringList untranslated(QWidget *root) const;

    QTemporaryDir m_home;
    QString m_ts = QStringLiteral(SANDBOX_SOURCE_DIR "/translations/sandbox-studio_de.ts");
    QString m_engineTs = QStringLiteral(SANDBOX_SOURCE_DIR "/translations/sandbox-engine_de.ts");
    Catalogue m_studio;
    std::shared_ptr<const TextCatalog> m_engine;
};

void TestTranslations::initTestCase()
{
    QVERIFY(m_home.isValid());
    GuiTest::isolateUserConfig(m_home);
}

void TestTranslations::germanCatalogueIsComplete_data()
{
    QTest::addColumn<QString>("ts");
    QTest::addColumn<int>("atLeast");
    QTest::newRow("studio") << m_ts << 150;
    QTest::newRow("engine") << m_engineTs << 600;
}

void TestTranslations::germanCatalogueIsComplete()
{
    QFETCH(QString, ts);
    QFETCH(int, atLeast);
    const Catalogue catalogue = readCatalogue(ts);
    QVERIFY2(catalogue.unfinished.isEmpty(), qPrintable(catalogue.unfinished.join(QLatin1Char('\n'))));
    QVERIFY(catalogue.translations.size() > atLeast);
}

void TestTranslations::catalogueCoversEverySourceString_data()
{
    QTest::addColumn<QString>("ts");
    QTest::addColumn<QStringList>("sources");
    QTest::newRow("studio") << m_ts
                            << QStringList{ QStringLiteral(SANDBOX_SOURCE_DIR "/ui"),
                                            QStringLiteral(SANDBOX_SOURCE_DIR "/app/studio") };
    QTest::newRow("engine") << m_engineTs
                            << QStringList{ QStringLiteral(SANDBOX_SOURCE_DIR "/engine"),
                                            QStringLiteral(SANDBOX_SOURCE_DIR "/packs") };
}

void TestTranslations::catalogueCoversEverySourceString()
{
    QFETCH(QString, ts);
    QFETCH(QStringList, sources);
    // Run lupdate over the sources into a copy: any string it has to add is untranslated.
    const QString copy = m_home.filePath(QStringLiteral("check_de.ts"));
    QFile::remove(copy);
    QVERIFY(QFile::copy(ts, copy));
    QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
    QProcess lupdate;
    lupdate.start(QStringLiteral(SANDBOX_LUPDATE),
                  sources
                      + QStringList{ QStringLiteral("-extensions"), QStringLiteral("cpp,h"),
                                     QStringLiteral("-no-obsolete"), QStringLiteral("-locations"),
                                     QStringLiteral("none"), QStringLiteral("-ts"), copy });
    QVERIFY(lupdate.waitForFinished(120000));
    QCOMPARE(lupdate.exitCode(), 0);
    const Catalogue catalogue = readCatalogue(copy);
    QVERIFY2(catalogue.unfinished.isEmpty(),
             qPrintable(QStringLiteral("untranslated:\n") + catalogue.unfinished.join(QLatin1Char('\n'))));
}

QStringList TestTranslations::untranslated(QWidget *root) const
{
    QStringList english;
    for (const QString &text : WidgetWalk::texts(root)) {
        const auto it = m_studio.translations.constFind(text);
        if (it != m_studio.translations.constEnd() && it.value() != text) {
            english << text;
            continue;
        }
        // Also each line, and each part of a step row ("label – message").
        QStringList lines{ text };
        for (const QString &line : text.split(QLatin1Char('\n')))
            lines << line << line.split(QStringLiteral(" – "));
        for (const QString &line : lines) {
            if (m_engine->translate(line.trimmed()) != line.trimmed()) {
                english << line;
                break;
            }
        }
    }
    english.removeDuplicates();
    return english;
}

void TestTranslations::germanWindowShowsNoUntranslatedString()
{
    const QLocale german(QLocale::German, QLocale::Germany);
    QVERIFY(installStudioTranslations(qApp, german));
    m_studio = readCatalogue(m_ts);
    m_engine = engineTextCatalog(german);
    QVERIFY(m_engine);
    QVERIFY(!engineTextCatalog(QLocale(QLocale::English, QLocale::UnitedStates)));

    StudioHarness harness;
    registerBuiltinLaunchers(harness.engine());
    harness.client()->setTextCatalog(m_engine);
    MainWindow window(harness.client(), nullptr);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    GuiTest::selectBackend(window, QStringLiteral("every-field"), QStringLiteral("project"));
    QCOMPARE(window.findChild<QPushButton *>(QStringLiteral("policyApply"))->text(), QStringLiteral("Übernehmen"));
    QCOMPARE(window.windowTitle(), QStringLiteral("Sandbox Studio"));
    // The test pack's own texts stay as the pack wrote them (a pack's descriptor is not in
    // the project's catalogues); everything around them is German.
    QStringList english = untranslated(&window);
    QVERIFY2(english.isEmpty(), qPrintable(english.join(QLatin1Char('\n'))));
    WidgetWalk::saveScreenshot(&window, QStringLiteral("main-window-de"));

    // The engine's rules, checked as an entry is added, answer in German.
    auto *pathInput = window.findChild<QLineEdit *>(QStringLiteral("policyWritableInput"));
    QTest::keyClicks(pathInput, QStringLiteral("relative/path"));
    QTest::keyClick(pathInput, Qt::Key_Return);
    const QString pathError = window.findChild<QLabel *>(QStringLiteral("policyWritableError"))->text();
    QVERIFY2(pathError.startsWith(QStringLiteral("„relative/path“ wurde nicht hinzugefügt: muss absolut sein")),
             qPrintable(pathError));
    english = untranslated(&window);
    QVERIFY2(english.isEmpty(), qPrintable(english.join(QLatin1Char('\n'))));
    pathInput->clear();

    // Step rows are one line each and may be elided; each has its whole text as a tooltip.
    auto *steps = window.findChild<QListWidget *>(QStringLiteral("activationSteps"));
    for (int row = 0; row < steps->count(); ++row)
        QVERIFY2(steps->item(row)->toolTip().startsWith(steps->item(row)->text().section(QStringLiteral(" – "), 0, 0)),
                 qPrintable(steps->item(row)->text()));

    // The built-in backend as the engine describes it: name, description, settings and the
    // claims of what enforces the policy, all in German though the engine speaks English.
    GuiTest::clickBackend(window, BackendRef::builtin(QStringLiteral("auto")));
    QTRY_COMPARE(window.findChild<QLabel *>(QStringLiteral("backendName"))->text(),
                 QStringLiteral("Automatisch (Betriebssystem-Sandbox)"));
    QTRY_VERIFY(window.findChild<QWidget *>(QStringLiteral("field_tier")));
    english = untranslated(&window);
    QVERIFY2(english.isEmpty(), qPrintable(english.join(QLatin1Char('\n'))));
    QVERIFY(QFileInfo(WidgetWalk::saveScreenshot(&window, QStringLiteral("german"))).size() > 0);

    // The VM backend: its settings and claims come from the engine too.
    GuiTest::clickBackend(window, BackendRef::builtin(QStringLiteral("vm")));
    QTRY_COMPARE(window.findChild<QLabel *>(QStringLiteral("backendName"))->text(),
                 QStringLiteral("Virtuelle Maschine"));
    english = untranslated(&window);
    QVERIFY2(english.isEmpty(), qPrintable(english.join(QLatin1Char('\n'))));

    // An unavailable backend.
    GuiTest::selectBackend(window, QStringLiteral("remote"), QStringLiteral("memory"));
    QTRY_VERIFY(window.findChild<QLabel *>(QStringLiteral("backendUnavailableReason"))->isVisible());
    QCOMPARE(window.findChild<QLabel *>(QStringLiteral("backendAvailability"))->text(),
             QStringLiteral("Nicht verfügbar"));
    english = untranslated(&window);
    QVERIFY2(english.isEmpty(), qPrintable(english.join(QLatin1Char('\n'))));
    WidgetWalk::saveScreenshot(&window, QStringLiteral("unavailable-backend-de"));

    // A backend the policy rules out, and the engine's refusal of it in German.
    Policy offline = unconfinedPolicy();
    offline.network = Policy::NetworkMode::None;
    QVERIFY(StudioHarness::await(harness.client()->setPolicy(offline)).ok());
    GuiTest::selectBackend(window, QStringLiteral("plain"));
    QTRY_COMPARE(window.findChild<QLabel *>(QStringLiteral("backendAvailability"))->text(),
                 QStringLiteral("Unter der aktuellen Richtlinie nicht aktivierbar"));
    QVERIFY(!harness.activate(QStringLiteral("plain")).ok);
    auto *progress = window.findChild<ActivationProgress *>(QStringLiteral("activationProgress"));
    auto *summary = window.findChild<QLabel *>(QStringLiteral("activationSummary"));
    QTRY_VERIFY2(!progress->isRunning()
                     && summary->text().contains(QStringLiteral("Dieses Backend setzt den Netzwerkmodus nicht durch")),
                 qPrintable(summary->text()));
    english = untranslated(&window);
    QVERIFY2(english.isEmpty(), qPrintable(english.join(QLatin1Char('\n'))));
    WidgetWalk::saveScreenshot(&window, QStringLiteral("refused-backend-de"));

    // The Processes page.
    auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("mainTabs"));
    tabs->setCurrentIndex(1);
    QTRY_COMPARE(window.findChild<QLabel *>(QStringLiteral("processesSummary"))->text(),
                 QStringLiteral("Keine Befehle laufen"));
    english = untranslated(&window);
    QVERIFY2(english.isEmpty(), qPrintable(english.join(QLatin1Char('\n'))));
    WidgetWalk::saveScreenshot(&window, QStringLiteral("processes-de"));

    // The Packs page.
    PacksPage *packs = window.showPacks();
    QVERIFY(packs);
    QVERIFY(QTest::qWaitForWindowExposed(packs->window()));
    QTRY_VERIFY(!WidgetWalk::texts(packs->window()).filter(QStringLiteral("GUI test pack")).isEmpty());
    english = untranslated(packs->window());
    QVERIFY2(english.isEmpty(), qPrintable(english.join(QLatin1Char('\n'))));
    WidgetWalk::saveScreenshot(packs->window(), QStringLiteral("packs-de"));
}

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
