#pragma once

#include "protocol/Error.h"
#include "protocol/JsonReader.h"

#include <QJsonObject>

#include <cstdio>
#include <cstdlib>

// What every protocol fuzzer checks beyond "no crash, no sanitizer report": an error always
// says where and what, and an accepted value survives toJson() -> fromJson() unchanged.
// A broken contract aborts, which libFuzzer records as a crash with its input.
namespace sandbox::fuzz {

[[noreturn]] inline void contractBroken(const char *what, const QString &detail)
{
    std::fprintf(stderr, "protocol contract broken: %s: %s\n", what, qPrintable(detail));
    std::abort();
}

inline void checkError(const Error &error)
{
    if (error.where.isEmpty() || error.message.isEmpty())
        contractBroken("error without where or message", error.toString());
}

template <typename T, typename Decode> void checkDecoder(const QJsonValue &value, Decode decode)
{
    const Result<T> result = decode(value);
    if (!result.ok()) {
        checkError(result.error());
        return;
    }
    const Result<T> again = decode(QJsonValue(result.value().toJson()));
    if (!again.ok())
        contractBroken("re-decoding its own JSON failed", again.error().toString());
    if (!(again.value() == result.value()))
        contractBroken("round trip changed the value", QString());
}

// The fuzz input as a JSON object, or nullopt (after checking the parse error) when it is none.
inline std::optional<QJsonObject> parseInput(const uint8_t *data, size_t size)
{
    const Result<QJsonObject> parsed
        = parseJsonObject(QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)), QStringLiteral("input"));
    if (!parsed.ok()) {
        checkError(parsed.error());
        return std::nullopt;
    }
    return parsed.value();
}

} // namespace sandbox::fuzz
