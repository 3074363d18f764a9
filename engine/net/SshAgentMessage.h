#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

#include <optional>

namespace sandbox::sshagent {

// The SSH agent protocol (draft-miller-ssh-agent): every message is a uint32 length (big
// endian) and that many bytes, the first of which is the message type.
enum MessageType : quint8 {
    Failure = 5,
    Success = 6,
    RequestIdentities = 11,
    IdentitiesAnswer = 12,
    SignRequest = 13,
    SignResponse = 14,
    AddIdentity = 17,
    RemoveIdentity = 18,
    RemoveAllIdentities = 19,
    AddSmartcardKey = 20,
    RemoveSmartcardKey = 21,
    Lock = 22,
    Unlock = 23,
    AddIdConstrained = 25,
    AddSmartcardKeyConstrained = 26,
    Extension = 27,
    ExtensionFailure = 28,
};

// The largest message either side may send (OpenSSH's own agent refuses bigger ones too).
constexpr qsizetype kMaxMessageBytes = 256 * 1024;

// Splits a byte stream into messages as it arrives. A length of zero or above
// kMaxMessageBytes is an error at once (nothing more is buffered for it); after an error the
// reader yields nothing more.
class FrameReader final
{
public:
    void append(QByteArrayView bytes);
    // The next whole message (type byte first), or nothing until more bytes arrive.
    std::optional<QByteArray> next();
    bool failed() const { return !m_error.isEmpty(); }
    QString error() const { return m_error; }
    qsizetype bufferedBytes() const { return m_buffer.size(); }

private:
    QByteArray m_buffer;
    QString m_error;
};

// `message` (type byte first) with its length in front.
QByteArray frame(QByteArrayView message);
QByteArray failureMessage();

struct Identity
{
    QByteArray keyBlob;
    QByteArray comment;
};

struct SignRequestBody
{
    QByteArray keyBlob;
    QByteArray data;
    quint32 flags = 0;
};

// Decoders of whole messages (type byte first); nothing when the message is not exactly
// what it should be (wrong type, short, trailing bytes).
std::optional<QList<Identity>> parseIdentitiesAnswer(QByteArrayView message);
std::optional<SignRequestBody> parseSignRequest(QByteArrayView message);
// The key blob a REMOVE_IDENTITY names.
std::optional<QByteArray> parseRemoveIdentity(QByteArrayView message);
// The extension's name (its request data follows and is not decoded).
std::optional<QByteArray> parseExtensionName(QByteArrayView message);

QByteArray identitiesAnswer(const QList<Identity> &identities);

// OpenSSH's fingerprint of a public key blob: "SHA256:" and the unpadded base64 of its SHA-256.
QString fingerprint(QByteArrayView keyBlob);
// The key type a blob starts with ("ssh-ed25519"), printable characters only; empty when none.
QString keyType(QByteArrayView keyBlob);
// What a client asks for with a message of `type`, in words ("add a key", "lock the agent").
QString requestInWords(quint8 type);

} // namespace sandbox::sshagent
