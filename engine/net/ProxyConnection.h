#pragma once

#include "ClientStream.h"
#include "DomainRules.h"

#include <QByteArray>
#include <QHostAddress>
#include <QObject>
#include <QTimer>

class QTcpSocket;
class QHostInfo;

namespace sandbox {

// One client of the filtering proxy: reads an HTTP (CONNECT, absolute-URI or origin-form
// with Host) or SOCKS5 request, checks it against the rules, resolves the name itself,
// refuses internal addresses not named exactly, connects to the address it checked and
// relays bytes both ways. A client that shuts down its sending side (half-close) still
// gets the target's answer: the target's sending side is shut down in turn, and the
// connection ends when the target closes. Deletes itself when done.
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
                    QObject *parent = nullptr);
    ~ProxyConnection() override;

private:
    enum class Protocol { Unknown, Http, Socks };
    enum class State { Greeting, SocksRequest, HttpHead, Resolving, Connecting, Relaying, Closing };

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
    void onUpstreamConnected();
    void refuse(const QString &reason);
    void fail(int httpStatus, quint8 socksCode, const QString &reason);
    void finish();
    void armIdle();

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
};

} // namespace sandbox
