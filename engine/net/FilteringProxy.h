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

class ProxyServer;

// The allowed-domains filtering proxy. It runs on a thread of its own and serves one
// unix socket ("channel") per sandbox, each with that sandbox's rules, in an owner-only
// runtime directory. Every method is thread-safe.
class FilteringProxy final
{
public:
    FilteringProxy();
    ~FilteringProxy();
    FilteringProxy(const FilteringProxy &) = delete;
    FilteringProxy &operator=(const FilteringProxy &) = delete;

    // Starts the thread and creates the runtime directory (idempotent).
    Status start();
    // A new socket serving `rules`; returns its path. `refused` (may be empty) is told of
    // every connection the channel refuses by its rules.
    Result<QString> openChannel(const DomainRules &rules, ProxyRefusalListener refused = {});
    // A new socket serving `rules`, alone in an owner-only directory of its own (so the
    // directory can be mounted into a sandbox whole); returns the socket's path.
    Result<QString> openPrivateChannel(const DomainRules &rules, ProxyRefusalListener refused = {});
    // Ends the channel's connections, removes its socket (and its own directory).
    void closeChannel(const QString &socketPath);
    int channelCount() const;
    QString runtimeDirectory() const;

private:
    mutable QMutex m_mutex;
    std::unique_ptr<QTemporaryDir> m_directory;
    QThread m_thread;
    ProxyServer *m_server = nullptr; // lives in m_thread
    quint64 m_nextChannel = 0;
};

} // namespace sandbox
