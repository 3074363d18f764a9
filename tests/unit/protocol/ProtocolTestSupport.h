#pragma once

#include "protocol/Error.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

// Test-only helpers: JSON literals written as text, and error assertions that show the
// whole error when they fail.
namespace sandbox::test {

inline QJsonValue jsonValue(const QByteArray &text)
{
    // Wrapping lets scalars and arrays be written as literals too.
    const QJsonDocument document = QJsonDocument::fromJson("{\"v\":" + text + "}");
    if (!document.isObject())
        qFatal("test JSON does not parse: %s", text.constData());
    return document.object().value(QStringLiteral("v"));
}

inline QByteArray compact(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

} // namespace sandbox::test

// Asserts that `result` failed at `where` with a message containing `message`.
#define SANDBOX_EXPECT_ERROR(error, expectedWhere, expectedMessage)                                                    \
    do {                                                                                                               \
        const sandbox::Error &e_ = (error);                                                                            \
        QVERIFY2(e_.where == (expectedWhere) && e_.message.contains(expectedMessage),                                  \
                 qPrintable(QStringLiteral("got \"%1\", expected where \"%2\" and a message containing \"%3\"")        \
                                .arg(e_.toString(), expectedWhere, expectedMessage)));                                 \
    } while (false)
