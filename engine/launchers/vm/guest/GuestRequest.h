#pragma once

#include "GuestLayout.h"
#include "protocol/SpawnRequest.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QPair>
#include <QString>
#include <QStringList>

namespace sandbox {

// The requests the engine sends the guest's exec agent, as NUL-separated fields.
struct GuestRequest
{
    // A command's SSH agent in the guest (GuestProtocol.h's Spawn flag "agent"): the socket's
    // name in the command's agent folder, the files written beside it (name, content) and the
    // variables naming them (SSH_AUTH_SOCK and the SSH client's), set after every other.
    struct Agent
    {
        QString socketName;
        QList<QPair<QString, QByteArray>> files;
        QMap<QString, QString> environment;
    };
    // What a command's write gate (sandbox-init --gate --guest in the guest) guards: the
    // layout's writable shares, and the read-only shares inside them. Guest paths are the
    // host's.
    struct Gate
    {
        QStringList guarded;
        QStringList readOnly;
        static Gate fromLayout(const GuestLayout &layout);
    };
    // The guest folder of the command `id`'s agent.
    static QString agentFolder(quint32 id);

    // A command to run under `gate`: its directory, argv and environment; with `proxied` the
    // proxy variables point at the guest's network forwarder, set after the request's own, as
    // are `engineEnvironment`'s (credential placeholders, the certificate bundle's variables).
    static QByteArray spawnPayload(const SpawnRequest &request, const Gate &gate, bool proxied,
                                   const QMap<QString, QString> &engineEnvironment = {}, const Agent *agent = nullptr);
    // The handshake a restored guest must complete before it is ready: its clock set to the
    // host's (it stood still since the baseline was saved) and fresh host randomness mixed into
    // its pool (every VM restored from one baseline starts from the same pool otherwise).
    static QByteArray handshakePayload();
    // 64 bytes of the host's randomness for a restored guest's pool.
    static QByteArray freshSeed();
    // Whether the command, its environment or its directories hold a NUL (which the
    // payload cannot carry), or an environment name holds '='.
    static bool hasNul(const SpawnRequest &request);
};

} // namespace sandbox
