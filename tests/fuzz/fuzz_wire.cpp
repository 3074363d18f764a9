// libFuzzer target for the local protocol's decoders: the length-prefixed frame decoder
// (fed the input in arbitrary pieces) and, for each whole frame, the JSON payload and
// JSON-RPC message decoders, exactly as a Transport and the ProtocolServer use them.
// Beyond "no crash": errors name where and what, a broken stream stays broken, framing
// round-trips, and an accepted message survives toJson() -> fromJson().
#include "FuzzSupport.h"
#include "client/FrameDecoder.h"
#include "client/RpcMessage.h"

#include <QtEndian>

#include <cstdint>

using namespace sandbox;

namespace {

void checkMessage(const QByteArray &payload)
{
    const Result<QJsonObject> object = decodePayload(payload);
    if (!object.ok()) {
        fuzz::checkError(object.error());
        return;
    }
    const Result<RpcMessage> message = RpcMessage::fromJson(object.value());
    if (!message.ok()) {
        fuzz::checkError(message.error());
        return;
    }
    const Result<RpcMessage> again = RpcMessage::fromJson(message.value().toJson());
    if (!again.ok())
        fuzz::contractBroken("re-decoding an accepted message failed", again.error().toString());
    const RpcMessage &a = message.value();
    const RpcMessage &b = again.value();
    if (a.kind != b.kind || a.id != b.id || a.method != b.method || a.params != b.params || a.error.code != b.error.code
        || a.error.message != b.error.message)
        fuzz::contractBroken("message round trip changed it", a.method);

    const auto frame = FrameDecoder::encode(payload);
    if (!frame)
        fuzz::contractBroken("a decodable payload could not be framed", QString());
    FrameDecoder decoder;
    decoder.append(*frame);
    const auto back = decoder.takeFrame();
    if (!back || *back != payload || decoder.pendingBytes() != 0)
        fuzz::contractBroken("frame round trip changed the payload", QString());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    // The first byte picks how the stream is cut into reads and whether a small size limit
    // applies, so oversized frames are reached without megabyte inputs.
    const uint8_t control = data[0];
    const QByteArray stream(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));
    const quint32 limit = (control & 0x80) ? 64 : FrameDecoder::DefaultMaxPayload;
    const qsizetype piece = (control & 0x7f) + 1;

    FrameDecoder decoder(limit);
    for (qsizetype offset = 0; offset < stream.size(); offset += piece) {
        decoder.append(stream.mid(offset, piece));
        while (const auto payload = decoder.takeFrame()) {
            if (payload->isEmpty() || quint64(payload->size()) > limit)
                fuzz::contractBroken("decoder returned a frame outside its limits", QString::number(payload->size()));
            checkMessage(*payload);
        }
        if (decoder.failed()) {
            if (decoder.errorString().isEmpty())
                fuzz::contractBroken("failed decoder without an error", QString());
            decoder.append(QByteArray(8, '\0'));
            if (decoder.takeFrame())
                fuzz::contractBroken("a broken stream produced another frame", QString());
            return 0;
        }
    }
    if (decoder.pendingBytes() > 0 && decoder.truncationError().isEmpty())
        fuzz::contractBroken("bytes left over without a truncation error", QString());
    return 0;
}
