#pragma once

#include "protocol/SettingsValues.h"

#include <QString>

namespace sandbox::power {

// The Docker backend's settings, read from the values its descriptor declares. Their defaults
// are the descriptor's only: `values` passed in have them filled (DockerLauncher::configure).
struct DockerSettings
{
    QString endpoint; // empty: discovered (DOCKER_HOST, /var/run/docker.sock, the user's Podman socket)
    QString sshIdentityFile; // ssh:// endpoints: empty means the user's keys and agent
    QString sshKnownHostsFile; // ssh:// endpoints: empty means the user's known_hosts
    QString tlsCaCert; // tcp:// endpoints: the CA file the engine's certificate is checked against; empty: plain TCP
    QString tlsCert; // tcp:// endpoints: the client certificate file; empty: none
    QString tlsKey; // the client certificate's key (PEM), a secret: from the keychain, never from `values`
    QString tlsKeyUnread; // why tlsKey could not be read from the keychain, when it could not
    QString image;
    QString runtime; // empty: the engine's default OCI runtime
    qint64 memoryMb = 0; // 0: no limit
    double cpus = 0; // 0: no limit
    qint64 pidsLimit = 0;

    static DockerSettings fromValues(const SettingsValues &values);
    // An ssh:// or tcp:// endpoint: an engine on another host (the remote shape).
    bool isRemote() const;
};

} // namespace sandbox::power
