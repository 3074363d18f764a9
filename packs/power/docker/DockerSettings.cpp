#include "DockerSettings.h"

#include "SshEndpoint.h"
#include "TcpEndpoint.h"

namespace sandbox::power {

DockerSettings DockerSettings::fromValues(const SettingsValues &values)
{
    DockerSettings settings;
    settings.endpoint = values.values.value(QStringLiteral("endpoint")).toString().trimmed();
    settings.sshIdentityFile = values.values.value(QStringLiteral("sshIdentityFile")).toString().trimmed();
    settings.sshKnownHostsFile = values.values.value(QStringLiteral("sshKnownHostsFile")).toString().trimmed();
    settings.tlsCaCert = values.values.value(QStringLiteral("tlsCaCert")).toString().trimmed();
    settings.tlsCert = values.values.value(QStringLiteral("tlsCert")).toString().trimmed();
    settings.image = values.values.value(QStringLiteral("image")).toString().trimmed();
    settings.runtime = values.values.value(QStringLiteral("runtime")).toString().trimmed();
    settings.memoryMb = qint64(values.values.value(QStringLiteral("memoryMb")).toDouble());
    settings.cpus = values.values.value(QStringLiteral("cpus")).toDouble();
    settings.pidsLimit = qint64(values.values.value(QStringLiteral("pidsLimit")).toDouble());
    return settings;
}

bool DockerSettings::isRemote() const
{
    return SshEndpoint::isSsh(endpoint) || TcpEndpoint::isTcp(endpoint);
}

} // namespace sandbox::power
