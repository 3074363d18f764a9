#pragma once

#include <QLocale>

#include <memory>

class QCoreApplication;

namespace sandbox {

class TextCatalog;

// Loads Studio's translation (embedded under :/i18n) and Qt's own (standard buttons) for
// `locale` and installs them into `app`. Returns false when no Studio translation
// exists for the locale (English is the source language).
bool installStudioTranslations(QCoreApplication *app, const QLocale &locale = QLocale::system());

// The catalogue a presenter translates the engine's texts with (sandbox-engine_<lang>.ts,
// embedded under :/i18n): nullptr when none exists for `locale`. It is never installed
// into the application, so an engine hosted in this process keeps speaking its source
// language on the protocol, as a daemon does; Client::setTextCatalog() translates what
// arrives.
std::shared_ptr<const TextCatalog> engineTextCatalog(const QLocale &locale = QLocale::system());

} // namespace sandbox
