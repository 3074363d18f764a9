#include "PolicySshAgent.h"

#include "JsonReader.h"
#include "Policy.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::PolicySshAgent", text);
}

const QString fingerprintPrefix = QStringLiteral("SHA256:");
// 32 bytes in base64 without padding.
constexpr qsizetype fingerprintDigits = 43;

bool isBase64Digit(char16_t u)
{
    return (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9') || u == u'+' || u == u'/';
}

} // namespace

QString PolicySshAgent::confirmName(Confirm confirm)
{
    switch (confirm) {
    case Confirm::Never:
        return QStringLiteral("never");
    case Confirm::FirstUse:
        return QStringLiteral("first-use");
    case Confirm::Always:
        return QStringLiteral("always");
    }
    return QString();
}

std::optional<PolicySshAgent::Confirm> PolicySshAgent::confirmFromName(const QString &name)
{
    for (Confirm confirm : { Confirm::Never, Confirm::FirstUse, Confirm::Always }) {
        if (confirmName(confirm) == name)
            return confirm;
    }
    return std::nullopt;
}

QString PolicySshAgent::fingerprintProblem(const QString &fingerprint)
{
    const QString hint = tr("expected an OpenSSH fingerprint such as \"SHA256:\" and 43 base64 characters, as "
                            "ssh-keygen -lf KEY.pub prints it");
    if (fingerprint.isEmpty())
        return tr("must not be empty; %1").arg(hint);
    if (fingerprint.startsWith(QLatin1String("MD5:"), Qt::CaseInsensitive))
        return tr("is an MD5 fingerprint; %1").arg(hint);
    if (!fingerprint.startsWith(fingerprintPrefix))
        return tr("does not start with \"SHA256:\"; %1").arg(hint);
    const QStringView digits = QStringView(fingerprint).mid(fingerprintPrefix.size());
    if (digits.size() != fingerprintDigits)
        return tr("has %1 characters after \"SHA256:\", not %2; %3")
            .arg(digits.size())
            .arg(fingerprintDigits)
            .arg(hint);
    for (QChar c : digits) {
        if (!isBase64Digit(c.unicode()))
            return tr("has a character that is not base64 after \"SHA256:\"; %1").arg(hint);
    }
    // 43 digits carry 258 bits: the last one's two low bits are not part of a 32-byte hash.
    const QByteArray decoded = QByteArray::fromBase64(digits.toLatin1());
    if (decoded.size() != 32 || decoded.toBase64(QByteArray::OmitTrailingEquals) != digits.toLatin1())
        return tr("is not the base64 of a SHA-256 hash; %1").arg(hint);
    return QString();
}

void PolicySshAgent::collectProblems(const QString &where, QList<Error> &problems) const
{
    const QString keysPath = where + QStringLiteral(".keys");
    if (keys.isEmpty())
        problems.append(Error{ keysPath, tr("an SSH agent needs at least one key"), {} });
    if (keys.size() > maxKeys) {
        problems.append(Error{ keysPath, tr("too many keys (%1, at most %2)").arg(keys.size()).arg(maxKeys), {} });
    } else {
        for (qsizetype i = 0; i < keys.size(); ++i) {
            const QString path = keysPath + QStringLiteral("[%1]").arg(i);
            if (const QString problem = fingerprintProblem(keys.at(i)); !problem.isEmpty()) {
                problems.append(Error{ path, problem, {} });
                continue;
            }
            const qsizetype first = keys.indexOf(keys.at(i));
            if (first < i)
                problems.append(Error{ path, tr("is listed twice (also keys[%1])").arg(first), {} });
        }
    }
    const QString hostsPath = where + QStringLiteral(".hosts");
    if (hosts.size() > Policy::maxEntries) {
        problems.append(
            Error{ hostsPath, tr("too many entries (%1, at most %2)").arg(hosts.size()).arg(Policy::maxEntries), {} });
        return;
    }
    for (qsizetype i = 0; i < hosts.size(); ++i) {
        if (const QString problem = Policy::domainProblem(hosts.at(i)); !problem.isEmpty())
            problems.append(Error{ hostsPath + QStringLiteral("[%1]").arg(i), problem, {} });
    }
    if (confirmName(confirm).isEmpty())
        problems.append(Error{ where + QStringLiteral(".confirm"), tr("unknown confirmation mode"), {} });
}

QJsonObject PolicySshAgent::toJson() const
{
    QJsonObject json{ { QStringLiteral("keys"), QJsonArray::fromStringList(keys) },
                      { QStringLiteral("confirm"), confirmName(confirm) } };
    if (!hosts.isEmpty())
        json.insert(QStringLiteral("hosts"), QJsonArray::fromStringList(hosts));
    return json;
}

Result<PolicySshAgent> PolicySshAgent::fromJson(const QJsonValue &value, const QString &where)
{
    JsonReader reader(value, where);
    reader.rejectUnknownKeys({ QStringLiteral("keys"), QStringLiteral("hosts"), QStringLiteral("confirm") });
    PolicySshAgent agent;
    reader.requireArray(QStringLiteral("keys"));
    agent.keys = reader.optionalStringList(QStringLiteral("keys"));
    agent.hosts = reader.optionalStringList(QStringLiteral("hosts"));
    const bool hasConfirm = reader.has(QStringLiteral("confirm"));
    const QString confirm = hasConfirm ? reader.requireString(QStringLiteral("confirm")) : QString();
    if (!reader.ok())
        return reader.error();
    if (hasConfirm) {
        const std::optional<Confirm> parsed = confirmFromName(confirm);
        if (!parsed)
            return Error{ reader.childPath(QStringLiteral("confirm")),
                          tr("unknown confirmation \"%1\"; expected never, first-use or always").arg(confirm.left(40)),
                          {} };
        agent.confirm = *parsed;
    }
    return agent;
}

QStringList PolicySshAgent::proxyRules() const
{
    QStringList rules;
    for (const QString &host : hosts) {
        // "name:port" and "[v6]:port" carry a port; a bare IPv6 address has colons but none.
        const int colon = host.lastIndexOf(QLatin1Char(':'));
        bool numeric = false;
        if (colon > 0)
            host.mid(colon + 1).toInt(&numeric);
        const bool hasPort = numeric && (host.count(QLatin1Char(':')) == 1 || host.startsWith(QLatin1Char('[')));
        const bool bareV6 = !hasPort && host.count(QLatin1Char(':')) > 1 && !host.startsWith(QLatin1Char('['));
        rules.append(hasPort ? host
                             : (bareV6 ? QLatin1Char('[') + host + QLatin1Char(']') : host) + QStringLiteral(":22"));
    }
    return rules;
}

} // namespace sandbox
