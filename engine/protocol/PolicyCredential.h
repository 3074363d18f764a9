#pragma once

#include "Error.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace sandbox {

// One credential of a policy: data only, never its value (which the engine keeps in the
// secret storage under `name`). JSON:
// { name, env?, hosts: [domain], headers?: [header name], excludeHosts?: [domain] }
// What the injecting proxy is to do with it (not built yet: no backend claims the
// credentials dimension, so such a policy runs nowhere): `env` names the variable the
// command is to see, holding the engine's placeholder, never the value; `hosts`
// (allowed-domain syntax: "example.com", "*.example.com", ":port") are where the value is to
// be put in, `headers` (empty: every request header) in which headers, and `excludeHosts`
// which of those hosts stay plain tunnels (pinning, mTLS).
struct PolicyCredential
{
    QString name;
    QString env;
    QStringList hosts;
    QStringList headers;
    QStringList excludeHosts;

    static constexpr qsizetype maxCredentials = 64;
    static constexpr qsizetype maxNameLength = 64;
    static constexpr qsizetype maxHeaderLength = 128;

    // Empty when acceptable; otherwise what is wrong.
    static QString nameProblem(const QString &name);
    static QString envProblem(const QString &env);
    static QString headerProblem(const QString &header);
    // The variables the engine itself sets in a sandbox that has credentials (the CA bundle).
    static const QStringList &caBundleVariables();

    // Appends every problem of this entry (paths below `where`, e.g. "policy.credentials[0]").
    void collectProblems(const QString &where, QList<Error> &problems) const;
    QJsonObject toJson() const;
    static Result<PolicyCredential> fromJson(const QJsonValue &value, const QString &where);

    friend bool operator==(const PolicyCredential &, const PolicyCredential &) = default;
};

} // namespace sandbox
