#include "SshAgentMessage.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QtEndian>

namespace sandbox::sshagent {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::SshAgentFilter", text);
}

// Reads the SSH wire types (RFC 4251 section 5) from a message, failing once for good.
class WireReader final
{
public:
    explicit WireReader(QByteArrayView data)
        : m_data(data)
    { }

    bool ok() const { return m_ok; }
    bool atEnd() const { return m_ok && m_offset == m_data.size(); }

    quint8 byte()
    {
        if (!m_ok || m_offset + 1 > m_data.size())
            return fail<quint8>();
        return quint8(m_data.at(m_offset++));
    }

    quint32 uint32()
    {
        if (!m_ok || m_data.size() - m_offset < 4)
            return fail<quint32>();
        const quint32 value = qFromBigEndian<quint32>(m_data.data() + m_offset);
        m_offset += 4;
        return value;
    }

    QByteArray string()
    {
        const quint32 length = uint32();
        if (!m_ok || quint64(length) > quint64(m_data.size() - m_offset))
            return fail<QByteArray>();
        const QByteArray value = m_data.sliced(m_offset, qsizetype(length)).toByteArray();
        m_offset += qsizetype(length);
        return value;
    }

private:
    template <typename T> T fail()
    {
        m_ok = false;
        return T();
    }

    QByteArrayView m_data;
    qsizetype m_offset = 0;
    bool m_ok = true;
};

void appendUint32(QByteArray &out, quint32 value)
{
    char bytes[4];
    qToBigEndian(value, bytes);
    out.append(bytes, 4);
}

void appendString(QByteArray &out, QByteArrayView value)
{
    appendUint32(out, quint32(value.size()));
    out.append(value);
}

} // namespace

void FrameReader::append(QByteArrayView bytes)
{
    if (!failed())
        m_buffer.append(bytes);
}

std::optional<QByteArray> FrameReader::next()
{
    if (failed() || m_buffer.size() < 4)
        return std::nullopt;
    const quint32 length = qFromBigEndian<quint32>(m_buffer.constData());
    if (length == 0 || length > quint32(kMaxMessageBytes)) {
        m_error = length == 0 ? tr("an empty message (no message type)")
                              : tr("a message of %1 bytes, more than the %2 an SSH agent message may have")
                                    .arg(length)
                                    .arg(kMaxMessageBytes);
        m_buffer.clear();
        return std::nullopt;
    }
    if (quint64(m_buffer.size()) - 4 < length)
        return std::nullopt;
    QByteArray message = m_buffer.mid(4, qsizetype(length));
    m_buffer.remove(0, 4 + qsizetype(length));
    return message;
}

QByteArray frame(QByteArrayView message)
{
    QByteArray out;
    out.reserve(4 + message.size());
    appendUint32(out, quint32(message.size()));
    out.append(message);
    return out;
}

QByteArray failureMessage()
{
    return QByteArray(1, char(Failure));
}

std::optional<QList<Identity>> parseIdentitiesAnswer(QByteArrayView message)
{
    WireReader reader(message);
    if (reader.byte() != IdentitiesAnswer)
        return std::nullopt;
    const quint32 count = reader.uint32();
    // Each identity takes at least two lengths: a count beyond that is a lie, not a size to reserve.
    if (!reader.ok() || quint64(count) * 8 > quint64(message.size()))
        return std::nullopt;
    QList<Identity> identities;
    identities.reserve(qsizetype(count));
    for (quint32 i = 0; i < count; ++i) {
        Identity identity;
        identity.keyBlob = reader.string();
        identity.comment = reader.string();
        if (!reader.ok())
            return std::nullopt;
        identities.append(identity);
    }
    if (!reader.atEnd())
        return std::nullopt;
    return identities;
}

std::optional<SignRequestBody> parseSignRequest(QByteArrayView message)
{
    WireReader reader(message);
    if (reader.byte() != SignRequest)
        return std::nullopt;
    SignRequestBody request;
    request.keyBlob = reader.string();
    request.data = reader.string();
    request.flags = reader.uint32();
    if (!reader.atEnd())
        return std::nullopt;
    return request;
}

std::optional<QByteArray> parseRemoveIdentity(QByteArrayView message)
{
    WireReader reader(message);
    if (reader.byte() != RemoveIdentity)
        return std::nullopt;
    const QByteArray keyBlob = reader.string();
    if (!reader.atEnd())
        return std::nullopt;
    return keyBlob;
}

std::optional<QByteArray> parseExtensionName(QByteArrayView message)
{
    WireReader reader(message);
    if (reader.byte() != Extension)
        return std::nullopt;
    const QByteArray name = reader.string();
    if (!reader.ok())
        return std::nullopt;
    return name;
}

QByteArray identitiesAnswer(const QList<Identity> &identities)
{
    QByteArray out(1, char(IdentitiesAnswer));
    appendUint32(out, quint32(identities.size()));
    for (const Identity &identity : identities) {
        appendString(out, identity.keyBlob);
        appendString(out, identity.comment);
    }
    return out;
}

QString fingerprint(QByteArrayView keyBlob)
{
    const QByteArray digest = QCryptographicHash::hash(keyBlob, QCryptographicHash::Sha256);
    return QStringLiteral("SHA256:") + QString::fromLatin1(digest.toBase64(QByteArray::OmitTrailingEquals));
}

QString keyType(QByteArrayView keyBlob)
{
    WireReader reader(keyBlob);
    const QByteArray type = reader.string();
    if (!reader.ok() || type.isEmpty() || type.size() > 64)
        return QString();
    for (char c : type) {
        if (c <= 32 || c >= 127)
            return QString();
    }
    return QString::fromLatin1(type);
}

QString requestInWords(quint8 type)
{
    switch (type) {
    case RequestIdentities:
        return tr("list the keys");
    case SignRequest:
        return tr("sign");
    case AddIdentity:
    case AddIdConstrained:
        return tr("add a key");
    case RemoveIdentity:
        return tr("remove a key");
    case RemoveAllIdentities:
        return tr("remove every key");
    case AddSmartcardKey:
    case AddSmartcardKeyConstrained:
        return tr("add a smartcard's keys");
    case RemoveSmartcardKey:
        return tr("remove a smartcard's keys");
    case Lock:
        return tr("lock the agent");
    case Unlock:
        return tr("unlock the agent");
    case Extension:
        return tr("use an extension");
    default:
        return tr("message type %1").arg(type);
    }
}

} // namespace sandbox::sshagent
