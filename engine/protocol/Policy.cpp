#include "Policy.h"

#include "JsonReader.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>

namespace sandbox {

namespace {

constexpr qsizetype maxDomainLength = 253 + 6; // a full host name plus ":65535"
constexpr qsizetype maxReportedProblems = 100;

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::Policy", text);
}

const QString workspaceVariable = QStringLiteral("${workspace}");

bool isHostLabel(QStringView label)
{
    if (label.isEmpty() || label.size() > 63)
        return false;
    if (label.front() == u'-' || label.back() == u'-')
        return false;
    for (QChar c : label) {
        const char16_t u = c.unicode();
        const bool ok = (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9') || u == u'-';
        if (!ok)
            return false;
    }
    return true;
}

void checkList(const QStringList &list, const QString &path, QString (*problemOf)(const QString &),
               QList<Error> &problems)
{
    if (list.size() > Policy::maxEntries) {
        problems.append(
            Error{ path, tr("too many entries (%1, at most %2)").arg(list.size()).arg(Policy::maxEntries), {} });
        return;
    }
    for (qsizetype i = 0; i < list.size() && problems.size() < maxReportedProblems; ++i) {
        if (const QString problem = problemOf(list.at(i)); !problem.isEmpty())
            problems.append(Error{ path + QStringLiteral("[%1]").arg(i), problem, {} });
    }
}

QString pathCheck(const QString &path)
{
    return Policy::pathProblem(path);
}

QString domainCheck(const QString &domain)
{
    return Policy::domainProblem(domain);
}

void checkCredentials(const QList<PolicyCredential> &credentials, const QString &path, QList<Error> &problems)
{
    if (credentials.size() > PolicyCredential::maxCredentials) {
        problems.append(Error{
            path,
            tr("too many credentials (%1, at most %2)").arg(credentials.size()).arg(PolicyCredential::maxCredentials),
            {} });
        return;
    }
    for (qsizetype i = 0; i < credentials.size(); ++i) {
        const PolicyCredential &credential = credentials.at(i);
        const QString where = path + QStringLiteral("[%1]").arg(i);
        credential.collectProblems(where, problems);
        for (qsizetype j = 0; j < i; ++j) {
            if (credentials.at(j).name == credential.name)
                problems.append(Error{
                    where + QStringLiteral(".name"),
                    tr("credential \"%1\" is listed twice (also credentials[%2])").arg(credential.name.left(64)).arg(j),
                    {} });
            else if (!credential.env.isEmpty() && credentials.at(j).env == credential.env)
                problems.append(Error{ where + QStringLiteral(".env"),
                                       tr("variable %1 is already given to credentials[%2]").arg(credential.env).arg(j),
                                       {} });
        }
    }
}

} // namespace

namespace {

// The list is data shipped with the engine (resources/policy/credential-stores.txt) so
// that it can be audited and extended without reading code.
QStringList readCredentialStores()
{
    QFile file(QStringLiteral(":/sandbox/policy/credential-stores.txt"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("The built-in list of credential stores is missing from this build");
    QStringList paths;
    for (const QByteArray &raw : file.readAll().split('\n')) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (!line.isEmpty() && !line.startsWith(u'#'))
            paths.append(line);
    }
    return paths;
}

// Read once: the default policy is made for every command that runs without a policy file.
const QStringList &defaultCredentialStores()
{
    static const QStringList paths = readCredentialStores();
    return paths;
}

} // namespace

Policy Policy::defaults()
{
    Policy policy;
    policy.readable = { QStringLiteral("/") };
    policy.denied = defaultCredentialStores();
    policy.writable = { workspaceVariable, QStringLiteral("/tmp") };
    // Repository files that make git run code must not be writable by what runs in the workspace.
    policy.readOnly
        = { workspaceVariable + QStringLiteral("/.git/hooks"), workspaceVariable + QStringLiteral("/.git/config") };
    policy.processes = ProcessConfinement::Isolated;
    policy.network = NetworkMode::None;
    policy.hostExecution = HostExecution::Deny;
    return policy;
}

QStringList Policy::restrictedDimensions() const
{
    QStringList restricted;
    if (!writable.contains(QStringLiteral("/")) || !denied.isEmpty() || !readOnly.isEmpty())
        restricted.append(QStringLiteral("filesystem"));
    if (network != NetworkMode::Full)
        restricted.append(QStringLiteral("network"));
    if (network == NetworkMode::Allowlist)
        restricted.append(QStringLiteral("allowedDomains"));
    if (hostExecution != HostExecution::Allow)
        restricted.append(QStringLiteral("hostExecution"));
    if (processes == ProcessConfinement::Isolated)
        restricted.append(QStringLiteral("confinement"));
    if (!credentials.isEmpty())
        restricted.append(QStringLiteral("credentials"));
    if (sshAgent)
        restricted.append(QStringLiteral("sshAgent"));
    if (upstreamProxy)
        restricted.append(QStringLiteral("upstreamProxy"));
    return restricted;
}

const PolicyCredential *Policy::credential(const QString &name) const
{
    for (const PolicyCredential &entry : credentials) {
        if (entry.name == name)
            return &entry;
    }
    return nullptr;
}

QString Policy::networkModeName(NetworkMode mode)
{
    switch (mode) {
    case NetworkMode::None:
        return QStringLiteral("none");
    case NetworkMode::Allowlist:
        return QStringLiteral("allowlist");
    case NetworkMode::Full:
        return QStringLiteral("full");
    }
    return QString();
}

QString Policy::hostExecutionName(HostExecution mode)
{
    switch (mode) {
    case HostExecution::Deny:
        return QStringLiteral("deny");
    case HostExecution::Ask:
        return QStringLiteral("ask");
    case HostExecution::Allow:
        return QStringLiteral("allow");
    }
    return QString();
}

QString Policy::processConfinementName(ProcessConfinement mode)
{
    switch (mode) {
    case ProcessConfinement::Isolated:
        return QStringLiteral("isolated");
    case ProcessConfinement::Shared:
        return QStringLiteral("shared");
    }
    return QString();
}

std::optional<Policy::NetworkMode> Policy::networkModeFromName(const QString &name)
{
    for (NetworkMode mode : { NetworkMode::None, NetworkMode::Allowlist, NetworkMode::Full }) {
        if (networkModeName(mode) == name)
            return mode;
    }
    return std::nullopt;
}

std::optional<Policy::HostExecution> Policy::hostExecutionFromName(const QString &name)
{
    for (HostExecution mode : { HostExecution::Deny, HostExecution::Ask, HostExecution::Allow }) {
        if (hostExecutionName(mode) == name)
            return mode;
    }
    return std::nullopt;
}

std::optional<Policy::ProcessConfinement> Policy::processConfinementFromName(const QString &name)
{
    for (ProcessConfinement mode : { ProcessConfinement::Isolated, ProcessConfinement::Shared }) {
        if (processConfinementName(mode) == name)
            return mode;
    }
    return std::nullopt;
}

QString Policy::pathProblem(const QString &path)
{
    if (path.isEmpty())
        return tr("must not be empty");
    if (path.size() > maxPathLength)
        return tr("is too long (%1 characters, at most %2)").arg(path.size()).arg(maxPathLength);
    for (QChar c : path) {
        if (c.unicode() == 0)
            return tr("contains a NUL character");
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            return tr("contains a control character");
    }
    QStringView rest;
    if (path.startsWith(QLatin1Char('/'))) {
        rest = QStringView(path);
    } else if (path == QLatin1String("~") || path.startsWith(QLatin1String("~/"))) {
        rest = QStringView(path).mid(1);
    } else if (path == workspaceVariable
               || (path.startsWith(workspaceVariable) && path.at(workspaceVariable.size()) == u'/')) {
        rest = QStringView(path).mid(workspaceVariable.size());
    } else {
        return tr("must be absolute, start with ~/ or start with ${workspace}");
    }
    if (rest.contains(QLatin1String("${")))
        return tr("uses an unknown variable; only a leading ${workspace} is supported");
    for (QStringView component : rest.split(u'/')) {
        if (component == u"..")
            return tr("must not contain \"..\" components");
    }
    return QString();
}

bool Policy::isInside(const QString &path, const QString &root)
{
    // "/" holds the absolute paths only: an empty or relative path lies nowhere.
    if (root == QLatin1String("/"))
        return path.startsWith(QLatin1Char('/'));
    return path == root || path.startsWith(root + QLatin1Char('/'));
}

QString Policy::domainProblem(const QString &domain)
{
    if (domain.isEmpty())
        return tr("must not be empty");
    if (domain.size() > maxDomainLength)
        return tr("is too long (%1 characters, at most %2)").arg(domain.size()).arg(maxDomainLength);
    for (QChar c : domain) {
        if (c.isSpace() || c.unicode() < 0x20 || c.unicode() == 0x7f)
            return tr("must not contain whitespace or control characters");
    }
    if (domain.contains(QLatin1String("://")))
        return tr("must be a domain such as example.com, not a URL");
    if (domain.contains(QLatin1Char('/')))
        return tr("must be a domain such as example.com, without a path");
    QStringView host(domain);
    const qsizetype colon = domain.lastIndexOf(QLatin1Char(':'));
    if (colon >= 0) {
        const QStringView port = QStringView(domain).mid(colon + 1);
        host = QStringView(domain).left(colon);
        bool digits = !port.isEmpty() && port.size() <= 5;
        for (QChar c : port)
            digits = digits && c.unicode() >= u'0' && c.unicode() <= u'9';
        const int number = digits ? port.toInt() : 0;
        if (number < 1 || number > 65535)
            return tr("has an invalid port; expected a number from 1 to 65535");
    }
    if (host == u"*")
        return tr("a lone \"*\" would allow every domain; choose network mode \"full\" instead");
    if (host.startsWith(u"*."))
        host = host.mid(2);
    if (host.contains(u'*'))
        return tr("\"*\" is only allowed as a leading \"*.\" label");
    if (host.isEmpty() || host.size() > 253)
        return tr("is not a valid domain name");
    for (QStringView label : host.split(u'.')) {
        if (!isHostLabel(label))
            return tr("is not a valid domain name (labels are letters, digits and inner hyphens)");
    }
    return QString();
}

Status Policy::validate(const QString &where) const
{
    QList<Error> problems;
    const QString fs = where + QStringLiteral(".filesystem.");
    checkList(readable, fs + QStringLiteral("readable"), pathCheck, problems);
    checkList(writable, fs + QStringLiteral("writable"), pathCheck, problems);
    checkList(denied, fs + QStringLiteral("denied"), pathCheck, problems);
    checkList(readOnly, fs + QStringLiteral("readOnly"), pathCheck, problems);
    if (processConfinementName(processes).isEmpty())
        problems.append(
            Error{ where + QStringLiteral(".confinement.processes"), tr("unknown process confinement"), {} });
    if (networkModeName(network).isEmpty())
        problems.append(Error{ where + QStringLiteral(".network.mode"), tr("unknown network mode"), {} });
    checkList(allowedDomains, where + QStringLiteral(".network.allowedDomains"), domainCheck, problems);
    checkList(deniedDomains, where + QStringLiteral(".network.deniedDomains"), domainCheck, problems);
    const QString caPath = where + QStringLiteral(".network.extraCaCertificates");
    checkList(extraCaCertificates, caPath, pathCheck, problems);
    for (qsizetype i = 0; i < extraCaCertificates.size() && i < maxEntries; ++i) {
        if (extraCaCertificates.at(i).startsWith(workspaceVariable))
            problems.append(Error{ caPath + QStringLiteral("[%1]").arg(i),
                                   tr("must not be inside ${workspace}: commands can write there"),
                                   {} });
    }
    if (hostExecutionName(hostExecution).isEmpty())
        problems.append(Error{ where + QStringLiteral(".hostExecution"), tr("unknown host execution mode"), {} });
    checkCredentials(credentials, where + QStringLiteral(".credentials"), problems);
    if (!credentials.isEmpty() && network != NetworkMode::Allowlist)
        problems.append(Error{ where + QStringLiteral(".credentials"),
                               tr("credentials need the network mode \"allowlist\": only then does every connection "
                                  "go through the engine's proxy, which puts the values in"),
                               {} });
    if (sshAgent)
        sshAgent->collectProblems(where + QStringLiteral(".sshAgent"), problems);
    if (upstreamProxy) {
        const QString proxyPath = where + QStringLiteral(".network.upstreamProxy");
        upstreamProxy->collectProblems(proxyPath, problems);
        if (network != NetworkMode::Allowlist)
            problems.append(
                Error{ proxyPath,
                       tr("an upstream proxy needs the network mode \"allowlist\": only then do connections "
                          "go through the engine's proxy, which chains to it"),
                       {} });
        if (!upstreamProxy->credential.isEmpty() && credential(upstreamProxy->credential))
            problems.append(Error{ proxyPath + QStringLiteral(".credential"),
                                   tr("\"%1\" is also one of the policy's credentials, which the proxy puts into "
                                      "requests toward their hosts; the upstream proxy's credential must be a value "
                                      "of its own")
                                       .arg(upstreamProxy->credential),
                                   {} });
    }
    if (problems.isEmpty())
        return Status::success();
    Error first = problems.first();
    // The first problem leads; the others follow as details so the user can fix them all at once.
    if (problems.size() > 1)
        first.details = problems;
    return first;
}

QJsonObject Policy::toJson() const
{
    QJsonObject json{
        { QStringLiteral("filesystem"),
          QJsonObject{ { QStringLiteral("readable"), QJsonArray::fromStringList(readable) },
                       { QStringLiteral("writable"), QJsonArray::fromStringList(writable) },
                       { QStringLiteral("denied"), QJsonArray::fromStringList(denied) },
                       { QStringLiteral("readOnly"), QJsonArray::fromStringList(readOnly) } } },
        { QStringLiteral("confinement"),
          QJsonObject{ { QStringLiteral("processes"), processConfinementName(processes) } } },
        { QStringLiteral("network"),
          QJsonObject{ { QStringLiteral("mode"), networkModeName(network) },
                       { QStringLiteral("allowedDomains"), QJsonArray::fromStringList(allowedDomains) },
                       { QStringLiteral("deniedDomains"), QJsonArray::fromStringList(deniedDomains) } } },
        { QStringLiteral("hostExecution"), hostExecutionName(hostExecution) },
    };
    // Left out when empty, so that policies without them read as they always did.
    if (!extraCaCertificates.isEmpty()) {
        QJsonObject net = json.value(QStringLiteral("network")).toObject();
        net.insert(QStringLiteral("extraCaCertificates"), QJsonArray::fromStringList(extraCaCertificates));
        json.insert(QStringLiteral("network"), net);
    }
    if (upstreamProxy) {
        QJsonObject net = json.value(QStringLiteral("network")).toObject();
        net.insert(QStringLiteral("upstreamProxy"), upstreamProxy->toJson());
        json.insert(QStringLiteral("network"), net);
    }
    if (!credentials.isEmpty()) {
        QJsonArray list;
        for (const PolicyCredential &credential : credentials)
            list.append(credential.toJson());
        json.insert(QStringLiteral("credentials"), list);
    }
    if (sshAgent)
        json.insert(QStringLiteral("sshAgent"), sshAgent->toJson());
    return json;
}

Result<Policy> Policy::fromJson(const QJsonValue &value, const QString &path)
{
    JsonReader reader(value, path);
    reader.rejectUnknownKeys({ QStringLiteral("filesystem"), QStringLiteral("confinement"), QStringLiteral("network"),
                               QStringLiteral("hostExecution"), QStringLiteral("credentials"),
                               QStringLiteral("sshAgent") });
    const QJsonObject filesystem = reader.requireObject(QStringLiteral("filesystem"));
    const bool hasConfinement = reader.has(QStringLiteral("confinement"));
    const QJsonObject confinement = reader.optionalObject(QStringLiteral("confinement"));
    const QJsonObject network = reader.requireObject(QStringLiteral("network"));
    const QString hostExecution = reader.requireString(QStringLiteral("hostExecution"));
    const QJsonArray credentials = reader.optionalArray(QStringLiteral("credentials"));
    const bool hasSshAgent = reader.has(QStringLiteral("sshAgent"));
    const QJsonObject sshAgent = reader.optionalObject(QStringLiteral("sshAgent"));
    if (!reader.ok())
        return reader.error();

    Policy policy;
    if (const auto mode = hostExecutionFromName(hostExecution))
        policy.hostExecution = *mode;
    else
        return Error{ reader.childPath(QStringLiteral("hostExecution")),
                      tr("unknown mode \"%1\"; expected deny, ask or allow").arg(hostExecution.left(40)),
                      {} };

    JsonReader fs(filesystem, reader.childPath(QStringLiteral("filesystem")));
    fs.rejectUnknownKeys({ QStringLiteral("readable"), QStringLiteral("writable"), QStringLiteral("denied"),
                           QStringLiteral("readOnly") });
    policy.readable = fs.optionalStringList(QStringLiteral("readable"));
    policy.writable = fs.optionalStringList(QStringLiteral("writable"));
    policy.denied = fs.optionalStringList(QStringLiteral("denied"));
    policy.readOnly = fs.optionalStringList(QStringLiteral("readOnly"));
    if (!fs.ok())
        return fs.error();

    if (hasConfinement) {
        JsonReader processes(confinement, reader.childPath(QStringLiteral("confinement")));
        processes.rejectUnknownKeys({ QStringLiteral("processes") });
        const QString name = processes.requireString(QStringLiteral("processes"));
        if (!processes.ok())
            return processes.error();
        if (const auto mode = processConfinementFromName(name))
            policy.processes = *mode;
        else
            return Error{ processes.childPath(QStringLiteral("processes")),
                          tr("unknown confinement \"%1\"; expected isolated or shared").arg(name.left(40)),
                          {} };
    }

    JsonReader net(network, reader.childPath(QStringLiteral("network")));
    net.rejectUnknownKeys({ QStringLiteral("mode"), QStringLiteral("allowedDomains"), QStringLiteral("deniedDomains"),
                            QStringLiteral("extraCaCertificates"), QStringLiteral("upstreamProxy") });
    const QString mode = net.requireString(QStringLiteral("mode"));
    policy.allowedDomains = net.optionalStringList(QStringLiteral("allowedDomains"));
    policy.deniedDomains = net.optionalStringList(QStringLiteral("deniedDomains"));
    policy.extraCaCertificates = net.optionalStringList(QStringLiteral("extraCaCertificates"));
    const bool hasUpstreamProxy = net.has(QStringLiteral("upstreamProxy"));
    const QJsonObject upstreamProxy = net.optionalObject(QStringLiteral("upstreamProxy"));
    if (!net.ok())
        return net.error();
    if (hasUpstreamProxy) {
        Result<PolicyUpstreamProxy> proxy
            = PolicyUpstreamProxy::fromJson(upstreamProxy, net.childPath(QStringLiteral("upstreamProxy")));
        if (!proxy.ok())
            return proxy.error();
        policy.upstreamProxy = proxy.value();
    }
    if (const auto parsed = networkModeFromName(mode))
        policy.network = *parsed;
    else
        return Error{ net.childPath(QStringLiteral("mode")),
                      tr("unknown network mode \"%1\"; expected none, allowlist or full").arg(mode.left(40)),
                      {} };

    if (credentials.size() > PolicyCredential::maxCredentials)
        return Error{
            reader.childPath(QStringLiteral("credentials")),
            tr("too many credentials (%1, at most %2)").arg(credentials.size()).arg(PolicyCredential::maxCredentials),
            {}
        };
    for (qsizetype i = 0; i < credentials.size(); ++i) {
        Result<PolicyCredential> credential = PolicyCredential::fromJson(
            credentials.at(i), reader.childPath(QStringLiteral("credentials")) + QStringLiteral("[%1]").arg(i));
        if (!credential.ok())
            return credential.error();
        policy.credentials.append(credential.value());
    }
    if (hasSshAgent) {
        Result<PolicySshAgent> agent = PolicySshAgent::fromJson(sshAgent, reader.childPath(QStringLiteral("sshAgent")));
        if (!agent.ok())
            return agent.error();
        policy.sshAgent = agent.value();
    }

    if (const Status valid = policy.validate(path); !valid)
        return valid.error();
    return policy;
}

} // namespace sandbox
