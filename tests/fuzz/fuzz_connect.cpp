// libFuzzer target for the E2B Connect envelope decoder (packs/power/e2b/ConnectEnvelope):
// one flag byte and a 4-byte big-endian length per message, as a sandbox's server streams
// them. The input is decoded whole and again in pieces of the size its first byte picks.
// Beyond "no crash, no read past the input": both ways give the same envelopes and the
// same verdict, no envelope is compressed or oversized, and encoding the envelopes again
// gives back exactly the bytes that were consumed.
#include "FuzzSupport.h"
#include "e2b/ConnectEnvelope.h"

#include <cstdint>

using namespace sandbox;
using sandbox::power::ConnectEnvelope;

namespace {

bool sameEnvelopes(const QList<ConnectEnvelope> &a, const QList<ConnectEnvelope> &b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i)
        if (a.at(i).flags != b.at(i).flags || a.at(i).message != b.at(i).message)
            return false;
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const qsizetype piece = qsizetype(data[0]) + 1;
    const QByteArray stream(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));

    QByteArray whole = stream;
    bool wholeBroken = false;
    const QList<ConnectEnvelope> wholeEnvelopes = ConnectEnvelope::take(whole, &wholeBroken);

    QByteArray buffer;
    bool splitBroken = false;
    QList<ConnectEnvelope> splitEnvelopes;
    for (qsizetype offset = 0; offset < stream.size() && !splitBroken; offset += piece) {
        buffer.append(stream.mid(offset, piece));
        splitEnvelopes.append(ConnectEnvelope::take(buffer, &splitBroken));
    }

    if (wholeBroken != splitBroken)
        fuzz::contractBroken("whole and split input disagree on a broken stream", QString());
    if (!sameEnvelopes(wholeEnvelopes, splitEnvelopes))
        fuzz::contractBroken("whole and split input gave different envelopes",
                             QStringLiteral("%1 vs %2").arg(wholeEnvelopes.size()).arg(splitEnvelopes.size()));
    if (whole != buffer)
        fuzz::contractBroken("whole and split input left different bytes", QString());
    if (wholeBroken && !whole.isEmpty())
        fuzz::contractBroken("a broken stream kept bytes", QString::number(whole.size()));

    QByteArray consumed;
    for (const ConnectEnvelope &envelope : wholeEnvelopes) {
        if (envelope.flags & ConnectEnvelope::compressedFlag)
            fuzz::contractBroken("a compressed envelope was accepted", QString());
        if (quint64(envelope.message.size()) > ConnectEnvelope::maximumSize)
            fuzz::contractBroken("an oversized envelope was accepted", QString::number(envelope.message.size()));
        if (envelope.endOfStream() != bool(envelope.flags & ConnectEnvelope::endStreamFlag))
            fuzz::contractBroken("end of stream does not follow the flag", QString());
        consumed.append(ConnectEnvelope::encode(envelope.message, envelope.flags));
    }
    if (!stream.startsWith(consumed))
        fuzz::contractBroken("re-encoded envelopes are not the bytes consumed", QString());
    if (!wholeBroken) {
        if (consumed.size() + whole.size() != stream.size())
            fuzz::contractBroken("bytes lost between envelopes and the rest", QString());
        // What is left is never a complete envelope: it is shorter than a header or than
        // the length its header announces.
        if (whole.size() >= 5) {
            const auto *head = reinterpret_cast<const uchar *>(whole.constData());
            const quint32 length
                = (quint32(head[1]) << 24) | (quint32(head[2]) << 16) | (quint32(head[3]) << 8) | quint32(head[4]);
            if (quint64(whole.size()) >= 5 + quint64(length))
                fuzz::contractBroken("a complete envelope was left in the buffer", QString());
        }
    }
    return 0;
}
