#pragma once

#include "EngineTunnel.h"
#include "TcpEndpoint.h"
#include "protocol/Error.h"

#include <QCoreApplication>
#include <QMutex>
#include <QString>

#include <memory>

namespace sandbox::power {

class TlsRelay;

// A local unix socket (in an owner-only folder) whose every connection is forwarded to a
// tcp:// engine over TLS: the engine's certificate checked against the given CA only, and
// for the endpoint's host name or address; our client certificate presented when one is set.
// Plain TCP (no CA) is for loopback hosts only, which the caller decides. One thread accepts,
// each connection is relayed by a thread of its own through buffers of bounded size, closing
// each direction as its sender does (a command's stdin ends without its output ending). What
// failed on a connection (name lookup, refusal, verification, the engine refusing our
// certificate) is kept to tell the user. Everything ends with this object.
class TlsTunnel final : public EngineTunnel
{
    Q_DECLARE_TR_FUNCTIONS(TlsTunnel)

public:
    struct Options
    {
        QString caFile; // empty: plain TCP
        QString certFile; // empty: no client certificate
        QString keyPem; // the client certificate's private key (PEM, unencrypted)
        QString keyUnread; // why the key could not be read from the keychain, when it could not
    };

    // Reads the files and the key, then listens on a new socket in `folder`; an Error naming
    // the settings field at fault otherwise. `timeoutMs` bounds each connection's setting up.
    static Result<std::unique_ptr<TlsTunnel>> open(const TcpEndpoint &endpoint, const Options &options,
                                                   const QString &folder, int timeoutMs);
    ~TlsTunnel() override;
    TlsTunnel(const TlsTunnel &) = delete;
    TlsTunnel &operator=(const TlsTunnel &) = delete;

    QString localSocket() const override { return m_socket; }
    // The listener runs as long as this object: each connection to the engine is a new one.
    bool isRunning() const override { return true; }
    bool isRunning(int) const override { return true; }
    QString explain(const QString &fallback) const override;
    QString lastFailure() const override { return explain({}); }
    QString failedField() const override;
    QString reachedHow() const override;

    // Called by the relays: what failed on a connection, and that one worked. A connection the
    // engine had answered on that breaks tells less than one that cannot be made (the engine
    // gone, say): its failure is kept only when no other is.
    void recordFailure(const QString &field, const QString &message, bool established);
    void recordSuccess();

private:
    TlsTunnel() = default;

    QString m_socket;
    bool m_plain = false;
    std::unique_ptr<TlsRelay> m_relay;
    mutable QMutex m_mutex;
    QString m_failedField;
    QString m_failure;
};

} // namespace sandbox::power
