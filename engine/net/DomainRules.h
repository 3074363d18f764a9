#pragma once

#include "protocol/Error.h"

#include <QHostAddress>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

namespace sandbox {

// The allowed and denied domains of a policy, parsed once and matched per connection.
// Entries: "example.com" (that name only), "*.example.com" (its subdomains, not the apex),
// an IPv4 or IPv6 literal ("10.0.0.2", "[::1]"), each optionally with ":port". An entry
// without a port matches every port, or only the default port when parse() is given one.
// A denied entry always wins over an allowed one.
// Told of every connection a channel refuses by its rules: the target ("host:port") and
// the reason. Called on the proxy's thread; it must not block.
using ProxyRefusalListener = std::function<void(const QString &target, const QString &reason)>;

class DomainRules final
{
public:
    struct Decision
    {
        bool allowed = false;
        // True when an allowed entry names exactly this host (not through a wildcard):
        // only then may the target be a loopback or private address.
        bool exact = false;
        QString reason;
    };

    // `defaultPort` (0: none) is the port of every entry that names none.
    static Result<DomainRules> parse(const QStringList &allowed, const QStringList &denied,
                                     const QString &where = QStringLiteral("policy.network"), quint16 defaultPort = 0);

    // `host` is a name or an IP literal (IPv6 with or without brackets).
    Decision check(const QString &host, quint16 port) const;

    // Lower-cased, trailing dot and IPv6 brackets removed; empty when not a valid host.
    static QString normalizeHost(const QString &host);

private:
    struct Entry
    {
        QString text;
        QString host; // normalized name, without "*." for wildcards
        bool wildcard = false;
        bool isAddress = false;
        QHostAddress address;
        quint16 port = 0; // 0 = any
    };
    static Result<Entry> parseEntry(const QString &text, const QString &where, quint16 defaultPort);
    static bool matches(const Entry &entry, const QString &host, const QHostAddress &address, quint16 port);

    QList<Entry> m_allowed;
    QList<Entry> m_denied;
};

} // namespace sandbox
