#include "StudioTranslations.h"

#include <QCoreApplication>
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

} // namespace sandbox
