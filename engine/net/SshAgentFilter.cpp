#include "SshAgentFilter.h"

#include "SshAgentMessage.h"
#include "protocol/Refusal.h"
#include "protocol/RuntimeDirectory.h"

#include <QFileInfo>
#include <QLocalServer>
#include <QLocalSocket>
#include <QPointer>

namespace sandbox {

using namespace sshagent;

namespace {

// What QLocalSocket may hold unread: one whole message and a little more. Beyond that the
// kernel's buffer fills and the peer waits.
constexpr qint64 kReadBufferBytes = kMaxMessageBytes + 4;

} // namespace

const QByteArray SshAgentFilter::sessionBindExtension = QByteArrayLiteral("session-bind@openssh.com");

// One client of the filter's socket and its own connection to the user's agent. Requests
// are answered one at a time, in order, as the agent protocol wants: while one waits for the
// user's agent or for a confirmation, the next is not read.
class SshAgentFilter::Connection final : public QObject
{
public:
    Connection(SshAgentFilter *filter, QLocalSocket *client)
        : QObject(filter)
        , m_filter(filter)
        , m_client(client)
    {
        m_client->setParent(this);
        m_client->setReadBufferSize(kReadBufferBytes);
        connect(m_client, &QLocalSocket::readyRead, this, &Connection::processNext);
        connect(m_client, &QLocalSocket::bytesWritten, this, &Connection::processNext);
        connect(m_client, &QLocalSocket::disconnected, this, &QObject::deleteLater);
        connect(m_client, &QLocalSocket::errorOccurred, this, [this](QLocalSocket::LocalSocketError error) {
            if (error != QLocalSocket::OperationError)
                deleteLater();
        });
    }

    void processNext()
    {
        while (m_pending == Pending::None && !m_ended) {
            // A client that does not read its answers gets no more of them.
            if (m_client->bytesToWrite() > kMaxMessageBytes)
                return;
            std::optional<QByteArray> message = m_fromClient.next();
            if (!message) {
                if (m_fromClient.failed()) {
                    m_filter->refuse(QString(),
                                     SshAgentFilter::tr("%1 (the connection was closed)").arg(m_fromClient.error()));
                    end();
                    return;
                }
                if (m_client->bytesAvailable() == 0)
                    return;
                m_fromClient.append(m_client->read(kReadBufferBytes));
                continue;
            }
            handle(*message);
        }
    }

private:
    enum class Pending { None, Confirming, Identities, Sign, Extension };

    void handle(const QByteArray &message)
    {
        const quint8 type = quint8(message.at(0));
        switch (type) {
        case RequestIdentities:
            forward(message, Pending::Identities);
            return;
        case SignRequest:
            handleSignRequest(message);
            return;
        case Extension: {
            const std::optional<QByteArray> name = parseExtensionName(message);
            if (name && *name == SshAgentFilter::sessionBindExtension) {
                forward(message, Pending::Extension);
                return;
            }
            reply(failureMessage());
            m_filter->refuse(QString(),
                             name ? SshAgentFilter::tr("use the extension \"%1\"")
                                        .arg(QString::fromLatin1(name->left(64).toPercentEncoding("@.-_")))
                                  : SshAgentFilter::tr("a malformed extension request"));
            return;
        }
        case RemoveIdentity: {
            // The key it names is reported; the request never reaches the user's agent.
            const std::optional<QByteArray> blob = parseRemoveIdentity(message);
            reply(failureMessage());
            m_filter->refuse(blob ? fingerprint(*blob) : QString(), requestInWords(type));
            return;
        }
        default:
            reply(failureMessage());
            m_filter->refuse(QString(), requestInWords(type));
            return;
        }
    }

    void handleSignRequest(const QByteArray &message)
    {
        const std::optional<SignRequestBody> request = parseSignRequest(message);
        if (!request) {
            reply(failureMessage());
            m_filter->refuse(QString(), SshAgentFilter::tr("a malformed signature request"));
            return;
        }
        const QString key = fingerprint(request->keyBlob);
        if (!m_filter->isListed(key)) {
            reply(failureMessage());
            m_filter->refuse(key, SshAgentFilter::tr("sign with a key the policy does not list"));
            return;
        }
        if (!m_filter->needsConfirmation(key)) {
            forward(message, Pending::Sign);
            return;
        }
        if (!m_filter->m_confirmHandler) {
            reply(failureMessage());
            m_filter->refuse(key,
                             SshAgentFilter::tr("sign: the policy asks for a confirmation and nobody can give it"));
            return;
        }
        m_pending = Pending::Confirming;
        m_waiting = message;
        m_waitingKey = key;
        const quint64 id = ++m_confirmations;
        QPointer<Connection> self(this);
        const SshAgentConfirmation confirmation{ key, keyType(request->keyBlob), m_filter->m_comments.value(key) };
        // The answer may come at once or later: it is taken from the event loop (never inside
        // the handler), once, and only while this request still waits.
        m_filter->m_confirmHandler(confirmation, [self, id](bool allowed) {
            if (!self)
                return;
            QMetaObject::invokeMethod(
                self.get(),
                [self, id, allowed] {
                    if (self)
                        self->answered(id, allowed);
                },
                Qt::QueuedConnection);
        });
    }

    void answered(quint64 id, bool allowed)
    {
        if (m_pending != Pending::Confirming || id != m_confirmations)
            return;
        m_pending = Pending::None;
        const QByteArray message = std::exchange(m_waiting, QByteArray());
        if (!allowed) {
            reply(failureMessage());
            m_filter->refuse(m_waitingKey, SshAgentFilter::tr("sign: the user refused the signature"));
            processNext();
            return;
        }
        m_filter->confirmed(m_waitingKey);
        forward(message, Pending::Sign);
    }

    void forward(const QByteArray &message, Pending awaited)
    {
        m_pending = awaited;
        if (!m_upstream) {
            m_upstream = new QLocalSocket(this);
            m_upstream->setReadBufferSize(kReadBufferBytes);
            m_fromUpstream = FrameReader();
            connect(m_upstream, &QLocalSocket::readyRead, this, &Connection::onUpstreamData);
            connect(m_upstream, &QLocalSocket::disconnected, this, &Connection::upstreamLost);
            connect(m_upstream, &QLocalSocket::errorOccurred, this, [this](QLocalSocket::LocalSocketError error) {
                if (error != QLocalSocket::OperationError)
                    upstreamLost();
            });
            connect(m_upstream, &QLocalSocket::connected, this,
                    [this] { m_upstream->write(std::exchange(m_unsent, QByteArray())); });
            m_unsent = frame(message);
            m_upstream->connectToServer(m_filter->m_upstream);
            // Connected at once, refused at once (upstreamLost has failed the request), or
            // still connecting (the request goes out once connected).
            if (m_upstream && m_upstream->state() == QLocalSocket::ConnectedState && !m_unsent.isEmpty())
                m_upstream->write(std::exchange(m_unsent, QByteArray()));
            return;
        }
        m_upstream->write(frame(message));
    }

    void onUpstreamData()
    {
        while (m_upstream && m_upstream->bytesAvailable() > 0) {
            m_fromUpstream.append(m_upstream->read(kReadBufferBytes));
            while (std::optional<QByteArray> message = m_fromUpstream.next()) {
                if (m_pending == Pending::None || m_pending == Pending::Confirming) {
                    // The user's agent spoke unasked: this connection to it is not trusted further.
                    dropUpstream();
                    return;
                }
                answerFromUpstream(*message);
                if (!m_upstream)
                    return;
            }
            if (m_fromUpstream.failed()) {
                upstreamLost();
                return;
            }
        }
    }

    void answerFromUpstream(const QByteArray &message)
    {
        const quint8 type = quint8(message.at(0));
        const Pending awaited = std::exchange(m_pending, Pending::None);
        switch (awaited) {
        case Pending::Identities:
            if (const std::optional<QList<Identity>> all = parseIdentitiesAnswer(message)) {
                QList<Identity> offered;
                for (const Identity &identity : *all) {
                    const QString key = fingerprint(identity.keyBlob);
                    if (!m_filter->isListed(key))
                        continue;
                    offered.append(identity);
                    // Shown to the user when a signature is to be confirmed: plain text only.
                    m_filter->m_comments.insert(key, Refusal::cleanText(QString::fromUtf8(identity.comment), 200));
                }
                reply(identitiesAnswer(offered));
            } else {
                reply(failureMessage());
            }
            break;
        case Pending::Sign:
            reply(type == SignResponse || type == Failure ? message : failureMessage());
            break;
        case Pending::Extension:
            reply(type == Success || type == Failure || type == ExtensionFailure ? message : failureMessage());
            break;
        case Pending::None:
        case Pending::Confirming:
            break;
        }
        QMetaObject::invokeMethod(this, &Connection::processNext, Qt::QueuedConnection);
    }

    // The user's agent went away (or broke the protocol): a waiting request fails, and the
    // next one connects again.
    void upstreamLost()
    {
        if (!m_upstream)
            return;
        dropUpstream();
        if (m_pending == Pending::Identities || m_pending == Pending::Sign || m_pending == Pending::Extension) {
            m_pending = Pending::None;
            reply(failureMessage());
            QMetaObject::invokeMethod(this, &Connection::processNext, Qt::QueuedConnection);
        }
    }

    void dropUpstream()
    {
        m_unsent.clear();
        QLocalSocket *upstream = std::exchange(m_upstream, nullptr);
        upstream->disconnect(this);
        upstream->abort();
        upstream->deleteLater();
    }

    void reply(const QByteArray &message)
    {
        if (!m_ended)
            m_client->write(frame(message));
    }

    void end()
    {
        m_ended = true;
        m_client->disconnectFromServer();
        deleteLater();
    }

    SshAgentFilter *m_filter;
    QLocalSocket *m_client;
    QLocalSocket *m_upstream = nullptr;
    FrameReader m_fromClient;
    FrameReader m_fromUpstream;
    Pending m_pending = Pending::None;
    QByteArray m_unsent; // the first request, while the connection to the user's agent is made
    QByteArray m_waiting; // the signature request waiting for its confirmation
    QString m_waitingKey;
    quint64 m_confirmations = 0;
    bool m_ended = false;
};

SshAgentFilter::SshAgentFilter(const PolicySshAgent &policy, QString upstreamSocket, QObject *parent)
    : QObject(parent)
    , m_confirm(policy.confirm)
    , m_keys(policy.keys.cbegin(), policy.keys.cend())
    , m_upstream(std::move(upstreamSocket))
{ }

SshAgentFilter::~SshAgentFilter()
{
    close();
}

void SshAgentFilter::setConfirmHandler(SshAgentConfirmHandler handler)
{
    m_confirmHandler = std::move(handler);
}

void SshAgentFilter::setRefusalListener(SshAgentRefusalListener listener)
{
    m_refused = std::move(listener);
}

Status SshAgentFilter::listen(const QString &socketPath)
{
    if (m_server)
        return Error{ socketPath,
                      tr("this SSH agent filter already listens at %1").arg(m_server->fullServerName()),
                      {} };
    const QFileInfo info(socketPath);
    if (!info.isAbsolute())
        return Error{ socketPath, tr("the SSH agent filter's socket path must be absolute"), {} };
    if (const Status status = RuntimeDirectory::checkSocketPath(socketPath); !status.ok())
        return status;
    if (!m_upstream.isEmpty() && QFileInfo(m_upstream).absoluteFilePath() == info.absoluteFilePath())
        return Error{ socketPath, tr("is the user's own SSH agent socket; the filter needs a socket of its own"), {} };
    if (const Status status = RuntimeDirectory::ensure(info.absolutePath()); !status.ok())
        return status;
    auto *server = new QLocalServer(this);
    server->setSocketOptions(QLocalServer::UserAccessOption);
    // The directory is ours alone: whatever is at the path is a socket this user left behind.
    QLocalServer::removeServer(socketPath);
    if (!server->listen(socketPath)) {
        const QString reason = server->errorString();
        delete server;
        return Error{ socketPath, tr("cannot listen for SSH agent clients: %1").arg(reason), {} };
    }
    connect(server, &QLocalServer::newConnection, this, [this, server] {
        while (QLocalSocket *client = server->nextPendingConnection()) {
            // Each connection holds one to the user's agent: a command cannot open them without end.
            if (m_connections.size() >= kMaxConnections) {
                client->abort();
                client->deleteLater();
                refuse(QString(),
                       tr("more than %1 connections at once (the connection was closed)").arg(kMaxConnections));
                continue;
            }
            auto *connection = new Connection(this, client);
            m_connections.insert(connection);
            connect(connection, &QObject::destroyed, this, [this, connection] { m_connections.remove(connection); });
            connection->processNext();
        }
    });
    m_server = server;
    return Status::success();
}

QString SshAgentFilter::socketPath() const
{
    return m_server ? m_server->fullServerName() : QString();
}

void SshAgentFilter::close()
{
    if (m_server) {
        m_server->close();
        delete m_server;
        m_server = nullptr;
    }
    const QSet<QObject *> connections = std::exchange(m_connections, {});
    qDeleteAll(connections);
}

int SshAgentFilter::connectionCount() const
{
    return int(m_connections.size());
}

bool SshAgentFilter::needsConfirmation(const QString &fingerprint) const
{
    switch (m_confirm) {
    case PolicySshAgent::Confirm::Never:
        return false;
    case PolicySshAgent::Confirm::FirstUse:
        return !m_confirmedKeys.contains(fingerprint);
    case PolicySshAgent::Confirm::Always:
        return true;
    }
    return true;
}

void SshAgentFilter::confirmed(const QString &fingerprint)
{
    if (m_confirm == PolicySshAgent::Confirm::FirstUse)
        m_confirmedKeys.insert(fingerprint);
}

void SshAgentFilter::refuse(const QString &fingerprint, const QString &what) const
{
    if (m_refused)
        m_refused(fingerprint, what);
}

} // namespace sandbox
