#include "StudioTranslations.h"

#include "protocol/TextCatalog.h"

#include <QCoreApplication>
#include <QFile>
#include <QLibraryInfo>
#include <QTranslator>

namespace sandbox {

bool installStudioTranslations(QCoreApplication *app, const QLocale &locale)
{
    auto *qt = new QTranslator(app);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    else
        delete qt;

    auto *studio = new QTranslator(app);
    if (!studio->load(locale, QStringLiteral("sandbox-studio"), QStringLiteral("_"), QStringLiteral(":/i18n"))) {
        delete studio;
        return false;
    }
    QCoreApplication::installTranslator(studio);
    return true;
}

std::shared_ptr<const TextCatalog> engineTextCatalog(const QLocale &locale)
{
    for (QString language : locale.uiLanguages()) {
        language.replace(QLatin1Char('-'), QLatin1Char('_'));
        for (const QString &name : { language, language.section(QLatin1Char('_'), 0, 0) }) {
            QFile ts(QStringLiteral(":/i18n/sandbox-engine_%1.ts").arg(name));
            if (!ts.open(QIODevice::ReadOnly))
                continue;
            QString error;
            std::shared_ptr<const TextCatalog> catalog = TextCatalog::fromTs(ts, &error);
            if (!catalog)
                qWarning("sandbox-studio: the engine's %s catalogue is unreadable: %s", qPrintable(name),
                         qPrintable(error));
            return catalog;
        }
        if (language.startsWith(QLatin1String("en")))
            return nullptr; // the source language comes before any other the user reads
    }
    return nullptr;
}

} // namespace sandbox
