#pragma once

#include "Error.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace sandbox {

// The HTTP proxy the engine's filtering proxy chains to (a corporate network's way out):
// data only. JSON (policy.network.upstreamProxy):
// { url: "http://host:port" | "https://host:port", credential?: name }
// Every connection the filtering proxy makes for a command goes through it as
// "CONNECT host:port"; the policy's allowed domains are checked first, so it never widens
// them. https: TLS to the proxy itself, verified against the system's authorities and
// network.extraCaCertificates. `credential` names a value in the engine's secret storage
// ("user:password", set with `sandboxctl credential set NAME`), sent to the proxy alone as
// Proxy-Authorization: Basic; it never enters a sandbox.
struct PolicyUpstreamProxy
{
    QString url;
    QString credential; // empty: the proxy asks for none

    // The parts of a valid `url`.
    QString scheme() const;
    QString host() const; // IPv6 without brackets
    quint16 port() const;
    bool usesTls() const { return scheme() == QLatin1String("https"); }
    // "host:port" (IPv6 in brackets), for messages.
    QString authority() const;

    // Empty when `url` is acceptable; otherwise what is wrong with it.
    static QString urlProblem(const QString &url);

    // Appends every problem (paths below `where`, e.g. "policy.network.upstreamProxy").
    void collectProblems(const QString &where, QList<Error> &problems) const;
    QJsonObject toJson() const;
    static Result<PolicyUpstreamProxy> fromJson(const QJsonValue &value, const QString &where);

    friend bool operator==(const PolicyUpstreamProxy &, const PolicyUpstreamProxy &) = default;
};

} // namespace sandbox
