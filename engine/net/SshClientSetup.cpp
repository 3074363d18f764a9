#include "SshClientSetup.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSaveFile>

namespace sandbox {

namespace {

// A path ssh reads back intact inside double quotes, where % starts a token.
bool quotable(const QString &path)
{
    return !path.contains(QLatin1Char('"')) && !path.contains(QLatin1Char('%')) && !path.contains(QLatin1Char('\n'))
        && !path.contains(QLatin1Char('\''));
}

// Writes `data` as `directory`/`prefix`-<its hash>, owner-only, unless that file is there.
Result<QString> writeAddressed(const QString &directory, const QString &prefix, const QByteArray &data)
{
    const QString path = directory + QLatin1Char('/') + prefix + QLatin1Char('-')
        + QString::fromLatin1(QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex().left(24));
    QFile existing(path);
    if (existing.open(QIODevice::ReadOnly) && existing.readAll() == data)
        return path;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size()
        || !file.setPermissions(QFile::ReadOwner | QFile::WriteOwner) || !file.commit())
        return Error{ path,
                      SshClientSetup::tr("cannot write the sandbox's SSH configuration: %1").arg(file.errorString()),
                      {} };
    return path;
}

// The lines of `knownHosts` that ssh would use for `host` (a proxy rule, "name:port"), as
// ssh-keygen -F finds them (markers and hashed names included), without its comments.
QByteArray knownHostsFor(const QString &knownHosts, const QString &host)
{
    const int colon = host.lastIndexOf(QLatin1Char(':'));
    QString name = host.left(colon);
    const QString port = host.mid(colon + 1);
    if (name.contains(QLatin1Char('*')) || name.contains(QLatin1Char('?')))
        return {};
    if (name.startsWith(QLatin1Char('[')) && name.endsWith(QLatin1Char(']')))
        name = name.mid(1, name.size() - 2);
    const QString key = port == QLatin1String("22") ? name : QStringLiteral("[%1]:%2").arg(name, port);
    QProcess lookup;
    lookup.start(QStringLiteral("ssh-keygen"), { QStringLiteral("-F"), key, QStringLiteral("-f"), knownHosts });
    if (!lookup.waitForFinished(10000))
        return {};
    QByteArray lines;
    for (const QByteArray &line : lookup.readAllStandardOutput().split('\n')) {
        if (!line.trimmed().isEmpty() && !line.startsWith('#'))
            lines += line + '\n';
    }
    return lines;
}

} // namespace

Result<SshClientSetup> SshClientSetup::write(const QString &directory, const QString &sandboxDirectory,
                                             const QString &proxyProgram, const QString &knownHosts,
                                             const QStringList &proxyRules)
{
    const QString where = QStringLiteral("policy.sshAgent.hosts");
    const QString seenAs = sandboxDirectory.isEmpty() ? directory : sandboxDirectory;
    for (const QString &path : { seenAs, proxyProgram }) {
        if (!quotable(path))
            return Error{ where,
                          tr("the path '%1' holds a quote or a percent sign, which an SSH configuration cannot "
                             "name; nothing was run")
                              .arg(path),
                          {} };
    }
    if (!QDir().mkpath(directory)
        || !QFile::setPermissions(directory, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner))
        return Error{ directory, tr("cannot create the folder of the sandbox's SSH configuration"), {} };
    QByteArray entries;
    QFile source(knownHosts);
    if (source.exists()) {
        if (!source.open(QIODevice::ReadOnly))
            return Error{ knownHosts,
                          tr("cannot read your known SSH hosts (%1); the sandbox checks host keys against a copy "
                             "of them")
                              .arg(source.errorString()),
                          {} };
        for (const QString &host : proxyRules)
            entries += knownHostsFor(knownHosts, host);
    }
    Result<QString> hostsCopy = writeAddressed(directory, QStringLiteral("known_hosts"), entries);
    auto inSandbox = [&](const QString &path) { return seenAs + path.mid(directory.size()); };
    if (!hostsCopy)
        return hostsCopy.error();
    const QByteArray config = QStringLiteral("# Written by the engine for its sandboxes; options from no other file.\n"
                                             "Host *\n"
                                             "  ProxyCommand \"%1\" --ssh-proxy %h %p\n"
                                             "  UserKnownHostsFile \"%2\"\n"
                                             "  GlobalKnownHostsFile /dev/null\n"
                                             "  StrictHostKeyChecking yes\n"
                                             "  UpdateHostKeys no\n"
                                             "  BatchMode yes\n"
                                             "  ForwardAgent no\n"
                                             "  ForwardX11 no\n"
                                             "  PermitLocalCommand no\n")
                                  .arg(proxyProgram, inSandbox(hostsCopy.value()))
                                  .toUtf8();
    Result<QString> configFile = writeAddressed(directory, QStringLiteral("config"), config);
    if (!configFile)
        return configFile.error();
    SshClientSetup setup;
    setup.files = { configFile.value(), hostsCopy.value(), proxyProgram };
    const QString seenConfig = inSandbox(configFile.value());
    setup.environment.insert(QStringLiteral("SANDBOX_SSH_CONFIG"), seenConfig);
    setup.environment.insert(QStringLiteral("GIT_SSH_COMMAND"), QStringLiteral("ssh -F '%1'").arg(seenConfig));
    setup.environment.insert(QStringLiteral("GIT_SSH_VARIANT"), QStringLiteral("ssh"));
    return setup;
}

} // namespace sandbox
