#pragma once

#include "ClientStream.h"
#include "DomainRules.h"
#include "HttpRequestRewriter.h"

#include <QByteArray>
#include <QHostAddress>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <memory>

class QTcpSocket;
class QHostInfo;

namespace sandbox {

class ChannelCredentials;
class TlsStream;
class UpstreamProxy;

// One client of the filtering proxy: reads an HTTP (CONNECT, absolute-URI or origin-form
// with Host) or SOCKS5 request, checks it against the rules, resolves the name itself,
// refuses internal addresses not named exactly, connects to the address it checked and
// relays bytes both ways. A client that shuts down its sending side (half-close) still
// gets the target's answer: the target's sending side is shut down in turn, and the
// connection ends when the target closes. Deletes itself when done.
//
// With credentials, a tunnel (CONNECT or SOCKS5) to one of a credential's hosts is
// terminated: the client gets a leaf of the engine's authority for the host it asked for,
// the target is reached over TLS verified against the channel's trust, and the requests
// between pass through an HttpRequestRewriter (Host and SNI must name the tunnel's host;
// placeholders become values in the allowed headers). Every other tunnel stays a plain
// relay, its bytes toward the target scanned for placeholders (reported, never replaced).
//
// With an upstream proxy, every target the rules allow is reached through it: a CONNECT
// to the target (over TLS to the proxy when it is https), then the same relay or
// termination as without one. The name is resolved by the upstream proxy (a corporate
// network often resolves outside names nowhere else); an IP literal is still checked here.
class ProxyConnection final : public QObject
{
    Q_OBJECT

public:
    static constexpr qsizetype kMaxHeadBytes = 32 * 1024;
    static constexpr int kHandshakeTimeoutMs = 15000;
    static constexpr int kIdleTimeoutMs = 10 * 60 * 1000;
    // Relayed bytes held for a slow side before reading from the other one pauses.
    static constexpr qsizetype kMaxPendingBytes = 1024 * 1024;

    // Takes ownership of `clientFd`, the accepted connection on the channel's socket.
    // `refused` (may be empty) is told of each refusal by the rules.
    ProxyConnection(int clientFd, const DomainRules &rules, ProxyRefusalListener refused = {},
                    std::shared_ptr<const ChannelCredentials> credentials = {},
                    std::shared_ptr<const UpstreamProxy> upstream = {}, QObject *parent = nullptr);
    ~ProxyConnection() override;

private:
    enum class Protocol { Unknown, Http, Socks };
    // Tunneling: connected to the upstream proxy, waiting for its answer to CONNECT.
    enum class State { Greeting, SocksRequest, HttpHead, Resolving, Connecting, Tunneling, Relaying, Closing };

    void onClientData();
    void onClientInputEnded();
    void relayToClient();
    void endUpstreamInput();
    void parseSocksGreeting();
    void parseSocksRequest();
    void parseHttpHead();
    void startTarget(const QString &host, quint16 port);
    void onResolved(const QHostInfo &info);
    void connectTo(const QHostAddress &address);
    void connectVia();
    void openUpstreamSocket();
    void onUpstreamConnected();
    void onTargetReached();
    void startTunnel();
    void readTunnelAnswer();
    // The bytes toward and from the target, through the TLS to the upstream proxy when
    // there is one. `max` < 0: everything there is.
    void writeUpstream(const QByteArray &bytes);
    QByteArray readUpstream(qint64 max);
    void refuse(const QString &reason);
    void fail(int httpStatus, quint8 socksCode, const QString &reason);
    void finish();
    void armIdle();
    void startInterception();
    void pumpInterception();
    void answerInside(int status, const QString &reason);
    void scanOutgoing(const QByteArray &bytes);
    // The credential whose value (as it was put into a request) `answer` carries back,
    // counting what the previous answer bytes ended with; empty when none.
    QString echoedCredential(const QByteArray &answer);
    void reportCredential(const QString &credential, const QString &message);
    QString target() const;

    ClientStream *m_client;
    QTcpSocket *m_upstream = nullptr;
    DomainRules m_rules;
    ProxyRefusalListener m_refused;
    DomainRules::Decision m_decision;
    Protocol m_protocol = Protocol::Unknown;
    State m_state = State::Greeting;
    QByteArray m_buffer;
    QByteArray m_forwardHead; // plain HTTP: the rewritten request to send upstream
    bool m_httpConnect = false;
    QString m_host;
    quint16 m_port = 0;
    int m_lookupId = -1;
    bool m_upstreamInputEnding = false;
    QTimer m_timer;
    std::shared_ptr<const ChannelCredentials> m_credentials;
    bool m_intercept = false;
    QByteArray m_leafCertificate;
    QByteArray m_leafKey;
    std::unique_ptr<TlsStream> m_clientTls;
    std::unique_ptr<TlsStream> m_upstreamTls;
    std::unique_ptr<HttpRequestRewriter> m_rewriter;
    bool m_serverNameChecked = false;
    bool m_answered = false;
    bool m_responded = false; // the target sent something back through the terminated TLS
    QList<CredentialSlot> m_scanSlots; // plain relays: what is looked for
    QByteArray m_scanTail;
    QByteArray m_answerTail;
    QSet<QString> m_scanReported;
    std::shared_ptr<const UpstreamProxy> m_via;
    std::unique_ptr<TlsStream> m_viaTls;
    QByteArray m_viaAnswer;
    QByteArray m_viaPending; // tunnel bytes that came with the upstream proxy's answer
};

} // namespace sandbox
