#pragma once

#include "Error.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace sandbox {

// The SSH agent a policy offers its commands: data only. JSON:
// { keys: [fingerprint], hosts?: [domain[:port]], confirm?: "never"|"first-use"|"always" }
// `keys` are the only keys of the user's agent the sandbox may see and sign with, named by
// OpenSSH's fingerprint ("SHA256:" and the unpadded base64 of the key's SHA-256, as
// `ssh-keygen -lf key.pub` prints it). `hosts` (allowed-domain syntax; port 22 when none is
// given) are where an SSH connection from the sandbox may go; none: signing only.
// `confirm` says when the user is asked before a signature: never, the first time each key
// signs, or every time (the default when left out).
struct PolicySshAgent
{
    enum class Confirm { Never, FirstUse, Always };

    QStringList keys;
    QStringList hosts;
    Confirm confirm = Confirm::Always;

    static constexpr qsizetype maxKeys = 64;

    static QString confirmName(Confirm confirm);
    static std::optional<Confirm> confirmFromName(const QString &name);
    // Empty when `fingerprint` is an OpenSSH SHA256 fingerprint; otherwise what is wrong.
    static QString fingerprintProblem(const QString &fingerprint);

    // The filtering proxy's rules that let SSH reach `hosts`: each as given, port 22 when it
    // has none.
    QStringList proxyRules() const;

    // Appends every problem (paths below `where`, e.g. "policy.sshAgent").
    void collectProblems(const QString &where, QList<Error> &problems) const;
    QJsonObject toJson() const;
    static Result<PolicySshAgent> fromJson(const QJsonValue &value, const QString &where);

    friend bool operator==(const PolicySshAgent &, const PolicySshAgent &) = default;
};

} // namespace sandbox
