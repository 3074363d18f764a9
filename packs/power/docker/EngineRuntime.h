#pragma once

#include "DockerApi.h"
#include "protocol/Error.h"

#include <QCoreApplication>
#include <QMap>
#include <QString>
#include <QStringList>

namespace sandbox::power {

// The OCI runtime a Docker-compatible engine runs the backend's containers with: what the
// engine offers (GET /info: Runtimes, DefaultRuntime), which one the runtime setting picks,
// and whether sandbox-init's write gate works under it, measured by running it there.
class EngineRuntime final
{
    Q_DECLARE_TR_FUNCTIONS(EngineRuntime)

public:
    // What the engine reports.
    struct Offer
    {
        QStringList names; // sorted
        QMap<QString, QString> paths; // by name, as the engine reports them (may be absent)
        QString defaultRuntime;
        QString kernelVersion; // the engine host's Linux kernel
    };

    static Result<Offer> read(const DockerApi &api, int timeoutMs);

    // `setting` (empty: the engine's default) checked against `offer`: an Error names the
    // runtime, the engine and the runtimes it offers.
    static Result<EngineRuntime> choose(const Offer &offer, const QString &setting, const QString &endpoint);

    // Succeeds when a container of `image`, made as the backend makes them, runs under this
    // runtime and runs a command under sandbox-init's write gate (`helperProgram`, mounted
    // read-only as every container has it) as `user`; otherwise an Error saying what failed,
    // in the helper's own words, and naming the runtimes `offered`. The runtime the engine
    // reports having used becomes this one's name: an engine that runs another runtime than
    // the one asked for (Podman 4 ignores HostConfig.Runtime) is refused.
    // On an engine of another host (`copied`) nothing of this computer can be mounted: the
    // helper is copied into a volume of the container's own, as for every command there.
    enum class Helper { Mounted, Copied };
    Status probe(const DockerApi &api, const QString &image, const QString &helperProgram, const QString &user,
                 const QString &offered, int timeoutMs, Helper placement = Helper::Mounted);

    // The OCI runtime the engine says the container `containerId` runs under; empty when it
    // does not say.
    static QString runtimeOf(const DockerApi &api, const QString &containerId, int timeoutMs);

    // The runtime's name, and the value for HostConfig.Runtime (empty: the engine's default).
    QString name() const { return m_name; }
    QString requested() const { return m_requested; }
    QString path() const { return m_path; }
    // gVisor (runsc): its user-space kernel, the Sentry, serves the container's system calls.
    bool isGvisor() const;
    // runc or crun: the host's Linux kernel serves the container's system calls.
    bool isLinuxRuntime() const;
    // A sentence for the claims: which kernel enforces the container's confinement.
    QString kernelClaim() const;

private:
    QString m_name;
    QString m_requested;
    QString m_path;
    QMap<QString, QString> m_paths;
    QString m_kernelVersion;
};

} // namespace sandbox::power
