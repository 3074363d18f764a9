#pragma once

#include "DomainRules.h"
#include "protocol/Error.h"

#include <QMutex>
#include <QObject>
#include <QString>
#include <QThread>

#include <memory>

class QTemporaryDir;

namespace sandbox {

class ChannelCredentials;
class ProxyServer;
class UpstreamProxy;

// The allowed-domains filtering proxy. It runs on a thread of its own and serves one
// unix socket ("channel") per sandbox, each with that sandbox's rules, in an owner-only
// directory of its own inside the engine's runtime directory (RuntimeDirectory), which no
// sandbox can write: a command cannot rename another command's channel onto its own path.
// Every method is thread-safe.
class FilteringProxy final
{
public:
    // `baseDirectory`: the engine's runtime directory, created 0700 when missing and refused
    // (start() fails, saying why) when it is not the user's alone.
    explicit FilteringProxy(QString baseDirectory);
    ~FilteringProxy();
    FilteringProxy(const FilteringProxy &) = delete;
    FilteringProxy &operator=(const FilteringProxy &) = delete;

    // Starts the thread and creates the runtime directory (idempotent).
    Status start();
    // A new socket serving `rules`; returns its path. `refused` (may be empty) is told of
    // every connection the channel refuses by its rules.
    // `credentials` (may be null): the credentials whose hosts the channel terminates TLS for.
    // `upstream` (may be null): the proxy every connection of the channel goes through.
    Result<QString> openChannel(const DomainRules &rules, ProxyRefusalListener refused = {},
                                std::shared_ptr<const ChannelCredentials> credentials = {},
                                std::shared_ptr<const UpstreamProxy> upstream = {});
    // A new socket serving `rules`, alone in an owner-only directory of its own (so the
    // directory can be mounted into a sandbox whole); returns the socket's path.
    Result<QString> openPrivateChannel(const DomainRules &rules, ProxyRefusalListener refused = {},
                                       std::shared_ptr<const ChannelCredentials> credentials = {},
                                       std::shared_ptr<const UpstreamProxy> upstream = {});
    // Ends the channel's connections, removes its socket (and its own directory).
    void closeChannel(const QString &socketPath);
    int channelCount() const;
    QString runtimeDirectory() const;

private:
    mutable QMutex m_mutex;
    QString m_baseDirectory;
    std::unique_ptr<QTemporaryDir> m_directory;
    QThread m_thread;
    ProxyServer *m_server = nullptr; // lives in m_thread
    quint64 m_nextChannel = 0;
};

} // namespace sandbox
