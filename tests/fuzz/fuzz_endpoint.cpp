// libFuzzer target for the Docker backend's remote endpoint parsers (packs/power/docker):
// ssh://user@host[:port][/socket/path] (SshEndpoint) and tcp://host:port (TcpEndpoint), the
// text of the endpoint setting, which reaches ssh's command line and a TLS connection.
// Beyond "no crash": a refusal names where and what, and an accepted endpoint keeps every
// promise its parser makes (nothing ssh could read as an option, an absolute remote socket
// without ':', a port in range, a host).
#include "FuzzSupport.h"
#include "docker/SshEndpoint.h"
#include "docker/TcpEndpoint.h"

#include <QStringList>

#include <cstdint>

using namespace sandbox;
using sandbox::power::SshEndpoint;
using sandbox::power::TcpEndpoint;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    // As written, and with each scheme in front, so both parsers see the rest of the text.
    const QStringList endpoints{ text, QString(QStringLiteral("ssh://") + text),
                                 QString(QStringLiteral("tcp://") + text) };
    for (const QString &endpoint : endpoints) {
        const Result<SshEndpoint> ssh = SshEndpoint::parse(endpoint);
        if (!ssh.ok()) {
            fuzz::checkError(ssh.error());
        } else {
            const SshEndpoint &parsed = ssh.value();
            if (parsed.user.isEmpty() || parsed.user.startsWith(QLatin1Char('-')))
                fuzz::contractBroken("ssh endpoint user", endpoint);
            if (parsed.host.isEmpty() || parsed.host.startsWith(QLatin1Char('-')))
                fuzz::contractBroken("ssh endpoint host", endpoint);
            if (!parsed.socketPath.startsWith(QLatin1Char('/')) || parsed.socketPath.contains(QLatin1Char(':')))
                fuzz::contractBroken("ssh endpoint socket", endpoint);
            if (parsed.port < 0 || parsed.port > 65535 || parsed.text().isEmpty())
                fuzz::contractBroken("ssh endpoint port", endpoint);
        }
        const Result<TcpEndpoint> tcp = TcpEndpoint::parse(endpoint);
        if (!tcp.ok()) {
            fuzz::checkError(tcp.error());
        } else {
            const TcpEndpoint &parsed = tcp.value();
            if (parsed.host.isEmpty() || parsed.host.startsWith(QLatin1Char('-')))
                fuzz::contractBroken("tcp endpoint host", endpoint);
            if (parsed.port < 1 || parsed.port > 65535)
                fuzz::contractBroken("tcp endpoint port", endpoint);
            if (parsed.text().isEmpty())
                fuzz::contractBroken("tcp endpoint text", endpoint);
            [[maybe_unused]] const bool loopback = parsed.isLoopback();
        }
    }
    return 0;
}
