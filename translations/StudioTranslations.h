#pragma once

#include <QLocale>

class QCoreApplication;

namespace sandbox {

// Loads Studio's translation (embedded under :/i18n) and Qt's own (standard buttons) for
// `locale` and installs them into `app`. Returns false when no Studio translation
// exists for the locale (English is the source language).
bool installStudioTranslations(QCoreApplication *app, const QLocale &locale = QLocale::system());

} // namespace sandbox
