// Every visible string is translatable and translated: the German catalogue is complete
// (also for strings added since it was last updated), is built into the application, and
// a German window shows no English string that has a translation.
#include "GuiTest.h"
#include "StudioHarness.h"
#include "StudioTranslations.h"
#include "WidgetWalk.h"

#include <QFile>
#include <QHash>
#include <QLabel>
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
            const QString text = xml.readElementText();
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
    void germanCatalogueIsComplete();
    void catalogueCoversEverySourceString();
    void germanWindowShowsNoUntranslatedString();

private:
    QTemporaryDir m_home;
    QString m_ts = QStringLiteral(SANDBOX_SOURCE_DIR "/translations/sandbox-studio_de.ts");
};

void TestTranslations::initTestCase()
{
    QVERIFY(m_home.isValid());
    GuiTest::isolateUserConfig(m_home);
}

void TestTranslations::germanCatalogueIsComplete()
{
    const Catalogue catalogue = readCatalogue(m_ts);
    QVERIFY2(catalogue.unfinished.isEmpty(), qPrintable(catalogue.unfinished.join(QLatin1Char('\n'))));
    QVERIFY(catalogue.translations.size() > 150);
}

void TestTranslations::catalogueCoversEverySourceString()
{
    // Run lupdate over the sources into a copy: any string it has to add is untranslated.
    const QString copy = m_home.filePath(QStringLiteral("check_de.ts"));
    QFile::remove(copy);
    QVERIFY(QFile::copy(m_ts, copy));
    QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
    QProcess lupdate;
    lupdate.start(QStringLiteral(SANDBOX_LUPDATE),
                  { QStringLiteral(SANDBOX_SOURCE_DIR "/ui"), QStringLiteral(SANDBOX_SOURCE_DIR "/app/studio"),
                    QStringLiteral("-extensions"), QStringLiteral("cpp,h"), QStringLiteral("-no-obsolete"),
                    QStringLiteral("-locations"), QStringLiteral("none"), QStringLiteral("-ts"), copy });
    QVERIFY(lupdate.waitForFinished(120000));
    QCOMPARE(lupdate.exitCode(), 0);
    const Catalogue catalogue = readCatalogue(copy);
    QVERIFY2(catalogue.unfinished.isEmpty(),
             qPrintable(QStringLiteral("untranslated:\n") + catalogue.unfinished.join(QLatin1Char('\n'))));
}

void TestTranslations::germanWindowShowsNoUntranslatedString()
{
    QVERIFY(installStudioTranslations(qApp, QLocale(QLocale::German, QLocale::Germany)));
    const Catalogue catalogue = readCatalogue(m_ts);

    StudioHarness harness;
    MainWindow window(harness.client(), nullptr);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    GuiTest::selectBackend(window, QStringLiteral("every-field"), QStringLiteral("project"));
    QCOMPARE(window.findChild<QPushButton *>(QStringLiteral("policyApply"))->text(), QStringLiteral("Übernehmen"));
    QCOMPARE(window.windowTitle(), QStringLiteral("Sandbox Studio"));

    QStringList english;
    for (const QString &text : WidgetWalk::texts(&window)) {
        const auto it = catalogue.translations.constFind(text);
        if (it != catalogue.translations.constEnd() && it.value() != text)
            english << text;
    }
    QVERIFY2(english.isEmpty(), qPrintable(english.join(QLatin1Char('\n'))));
    WidgetWalk::saveScreenshot(&window, QStringLiteral("main-window-de"));

    // Step rows are one line each and may be elided; each has its whole text as a tooltip.
    auto *steps = window.findChild<QListWidget *>(QStringLiteral("activationSteps"));
    for (int row = 0; row < steps->count(); ++row)
        QVERIFY2(steps->item(row)->toolTip().startsWith(steps->item(row)->text().section(QStringLiteral(" – "), 0, 0)),
                 qPrintable(steps->item(row)->text()));

    // The new views in German: an unavailable backend, and the Processes page.
    GuiTest::selectBackend(window, QStringLiteral("remote"), QStringLiteral("memory"));
    QTRY_VERIFY(window.findChild<QLabel *>(QStringLiteral("backendUnavailableReason"))->isVisible());
    QCOMPARE(window.findChild<QLabel *>(QStringLiteral("backendAvailability"))->text(),
             QStringLiteral("Nicht verfügbar"));
    WidgetWalk::saveScreenshot(&window, QStringLiteral("unavailable-backend-de"));
    auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("mainTabs"));
    tabs->setCurrentIndex(1);
    QTRY_COMPARE(window.findChild<QLabel *>(QStringLiteral("processesSummary"))->text(),
                 QStringLiteral("Keine Befehle laufen"));
    WidgetWalk::saveScreenshot(&window, QStringLiteral("processes-de"));
}

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
