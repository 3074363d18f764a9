#include "GuestRequest.h"

#include "ForwarderProtocol.h"
#include "GuestProtocol.h"

#include <QDateTime>
#include <QMap>
#include <QRandomGenerator>

namespace sandbox {

QString GuestRequest::agentFolder(quint32 id)
{
    return QString::fromLatin1(guest::kAgentDirectory) + QString::number(id);
}

GuestRequest::Gate GuestRequest::Gate::fromLayout(const GuestLayout &layout)
{
    Gate gate;
    for (const GuestLayout::Share &share : layout.shares) {
        if (share.writable)
            gate.guarded.append(share.hostPath);
    }
    for (const GuestLayout::Share &share : layout.shares) {
        if (share.writable)
            continue;
        for (const QString &root : std::as_const(gate.guarded)) {
            if (Policy::isInside(share.hostPath, root)) {
                gate.readOnly.append(share.hostPath);
                break;
            }
        }
    }
    gate.readOnly.append(layout.gateReadOnly);
    return gate;
}

QByteArray GuestRequest::spawnPayload(const SpawnRequest &request, const Gate &gate, bool proxied,
                                      const QMap<QString, QString> &engineEnvironment, const Agent *agent)
{
    QByteArray payload;
    auto put = [&](const QString &text) {
        payload += text.toUtf8();
        payload += '\0';
    };
    put(request.cwd);
    put(agent ? QStringLiteral("gate agent") : QStringLiteral("gate"));
    put(QString::number(request.argv.size()));
    for (const QString &arg : request.argv)
        put(arg);
    QMap<QString, QString> env = request.env;
    if (!env.contains(QStringLiteral("PATH")))
        env.insert(QStringLiteral("PATH"),
                   QStringLiteral("/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/.sandbox/bin"));
    env.insert(engineEnvironment);
    if (proxied) {
        // Set after the request's own: a command cannot point tools elsewhere (and there is
        // nowhere else to go).
        const QString http = QStringLiteral("http://127.0.0.1:%1").arg(forwarder::kListenPort);
        const QString socks = QStringLiteral("socks5h://127.0.0.1:%1").arg(forwarder::kListenPort);
        for (const char *name : { "http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "npm_config_proxy",
                                  "npm_config_https_proxy", "PIP_PROXY", "SANDBOX_PROXY" })
            env.insert(QString::fromLatin1(name), http);
        env.insert(QStringLiteral("ALL_PROXY"), socks);
        env.insert(QStringLiteral("all_proxy"), socks);
        env.insert(QStringLiteral("NO_PROXY"), QString());
        env.insert(QStringLiteral("no_proxy"), QString());
    }
    if (agent) {
        // After the request's own too: SSH_AUTH_SOCK names this command's socket and no other.
        for (auto it = agent->environment.cbegin(); it != agent->environment.cend(); ++it)
            env.insert(it.key(), it.value());
    }
    put(QString::number(env.size()));
    for (auto it = env.cbegin(); it != env.cend(); ++it)
        put(it.key() + QLatin1Char('=') + it.value());
    for (const QStringList *paths : { &gate.guarded, &gate.readOnly }) {
        put(QString::number(paths->size()));
        for (const QString &path : *paths)
            put(path);
    }
    if (agent) {
        put(agent->socketName);
        put(QString::number(agent->files.size()));
        for (const auto &[name, content] : agent->files) {
            put(name);
            payload += content;
            payload += '\0';
        }
    }
    return payload;
}

QByteArray GuestRequest::handshakePayload()
{
    QByteArray payload;
    auto put = [&](const QString &text) {
        payload += text.toUtf8();
        payload += '\0';
    };
    const QStringList argv{
        QStringLiteral("/bin/sh"), QStringLiteral("-c"),
        QStringLiteral("date -u -s @%1 >/dev/null && cat >/dev/urandom").arg(QDateTime::currentSecsSinceEpoch())
    };
    put(QStringLiteral("/"));
    put(QString());
    put(QString::number(argv.size()));
    for (const QString &arg : argv)
        put(arg);
    put(QStringLiteral("1"));
    put(QStringLiteral("PATH=/.sandbox/bin:/bin"));
    return payload;
}

QByteArray GuestRequest::freshSeed()
{
    QByteArray seed(64, Qt::Uninitialized);
    QRandomGenerator::system()->generate(reinterpret_cast<quint32 *>(seed.data()),
                                         reinterpret_cast<quint32 *>(seed.data() + seed.size()));
    return seed;
}

bool GuestRequest::hasNul(const SpawnRequest &request)
{
    auto bad = [](const QString &text) { return text.contains(QChar(0)); };
    if (bad(request.cwd) || bad(request.workspace))
        return true;
    for (const QString &arg : request.argv)
        if (bad(arg))
            return true;
    for (auto it = request.env.cbegin(); it != request.env.cend(); ++it)
        if (bad(it.key()) || bad(it.value()) || it.key().contains(QLatin1Char('=')))
            return true;
    return false;
}

} // namespace sandbox
