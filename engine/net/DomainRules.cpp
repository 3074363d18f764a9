#include "DomainRules.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::DomainRules", text);
}

bool isValidName(const QString &name)
{
    static const QRegularExpression label(QStringLiteral("^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$"));
    if (name.isEmpty() || name.size() > 253)
        return false;
    const QStringList labels = name.split(QLatin1Char('.'));
    for (const QString &part : labels) {
        if (!label.match(part).hasMatch())
            return false;
    }
    return true;
}

} // namespace

QString DomainRules::normalizeHost(const QString &host)
{
    QString text = host.trimmed().toLower();
    if (text.startsWith(QLatin1Char('[')) && text.endsWith(QLatin1Char(']')))
        text = text.mid(1, text.size() - 2);
    QHostAddress address;
    if (address.setAddress(text)) {
        if (text.contains(QLatin1Char('%')))
            return {}; // scoped IPv6 addresses never leave the host
        return address.toString();
    }
    if (text.endsWith(QLatin1Char('.')))
        text.chop(1);
    return isValidName(text) ? text : QString();
}

Result<DomainRules::Entry> DomainRules::parseEntry(const QString &text, const QString &where, quint16 defaultPort)
{
    Entry entry;
    entry.text = text;
    entry.port = defaultPort;
    QString hostPart = text.trimmed();
    QString portPart;
    if (hostPart.startsWith(QLatin1Char('['))) {
        const qsizetype close = hostPart.indexOf(QLatin1Char(']'));
        if (close < 0)
            return Error{ where, tr("'%1': unterminated IPv6 address").arg(text), {} };
        portPart = hostPart.mid(close + 1);
        hostPart = hostPart.left(close + 1);
        if (!portPart.isEmpty()) {
            if (!portPart.startsWith(QLatin1Char(':')))
                return Error{ where, tr("'%1': expected ':port' after the address").arg(text), {} };
            portPart = portPart.mid(1);
            if (portPart.isEmpty())
                return Error{ where, tr("'%1': empty port").arg(text), {} };
        }
    } else if (hostPart.count(QLatin1Char(':')) == 1) {
        const qsizetype colon = hostPart.indexOf(QLatin1Char(':'));
        portPart = hostPart.mid(colon + 1);
        hostPart = hostPart.left(colon);
        if (portPart.isEmpty())
            return Error{ where, tr("'%1': empty port").arg(text), {} };
    }
    if (!portPart.isEmpty()) {
        bool ok = false;
        const uint port = portPart.toUInt(&ok);
        if (!ok || port == 0 || port > 65535)
            return Error{ where, tr("'%1': port must be 1-65535").arg(text), {} };
        entry.port = static_cast<quint16>(port);
    }
    if (hostPart.startsWith(QLatin1String("*."))) {
        entry.wildcard = true;
        hostPart = hostPart.mid(2);
    }
    if (hostPart.contains(QLatin1Char('*')))
        return Error{ where, tr("'%1': '*' is only allowed as a leading '*.' label").arg(text), {} };
    const QString host = normalizeHost(hostPart);
    if (host.isEmpty())
        return Error{ where, tr("'%1' is not a valid domain name or IP address").arg(text), {} };
    QHostAddress address;
    if (address.setAddress(host)) {
        if (entry.wildcard)
            return Error{ where, tr("'%1': a wildcard cannot apply to an IP address").arg(text), {} };
        entry.isAddress = true;
        entry.address = address;
    }
    entry.host = host;
    return entry;
}

Result<DomainRules> DomainRules::parse(const QStringList &allowed, const QStringList &denied, const QString &where,
                                       quint16 defaultPort)
{
    DomainRules rules;
    Error errors{ where, tr("invalid domain entries"), {} };
    for (qsizetype i = 0; i < allowed.size(); ++i) {
        auto entry = parseEntry(allowed[i], where + QStringLiteral(".allowedDomains[%1]").arg(i), defaultPort);
        if (entry)
            rules.m_allowed.append(entry.value());
        else
            errors.details.append(entry.error());
    }
    for (qsizetype i = 0; i < denied.size(); ++i) {
        auto entry = parseEntry(denied[i], where + QStringLiteral(".deniedDomains[%1]").arg(i), defaultPort);
        if (entry)
            rules.m_denied.append(entry.value());
        else
            errors.details.append(entry.error());
    }
    if (errors.details.size() == 1)
        return errors.details.first();
    if (!errors.details.isEmpty())
        return errors;
    return rules;
}

bool DomainRules::matches(const Entry &entry, const QString &host, const QHostAddress &address, quint16 port)
{
    if (entry.port != 0 && entry.port != port)
        return false;
    if (entry.isAddress)
        return !address.isNull() && address.isEqual(entry.address, QHostAddress::StrictConversion);
    if (!address.isNull())
        return false;
    if (entry.wildcard)
        return host.endsWith(QLatin1Char('.') + entry.host);
    return host == entry.host;
}

DomainRules::Decision DomainRules::check(const QString &rawHost, quint16 port) const
{
    Decision decision;
    const QString host = normalizeHost(rawHost);
    if (host.isEmpty()) {
        decision.reason = tr("'%1' is not a valid host name").arg(rawHost.left(100));
        return decision;
    }
    QHostAddress address;
    if (!address.setAddress(host))
        address.clear();
    for (const Entry &entry : m_denied) {
        if (matches(entry, host, address, port)) {
            decision.reason = tr("%1:%2 is denied by the policy entry '%3'").arg(host).arg(port).arg(entry.text);
            return decision;
        }
    }
    for (const Entry &entry : m_allowed) {
        if (matches(entry, host, address, port)) {
            decision.allowed = true;
            decision.exact = decision.exact || !entry.wildcard;
        }
    }
    if (!decision.allowed)
        decision.reason = tr("%1:%2 is not in the policy's allowed domains").arg(host).arg(port);
    return decision;
}

} // namespace sandbox
