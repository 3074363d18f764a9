#include "PolicyCredential.h"

#include "JsonReader.h"
#include "Policy.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QSet>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::PolicyCredential", text);
}

bool isAsciiLetterOrDigit(char16_t u)
{
    return (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9');
}

// Variables a credential's placeholder must not replace: what the sandbox's own set-up
// depends on (search path, loader, proxy, home).
bool isReservedVariable(const QString &name)
{
    static const QSet<QString> reserved{
        QStringLiteral("PATH"),        QStringLiteral("HOME"),        QStringLiteral("USER"),
        QStringLiteral("SHELL"),       QStringLiteral("TMPDIR"),      QStringLiteral("HTTP_PROXY"),
        QStringLiteral("HTTPS_PROXY"), QStringLiteral("ALL_PROXY"),   QStringLiteral("NO_PROXY"),
        QStringLiteral("http_proxy"),  QStringLiteral("https_proxy"), QStringLiteral("all_proxy"),
        QStringLiteral("no_proxy"),
    };
    return reserved.contains(name) || name.startsWith(QLatin1String("LD_"))
        || name.startsWith(QLatin1String("SANDBOX_")) || PolicyCredential::caBundleVariables().contains(name);
}

void checkDomains(const QStringList &list, const QString &where, QList<Error> &problems)
{
    if (list.size() > Policy::maxEntries) {
        problems.append(
            Error{ where, tr("too many entries (%1, at most %2)").arg(list.size()).arg(Policy::maxEntries), {} });
        return;
    }
    for (qsizetype i = 0; i < list.size(); ++i) {
        if (const QString problem = Policy::domainProblem(list.at(i)); !problem.isEmpty())
            problems.append(Error{ where + QStringLiteral("[%1]").arg(i), problem, {} });
    }
}

} // namespace

const QStringList &PolicyCredential::caBundleVariables()
{
    static const QStringList variables{
        QStringLiteral("SSL_CERT_FILE"),  QStringLiteral("NODE_EXTRA_CA_CERTS"), QStringLiteral("REQUESTS_CA_BUNDLE"),
        QStringLiteral("CURL_CA_BUNDLE"), QStringLiteral("GIT_SSL_CAINFO"),      QStringLiteral("PIP_CERT"),
        QStringLiteral("AWS_CA_BUNDLE"),
    };
    return variables;
}

QString PolicyCredential::nameProblem(const QString &name)
{
    if (name.isEmpty())
        return tr("must not be empty");
    if (name.size() > maxNameLength)
        return tr("is too long (%1 characters, at most %2)").arg(name.size()).arg(maxNameLength);
    if (!isAsciiLetterOrDigit(name.front().unicode()))
        return tr("must start with a letter or a digit");
    for (QChar c : name) {
        const char16_t u = c.unicode();
        if (!isAsciiLetterOrDigit(u) && u != u'.' && u != u'_' && u != u'-')
            return tr("may only contain letters, digits, \".\", \"_\" and \"-\"");
    }
    return QString();
}

QString PolicyCredential::envProblem(const QString &env)
{
    if (env.isEmpty())
        return tr("must not be empty (leave the key out for no variable)");
    if (env.size() > 128)
        return tr("is too long (%1 characters, at most 128)").arg(env.size());
    if (env.front().isDigit())
        return tr("must not start with a digit");
    for (QChar c : env) {
        if (!isAsciiLetterOrDigit(c.unicode()) && c.unicode() != u'_')
            return tr("is not a variable name (letters, digits and \"_\")");
    }
    if (isReservedVariable(env))
        return tr("is a variable the sandbox sets itself");
    return QString();
}

QString PolicyCredential::headerProblem(const QString &header)
{
    if (header.isEmpty())
        return tr("must not be empty");
    if (header.size() > maxHeaderLength)
        return tr("is too long (%1 characters, at most %2)").arg(header.size()).arg(maxHeaderLength);
    for (QChar c : header) {
        const char16_t u = c.unicode();
        if (u <= 32 || u >= 127 || QStringLiteral("()<>@,;:\\\"/[]?={}").contains(c))
            return tr("is not an HTTP header name");
    }
    const QString lower = header.toLower();
    if (lower == QLatin1String("host"))
        return tr("the Host header names the target and is never rewritten");
    return QString();
}

void PolicyCredential::collectProblems(const QString &where, QList<Error> &problems) const
{
    if (const QString problem = nameProblem(name); !problem.isEmpty())
        problems.append(Error{ where + QStringLiteral(".name"), problem, {} });
    if (!env.isNull()) {
        if (const QString problem = envProblem(env); !problem.isEmpty())
            problems.append(Error{ where + QStringLiteral(".env"), problem, {} });
    }
    if (hosts.isEmpty())
        problems.append(Error{ where + QStringLiteral(".hosts"), tr("a credential needs at least one host"), {} });
    checkDomains(hosts, where + QStringLiteral(".hosts"), problems);
    checkDomains(excludeHosts, where + QStringLiteral(".excludeHosts"), problems);
    if (headers.size() > Policy::maxEntries) {
        problems.append(Error{ where + QStringLiteral(".headers"),
                               tr("too many entries (%1, at most %2)").arg(headers.size()).arg(Policy::maxEntries),
                               {} });
        return;
    }
    for (qsizetype i = 0; i < headers.size(); ++i) {
        if (const QString problem = headerProblem(headers.at(i)); !problem.isEmpty())
            problems.append(Error{ where + QStringLiteral(".headers[%1]").arg(i), problem, {} });
    }
}

QJsonObject PolicyCredential::toJson() const
{
    QJsonObject json{ { QStringLiteral("name"), name },
                      { QStringLiteral("hosts"), QJsonArray::fromStringList(hosts) } };
    if (!env.isNull())
        json.insert(QStringLiteral("env"), env);
    if (!headers.isEmpty())
        json.insert(QStringLiteral("headers"), QJsonArray::fromStringList(headers));
    if (!excludeHosts.isEmpty())
        json.insert(QStringLiteral("excludeHosts"), QJsonArray::fromStringList(excludeHosts));
    return json;
}

Result<PolicyCredential> PolicyCredential::fromJson(const QJsonValue &value, const QString &where)
{
    JsonReader reader(value, where);
    reader.rejectUnknownKeys({ QStringLiteral("name"), QStringLiteral("env"), QStringLiteral("hosts"),
                               QStringLiteral("headers"), QStringLiteral("excludeHosts") });
    PolicyCredential credential;
    credential.name = reader.requireString(QStringLiteral("name"), true);
    if (reader.has(QStringLiteral("env")))
        credential.env = reader.requireString(QStringLiteral("env"), true);
    reader.requireArray(QStringLiteral("hosts"));
    credential.hosts = reader.optionalStringList(QStringLiteral("hosts"));
    credential.headers = reader.optionalStringList(QStringLiteral("headers"));
    credential.excludeHosts = reader.optionalStringList(QStringLiteral("excludeHosts"));
    if (!reader.ok())
        return reader.error();
    if (credential.env.isNull() && reader.has(QStringLiteral("env")))
        credential.env = QStringLiteral(""); // present but empty: validation says so
    return credential;
}

} // namespace sandbox
