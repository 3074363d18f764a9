#pragma once

#include "Error.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace sandbox {

// Sandbox policy: independent of the backend; activating a backend never rewrites it.
// JSON:
// { filesystem: { readable: [path], writable: [path], denied: [path], readOnly: [path] },
//   confinement: { processes: "isolated"|"shared" },
//   network: { mode: "none"|"allowlist"|"full", allowedDomains: [..], deniedDomains: [..] },
//   hostExecution: "deny"|"ask"|"allow" }
// Paths may start with "~/" (home) or "${workspace}" (the spawn's working directory);
// readOnly lists paths inside writable ones that stay read-only (e.g. .git/hooks).
// A domain entry: "example.com", "*.example.com", optionally ":port".
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

    // The careful defaults of DESIGN.md "Policy".
    static Policy defaults();

    static QString networkModeName(NetworkMode mode);
    static QString hostExecutionName(HostExecution mode);

    Status validate(const QString &where = QStringLiteral("policy")) const;
    QJsonObject toJson() const;
    static Result<Policy> fromJson(const QJsonValue &value, const QString &path = QStringLiteral("policy"));

    friend bool operator==(const Policy &, const Policy &) = default;
};

} // namespace sandbox
