#include "client/Transport.h"

#include "client/RpcMessage.h"

#include <QJsonDocument>
#include <QPointer>

namespace sandbox {

Transport::Transport(QObject *parent)
    : QObject(parent)
{ }

Transport::~Transport() = default;

bool Transport::send(const QJsonObject &message)
{
    if (!isOpen())
        return false;
    const auto frame = FrameDecoder::encode(QJsonDocument(message).toJson(QJsonDocument::Compact), maxPayload());
    if (!frame)
        return false;
    writeFrame(*frame);
    return true;
}

void Transport::receiveBytes(const QByteArray &bytes)
{
    if (m_decoder.failed() || m_disconnected)
        return;
    m_decoder.append(bytes);
    // A slot may close or delete us while we hand out messages.
    QPointer<Transport> self(this);
    while (self && !m_disconnected) {
        const auto payload = m_decoder.takeFrame();
        if (!payload) {
            if (m_decoder.failed())
                emit protocolError(m_decoder.errorString());
            return;
        }
        const Result<QJsonObject> object = decodePayload(*payload);
        if (object.ok())
            emit messageReceived(object.value());
        else
            emit malformedMessage(object.error().toString());
    }
}

void Transport::notifyDisconnected(const QString &reason)
{
    if (m_disconnected)
        return;
    m_disconnected = true;
    QString why = reason;
    const QString truncated = m_decoder.truncationError();
    if (why.isEmpty() && !truncated.isEmpty())
        why = truncated;
    emit disconnected(why);
}

} // namespace sandbox
