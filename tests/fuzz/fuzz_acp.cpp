// libFuzzer target for sandbox-acp's reading of its peers: the newline framing (fed the
// input in arbitrary pieces, with a small line limit so overlong lines are reached) and,
// for each line, the JSON-RPC 2.0 message parser, exactly as AcpBridge uses them.
// Beyond "no crash": errors name where and what, no line exceeds the limit, framing keeps
// every byte of short lines, and an accepted message re-parses to the same message.
#include "FuzzSupport.h"
#include "JsonRpcLine.h"
#include "LineBuffer.h"

#include <cstdint>

using namespace sandbox;

namespace {

void checkLine(const QByteArray &line)
{
    QJsonValue id;
    const Result<JsonRpcLine> parsed = JsonRpcLine::parse(line, QStringLiteral("fuzz line"), &id);
    if (!parsed.ok()) {
        fuzz::checkError(parsed.error());
        if (!parsed.error().where.startsWith(QLatin1String("fuzz line")))
            fuzz::contractBroken("error does not name the line", parsed.error().toString());
        if (!id.isNull() && !id.isString() && !id.isDouble())
            fuzz::contractBroken("an unusable id was offered for the error reply", parsed.error().toString());
        return;
    }
    const JsonRpcLine &message = parsed.value();
    if ((message.kind == JsonRpcLine::Kind::Request || message.kind == JsonRpcLine::Kind::Notification)
        && message.method.isEmpty())
        fuzz::contractBroken("a request without a method was accepted", QString());
    if (message.kind != JsonRpcLine::Kind::Notification && !message.id.isString() && !message.id.isDouble())
        fuzz::contractBroken("a message with an unusable id was accepted", QString());
    QByteArray again = JsonRpcLine::serialize(message.object);
    if (!again.endsWith('\n') || again.count('\n') != 1)
        fuzz::contractBroken("a serialized message is not exactly one line", QString());
    again.chop(1);
    const Result<JsonRpcLine> reparsed = JsonRpcLine::parse(again, QStringLiteral("fuzz line"));
    if (!reparsed.ok())
        fuzz::contractBroken("re-parsing an accepted message failed", reparsed.error().toString());
    const JsonRpcLine &b = reparsed.value();
    if (b.kind != message.kind || b.id != message.id || b.method != message.method || b.params != message.params
        || b.result != message.result || b.error != message.error)
        fuzz::contractBroken("message round trip changed it", message.method);
    if (message.kind == JsonRpcLine::Kind::Request || message.kind == JsonRpcLine::Kind::Response) {
        const QJsonObject reply
            = JsonRpcLine::errorResponse(message.id, JsonRpcLine::InvalidParams, QStringLiteral("x"));
        QByteArray replyLine = JsonRpcLine::serialize(reply);
        replyLine.chop(1);
        const Result<JsonRpcLine> replyParsed = JsonRpcLine::parse(replyLine, QStringLiteral("reply"));
        if (!replyParsed.ok() || !replyParsed.value().isError())
            fuzz::contractBroken("an error reply to an accepted id does not parse", QString());
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const uint8_t control = data[0];
    const QByteArray stream(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));
    const qsizetype limit = (control & 0x80) ? 32 : JsonRpcLine::maxLineBytes;
    const qsizetype piece = (control & 0x7f) + 1;

    LineBuffer lines(limit);
    qsizetype newlines = 0;
    qsizetype emitted = 0;
    for (qsizetype offset = 0; offset < stream.size(); offset += piece) {
        for (const LineBuffer::Line &line : lines.append(stream.mid(offset, piece))) {
            ++emitted;
            if (line.bytes.size() > limit)
                fuzz::contractBroken("a line longer than the limit was given out", QString::number(line.bytes.size()));
            if (line.bytes.contains('\n'))
                fuzz::contractBroken("a line contains a newline", QString());
            if (!line.overlong)
                checkLine(line.bytes);
        }
    }
    newlines = stream.count('\n');
    if (emitted > newlines + stream.size() / (limit + 1) + 1)
        fuzz::contractBroken("more lines than the stream has", QString::number(emitted));
    const QByteArray rest = lines.takeRest();
    if (rest.contains('\n') || rest.size() > limit)
        fuzz::contractBroken("the rest is not a partial line", QString());
    if (!rest.isEmpty())
        checkLine(rest);
    return 0;
}
