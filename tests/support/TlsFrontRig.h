#pragma once

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

namespace sandbox::test {

// A TLS front before an engine's unix socket, as a remote Docker engine with tlsverify is
// reached: Debian's stunnel on loopback ports, with certificates made by the openssl tool at
// start. Two authorities: "ca" (the front's, which made the server and client certificates)
// and "stranger-ca" (which the front does not trust, and which made the stranger's client
// certificate, for the client's key: only the authority differs). Two services, both requiring a client certificate
// made by "ca": port(), whose certificate names 127.0.0.1 and localhost, and misnamedPort(), whose certificate names
// only elsewhere.test. The front stops with the rig.
class TlsFrontRig final
{
public:
    TlsFrontRig();
    ~TlsFrontRig();
    TlsFrontRig(const TlsFrontRig &) = delete;
    TlsFrontRig &operator=(const TlsFrontRig &) = delete;

    // Makes the certificates and starts stunnel before `engineSocket`; empty on success, else
    // what failed.
    QString start(const QString &engineSocket);
    // Ends stunnel, and with it every connection through the front.
    void stop();
    quint16 port() const { return m_port; }
    quint16 misnamedPort() const { return m_misnamedPort; }
    // ca.pem, client.pem, client-key.pem, stranger-ca.pem, stranger.pem (client-key.pem's)
    QString path(const QString &name) const { return m_dir.filePath(name); }
    // What stunnel has said so far (for a failed test's report).
    QByteArray log();

private:
    QString openssl(const QStringList &args) const;
    QString authority(const QString &name) const;
    // name.pem made by `ca` for name-key.pem, a new key, or keyOf-key.pem when given.
    QString certificate(const QString &name, const QString &ca, const QString &subjectAltName, bool server,
                        const QString &keyOf) const;

    QTemporaryDir m_dir;
    QProcess m_stunnel;
    QByteArray m_log;
    quint16 m_port = 0;
    quint16 m_misnamedPort = 0;
};

} // namespace sandbox::test
