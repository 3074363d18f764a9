// libFuzzer target for the run front's own JSON and base64 (app/sandboxctl/front), which
// read what the engine sends without Qt. Beyond "no crash, no read past the input":
// - an accepted text prints as JSON that parses again to the same printed form;
// - its UTF-8 check agrees with Qt's decoder (valid exactly when decoding and encoding
//   gives the same bytes back);
// - valid text quoted as a JSON string parses back to the same text;
// - base64 of the input decodes to the input.
#include "front/Base64.h"
#include "front/JsonValue.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

using sandbox::front::JsonValue;

namespace {

[[noreturn]] void contractBroken(const char *what, std::string_view input)
{
    std::fprintf(stderr, "run front contract broken: %s: %s\n", what,
                 QByteArray(input.data(), qsizetype(input.size())).toHex(' ').left(400).constData());
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view input(reinterpret_cast<const char *>(data), size);

    if (const std::optional<JsonValue> value = JsonValue::parse(input)) {
        const std::string printed = value->toJson();
        const std::optional<JsonValue> again = JsonValue::parse(printed);
        if (!again)
            contractBroken("its own JSON does not parse", input);
        if (again->toJson() != printed)
            contractBroken("printing again changed the JSON", input);
    }

    const QByteArray bytes(input.data(), qsizetype(input.size()));
    const bool valid = sandbox::front::isValidUtf8(input);
    if (valid != (QString::fromUtf8(bytes).toUtf8() == bytes))
        contractBroken("the UTF-8 check disagrees with Qt's decoder", input);
    const std::optional<std::string> quoted = JsonValue::quote(input);
    if (quoted.has_value() != valid)
        contractBroken("quote() accepts other text than the UTF-8 check", input);
    if (quoted) {
        const std::optional<JsonValue> string = JsonValue::parse(*quoted);
        if (!string || !string->isString() || string->toString() != input)
            contractBroken("a quoted string does not parse back to itself", input);
    }

    if (sandbox::front::fromBase64(sandbox::front::toBase64(input)) != input)
        contractBroken("base64 does not decode to what was encoded", input);
    return 0;
}
