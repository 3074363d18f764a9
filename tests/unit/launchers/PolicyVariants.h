#pragma once

// The policies the escape suite runs under (tests/escape: the defaults, allowed domains,
// full network, host execution allowed) and the other variants a platform's policy
// compiler must get right: network none, host execution asked, extra denied paths (one
// with "*" components), and a writable path inside a denied one.
#include "protocol/Policy.h"

#include <QList>
#include <QString>

struct PolicyVariant
{
    QString name;
    sandbox::Policy policy;
    bool exposeHostExecution = false;
};

inline QList<PolicyVariant> policyVariants(quint16 allowedPort)
{
    using sandbox::Policy;
    QList<PolicyVariant> variants;
    variants.append({ QStringLiteral("defaults"), Policy::defaults() });
    Policy none = Policy::defaults();
    none.network = Policy::NetworkMode::None;
    variants.append({ QStringLiteral("network none"), none });
    Policy allowlist = Policy::defaults();
    allowlist.network = Policy::NetworkMode::Allowlist;
    allowlist.allowedDomains = { QStringLiteral("127.0.0.1:%1").arg(allowedPort) };
    variants.append({ QStringLiteral("network allowlist"), allowlist });
    Policy full = Policy::defaults();
    full.network = Policy::NetworkMode::Full;
    variants.append({ QStringLiteral("network full"), full });
    variants.append({ QStringLiteral("hostExecution deny"), Policy::defaults() });
    Policy ask = Policy::defaults();
    ask.hostExecution = Policy::HostExecution::Ask;
    variants.append({ QStringLiteral("hostExecution ask, not answered"), ask });
    variants.append({ QStringLiteral("hostExecution ask, answered yes"), ask, true });
    Policy allow = Policy::defaults();
    allow.hostExecution = Policy::HostExecution::Allow;
    variants.append({ QStringLiteral("hostExecution allow"), allow, true });
    Policy fullAllow = full;
    fullAllow.hostExecution = Policy::HostExecution::Allow;
    variants.append({ QStringLiteral("network full, hostExecution allow"), fullAllow, true });
    Policy extra = Policy::defaults();
    extra.denied += { QStringLiteral("${workspace}/secrets"), QStringLiteral("/etc/ssl/private"),
                      QStringLiteral("/var/db/sudo"), QStringLiteral("~/work/*/tokens") };
    variants.append({ QStringLiteral("extra denied paths"), extra });
    Policy inside = Policy::defaults();
    inside.writable.append(QStringLiteral("~/.aws/cli/cache"));
    variants.append({ QStringLiteral("writable inside denied"), inside });
    Policy shared = Policy::defaults();
    shared.processes = Policy::ProcessConfinement::Shared;
    variants.append({ QStringLiteral("processes shared"), shared });
    return variants;
}
