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
// `env`: the variable the command sees, holding the engine's placeholder, never the value.
// `hosts` use the allowed-domain syntax ("example.com", "*.example.com", ":port");
// `headers` (empty: every request header) are where the value may be put in;
// `excludeHosts` are hosts among `hosts` whose TLS is not terminated (pinning, mTLS).
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
