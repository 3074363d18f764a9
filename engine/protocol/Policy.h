#pragma once

#include "Error.h"
#include "PolicyCredential.h"
#include "PolicySshAgent.h"
#include "PolicyUpstreamProxy.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace sandbox {

// Sandbox policy: independent of the backend; activating a backend never rewrites it.
// JSON:
// { filesystem: { readable: [path], writable: [path], denied: [path], readOnly: [path] },
//   confinement: { processes: "isolated"|"shared" },
//   network: { mode: "none"|"allowlist"|"full", allowedDomains: [..], deniedDomains: [..],
//              extraCaCertificates?: [path], upstreamProxy?: PolicyUpstreamProxy },
//   hostExecution: "deny"|"ask"|"allow",
//   credentials?: [PolicyCredential],
//   sshAgent?: PolicySshAgent }
// Paths may start with "~/" (home) or "${workspace}" (the spawn's working directory);
// readOnly lists paths inside writable ones that stay read-only (e.g. .git/hooks).
// A domain entry: "example.com", "*.example.com", optionally ":port".
// extraCaCertificates: PEM files (absolute or "~/") the engine's proxy is to trust beside the
// system's CAs; never inside ${workspace}, which commands can write.
struct Policy
{
    enum class NetworkMode { None, Allowlist, Full };
    enum class HostExecution { Deny, Ask, Allow };
    enum class ProcessConfinement { Isolated, Shared };

    QStringList readable;
    QStringList writable;
    QStringList denied;
    QStringList readOnly;
    ProcessConfinement processes = ProcessConfinement::Isolated;
    NetworkMode network = NetworkMode::None;
    QStringList allowedDomains;
    QStringList deniedDomains;
    HostExecution hostExecution = HostExecution::Deny;
    QStringList extraCaCertificates;
    // Absent: the engine's proxy connects to the allowed hosts itself. Only with an allowlist.
    std::optional<PolicyUpstreamProxy> upstreamProxy;
    QList<PolicyCredential> credentials;
    // Absent: the sandbox has no SSH agent.
    std::optional<PolicySshAgent> sshAgent;

    // The careful defaults of DESIGN.md "Policy".
    static Policy defaults();

    // The policy dimensions (BackendDescriptor::enforcementDimensions()) this policy
    // restricts, which a launcher must enforce to run anything under it: filesystem unless
    // "/" is writable with nothing denied or read-only; confinement when processes are
    // isolated; network unless it is full; allowedDomains with an allowlist; hostExecution
    // unless it is allowed; credentials when there are any; sshAgent when there is one;
    // upstreamProxy when there is one.
    QStringList restrictedDimensions() const;
    // The credential named `name`, or nullptr.
    const PolicyCredential *credential(const QString &name) const;

    static QString networkModeName(NetworkMode mode);
    static QString hostExecutionName(HostExecution mode);
    static QString processConfinementName(ProcessConfinement mode);
    static std::optional<NetworkMode> networkModeFromName(const QString &name);
    static std::optional<HostExecution> hostExecutionFromName(const QString &name);
    static std::optional<ProcessConfinement> processConfinementFromName(const QString &name);

    // Bounds every policy stays within (a policy is small; bigger ones are mistakes or attacks).
    static constexpr qsizetype maxEntries = 4096;
    static constexpr qsizetype maxPathLength = 4096;
    // Empty when acceptable; otherwise what is wrong with one path or domain entry.
    static QString pathProblem(const QString &path);
    static QString domainProblem(const QString &domain);
    // Whether `path` is `root` or below it, by name (only absolute paths are below "/").
    static bool isInside(const QString &path, const QString &root);

    Status validate(const QString &where = QStringLiteral("policy")) const;
    QJsonObject toJson() const;
    static Result<Policy> fromJson(const QJsonValue &value, const QString &path = QStringLiteral("policy"));

    friend bool operator==(const Policy &, const Policy &) = default;
};

} // namespace sandbox
