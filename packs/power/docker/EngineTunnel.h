#pragma once

#include <QString>

namespace sandbox::power {

// The way to an engine on another host: a local unix socket in the engine's owner-only
// runtime folder that leads to the remote engine, so DockerApi talks to it as to a local one.
// SshTunnel (ssh://) and TlsTunnel (tcp://) are the two; the way ends with the object.
class EngineTunnel
{
public:
    virtual ~EngineTunnel() = default;

    virtual QString localSocket() const = 0;
    // Whether the way still holds (thread-safe).
    virtual bool isRunning() const = 0;
    // Whether it still holds after waiting up to `graceMs` for it to end (a connection through
    // it has just failed, and the way may be going).
    virtual bool isRunning(int graceMs) const = 0;
    // What failed, in a user's words, judged from what the way saw; `fallback` when it saw
    // nothing that tells.
    virtual QString explain(const QString &fallback) const = 0;
    // What failed on the latest connection through a way that holds (each connection its
    // own, as over TLS), until one works again; empty when nothing did, or the way cannot tell.
    virtual QString lastFailure() const { return {}; }
    // The settings field a failure explain() tells of lies in ("endpoint" unless a TLS file or
    // key is at fault).
    virtual QString failedField() const { return QStringLiteral("endpoint"); }
    // How the engine is reached, for notes: "over SSH", "over TLS".
    virtual QString reachedHow() const = 0;
};

} // namespace sandbox::power
