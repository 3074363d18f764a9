#include "SandboxPlan.h"
#include "handoff/InitConfigFormat.h"

#include <QFile>

namespace sandbox {

QByteArray SandboxPlan::serialize() const
{
    auto bytes = [](const QString &text) { return QFile::encodeName(text).toStdString(); };
    auto allBytes = [&bytes](const QStringList &texts) {
        std::vector<std::string> out;
        out.reserve(size_t(texts.size()));
        for (const QString &text : texts)
            out.push_back(bytes(text));
        return out;
    };
    init::InitConfig config;
    config.tier = m_tier;
    config.argv = allBytes(m_argv);
    config.env = allBytes(m_environment);
    config.cwd = bytes(m_cwd);
    config.network = m_network == QLatin1String("full") ? init::InitConfig::Network::Full
        : m_network == QLatin1String("allowlist")       ? init::InitConfig::Network::Allowlist
                                                        : init::InitConfig::Network::None;
    if (!m_proxySocket.isEmpty()) {
        config.proxySocket = bytes(m_proxySocket);
        config.proxyPort = kProxyPort;
        if (m_tier == 1)
            config.landlockConnectPorts.push_back(kProxyPort);
    }
    for (const Mount &mount : m_mounts) {
        init::MountOp op;
        init::mountKindFromName(bytes(mount.kind), op.kind);
        op.source = bytes(mount.source);
        op.target = bytes(mount.target);
        config.mounts.push_back(std::move(op));
    }
    for (const auto &[target, link] : m_symlinks)
        config.symlinks.emplace_back(bytes(target), bytes(link));
    config.landlockReadable = allBytes(m_landlockReadable);
    config.landlockDirectories = allBytes(m_directoryOnly);
    config.landlockWritable = allBytes(m_landlockWritable);
    config.landlockDevices = allBytes(m_landlockDevices);
    config.agentSocket = bytes(m_agentSocket);
    config.denyUnixSockets = m_denyUnixSockets;
    config.superviseConnect = m_superviseConnect;
    config.exposeHostExecution = m_exposeHostExecution;
    config.rlimits.emplace_back("core", 0);
    config.guardRepositories = allBytes(m_guardRepositories);
    config.guardReadOnly = allBytes(m_guardReadOnly);
    // Every path-changing call beneath a denied path is refused and reported by the gate.
    config.guardDenied = allBytes(m_denied);
    return QByteArray::fromStdString(init::writeConfig(config));
}

} // namespace sandbox
