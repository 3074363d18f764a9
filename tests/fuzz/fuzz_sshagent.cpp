// libFuzzer target for the filtering SSH agent's message handling (engine/net/SshAgentMessage):
// the incremental frame reader fed the input in arbitrary pieces, and every decoder on each
// whole message, exactly as the filter uses them on what a sandboxed command sends. Beyond
// "no crash": frames stay within the size cap, a failed stream stays failed and says why,
// framing and every accepted message round-trip byte for byte, and every fingerprint is one
// the policy accepts.
#include "FuzzSupport.h"
#include "net/SshAgentMessage.h"
#include "protocol/PolicySshAgent.h"

#include <cstdint>

using namespace sandbox;
using namespace sandbox::sshagent;

namespace {

void checkFingerprint(const QByteArray &keyBlob)
{
    const QString fingerprint = sshagent::fingerprint(keyBlob);
    if (const QString problem = PolicySshAgent::fingerprintProblem(fingerprint); !problem.isEmpty())
        fuzz::contractBroken("a computed fingerprint is not one a policy accepts", problem);
    const QString type = keyType(keyBlob);
    for (QChar c : type) {
        if (c.unicode() <= 32 || c.unicode() >= 127)
            fuzz::contractBroken("a key type with an unprintable character", type);
    }
}

void checkMessage(const QByteArray &message)
{
    if (message.isEmpty() || message.size() > kMaxMessageBytes)
        fuzz::contractBroken("a message outside the size bounds", QString::number(message.size()));
    if (const auto identities = parseIdentitiesAnswer(message)) {
        if (identitiesAnswer(*identities) != message)
            fuzz::contractBroken("an identities answer did not round-trip", QString());
        for (const Identity &identity : *identities)
            checkFingerprint(identity.keyBlob);
    }
    if (const auto request = parseSignRequest(message)) {
        checkFingerprint(request->keyBlob);
        if (request->keyBlob.size() + request->data.size() + 13 != message.size())
            fuzz::contractBroken("a signature request with bytes unaccounted for", QString());
    }
    if (const auto blob = parseRemoveIdentity(message))
        checkFingerprint(*blob);
    if (const auto name = parseExtensionName(message)) {
        if (name->size() + 5 > message.size())
            fuzz::contractBroken("an extension name longer than its message", QString());
    }
    (void)requestInWords(quint8(message.at(0)));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    // The first byte picks how the stream is cut into reads.
    const qsizetype piece = qsizetype(data[0]) + 1;
    const QByteArray stream(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));

    FrameReader reader;
    QByteArray reframed;
    for (qsizetype offset = 0; offset < stream.size(); offset += piece) {
        reader.append(QByteArrayView(stream).sliced(offset, qMin(piece, stream.size() - offset)));
        while (const std::optional<QByteArray> message = reader.next()) {
            checkMessage(*message);
            reframed += frame(*message);
        }
    }
    // What came out, framed again, is exactly the start of what went in.
    if (!stream.startsWith(reframed))
        fuzz::contractBroken("framing did not round-trip", QString());
    if (reader.failed()) {
        if (reader.error().isEmpty() || reader.next() || reader.bufferedBytes() != 0)
            fuzz::contractBroken("a failed reader still reads, or does not say why", reader.error());
        reader.append("\0\0\0\1\13");
        if (reader.next())
            fuzz::contractBroken("a failed reader recovered", QString());
    } else if (reframed.size() + reader.bufferedBytes() != stream.size()) {
        fuzz::contractBroken("bytes were lost between frames", QString());
    }
    return 0;
}
