#pragma once

#include "DockerSettings.h"
#include "protocol/Error.h"
#include "protocol/Policy.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QStringList>

namespace sandbox::power {

// The container a policy asks for, for one workspace: what is mounted, how, and with
// which limits. Two commands whose specs have the same key share one warm container.
//   - the image's root filesystem read-only; a private /tmp (tmpfs)
//   - the workspace bind-mounted read-write at the same path, other writable paths that
//     exist likewise; the policy's read-only paths inside them mounted read-only on top
//   - a denied folder inside a mounted path is covered by an empty folder, read-only; a
//     denied file there, or a mounted path inside a denied one, refuses the spawn
//   - nothing else of the host: no runtime socket, no session bus, no host execution channel
//   - the caller's uid:gid, CapDrop ALL, no-new-privileges, the pids/memory/CPU limits
//   - network none (and allowlist, which this backend refuses) without a network; full
//     on the runtime's default network
class ContainerSpec final
{
    Q_DECLARE_TR_FUNCTIONS(ContainerSpec)

public:
    // `emptyFolder`: an empty host folder, mounted over denied folders (a tmpfs would not
    // do: Podman copies what it covers into it).
    static Result<ContainerSpec> build(const DockerSettings &settings, const Policy &policy, const QString &workspace,
                                       uint uid, uint gid, const QString &emptyFolder);

    QString workspace() const { return m_workspace; }
    QString user() const { return m_user; }
    QString key() const;
    // The body of POST /containers/create; `labels` mark what this launcher created.
    QJsonObject createBody(const QJsonObject &labels) const;

private:
    QString m_image;
    QString m_workspace;
    QString m_user;
    QStringList m_binds;
    bool m_network = false;
    qint64 m_memoryBytes = 0;
    qint64 m_nanoCpus = 0;
    qint64 m_pidsLimit = 0;
};

} // namespace sandbox::power
