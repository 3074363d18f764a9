#pragma once

#include "protocol/Error.h"
#include "protocol/SettingsValues.h"

#include <QString>
#include <QUrl>

namespace sandbox::power {

// The E2B backend's settings, read from the values its descriptor declares and the
// resolved API key. The key lives only here and in the requests' own header. Their defaults
// are the descriptor's: the values read have them filled (E2bLauncher::configure).
struct E2bSettings
{
    QString apiKey;
    QString templateId;
    QString domain;
    QUrl apiUrl; // the control plane (REST)
    QUrl sandboxUrl; // where envd is reached; empty: per sandbox, from the domain
    int timeoutSeconds = 0;
    bool syncWorkspace = true; // workspace "sync"; false: "none"

    // The public E2B domain, the domain's default; also what an empty domain means.
    static constexpr const char *publicDomain = "e2b.app";
    // The template's default; also what an empty template means.
    static constexpr const char *baseTemplate = "base";
    // The port envd serves inside every sandbox.
    static constexpr int envdPort = 49983;

    // Reads and checks the values: URLs must be HTTPS, or plain HTTP to a loopback address.
    static Result<E2bSettings> fromResolved(const ResolvedSettings &settings);
    // `url` is usable: https, or http to a loopback host. Empty when so, otherwise why not.
    static QString transportProblem(const QUrl &url, const QString &what);
    // Where envd of `sandboxId` is reached: the configured sandbox URL; else for E2B's own
    // domains https://sandbox.<domain> (the sandbox named in headers), for others the
    // sandbox's own host under its domain (from the API, or the configured one).
    QUrl envdUrl(const QString &sandboxId, const QString &sandboxDomain) const;
};

} // namespace sandbox::power
