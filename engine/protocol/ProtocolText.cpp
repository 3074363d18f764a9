#include "ProtocolText.h"

#include "JsonReader.h"

#include <QCoreApplication>

namespace sandbox {

QString quotedForMessage(const QString &text)
{
    QString shown = text.size() > 80 ? text.left(80) + QStringLiteral("...") : text;
    for (QChar &c : shown) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            c = QChar(0xfffd);
    }
    return QLatin1Char('"') + shown + QLatin1Char('"');
}

QString readBoundedPlainText(JsonReader &reader, const QString &key, bool required, qsizetype maxLength,
                             const char *context)
{
    const QString text = required ? reader.requirePlainText(key) : reader.optionalPlainText(key);
    if (reader.ok() && text.size() > maxLength) {
        reader.fail(key,
                    QCoreApplication::translate(context, "is too long (%1 characters, at most %2)")
                        .arg(text.size())
                        .arg(maxLength));
    }
    return text;
}

} // namespace sandbox
