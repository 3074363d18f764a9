#include "Refusal.h"

#include "JsonReader.h"

#include <QCoreApplication>

#include <algorithm>

namespace sandbox {

namespace {

constexpr qint64 maxJsonInteger = (qint64(1) << 53);

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::Refusal", text);
}

bool isUnprintable(char16_t c)
{
    return c < 0x20 || c == 0x7f || JsonReader::isBidirectionalOverride(c);
}

// Refusal texts are data (paths, domains, command lines) shown as plain text: any character
// but control characters and bidirectional overrides, which would make them display as
// something other than what they say.
QString readText(JsonReader &reader, const QString &key, bool required, qsizetype maxLength)
{
    const QString text = required ? reader.requireString(key) : reader.optionalString(key);
    if (!reader.ok())
        return {};
    if (text.size() > maxLength) {
        reader.fail(key, tr("is too long (%1 characters, at most %2)").arg(text.size()).arg(maxLength));
        return {};
    }
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t c = text.at(i).unicode();
        if (JsonReader::isBidirectionalOverride(c)) {
            reader.fail(key, tr("contains a bidirectional override at position %1").arg(i));
            return {};
        }
        if (isUnprintable(c)) {
            reader.fail(key, tr("contains a control character at position %1").arg(i));
            return {};
        }
    }
    return text;
}

} // namespace

QString Refusal::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Path:
        return QStringLiteral("path");
    case Kind::Syscall:
        return QStringLiteral("syscall");
    case Kind::Network:
        return QStringLiteral("network");
    case Kind::HostSocket:
        return QStringLiteral("host-socket");
    case Kind::Credential:
        return QStringLiteral("credential");
    case Kind::Engine:
        return QStringLiteral("engine");
    }
    return QString();
}

std::optional<Refusal::Kind> Refusal::kindFromName(const QString &name)
{
    for (Kind kind : allKinds()) {
        if (kindName(kind) == name)
            return kind;
    }
    return std::nullopt;
}

QList<Refusal::Kind> Refusal::allKinds()
{
    return { Kind::Path, Kind::Syscall, Kind::Network, Kind::HostSocket, Kind::Credential, Kind::Engine };
}

QString Refusal::cleanText(const QString &text, qsizetype maxLength)
{
    QString clean = text.size() > maxLength ? text.left(maxLength - 1) + QChar(0x2026) : text;
    for (QChar &c : clean) {
        if (isUnprintable(c.unicode()))
            c = QChar(0xfffd);
    }
    return clean;
}

QString Refusal::shortCommand(const QStringList &argv)
{
    QStringList shown;
    qsizetype length = 0;
    for (const QString &argument : argv) {
        const bool plain = !argument.isEmpty() && std::all_of(argument.cbegin(), argument.cend(), [](QChar c) {
            return c.isLetterOrNumber() || QStringLiteral("-_./:=@%+,").contains(c);
        });
        QString quoted = argument;
        if (!plain)
            quoted = QLatin1Char('\'') + quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''")) + QLatin1Char('\'');
        shown.append(quoted);
        length += quoted.size() + 1;
        if (length > maxCommandLength)
            break;
    }
    return cleanText(shown.join(QLatin1Char(' ')), maxCommandLength);
}

QJsonObject Refusal::toJson() const
{
    QJsonObject object{ { QStringLiteral("id"), static_cast<qint64>(id) },
                        { QStringLiteral("timeMs"), timeMs },
                        { QStringLiteral("kind"), kindName(kind) },
                        { QStringLiteral("what"), what },
                        { QStringLiteral("rule"), rule } };
    if (processId != 0)
        object.insert(QStringLiteral("processId"), static_cast<qint64>(processId));
    if (!command.isEmpty())
        object.insert(QStringLiteral("command"), command);
    if (ref.isValid())
        object.insert(QStringLiteral("ref"), ref.toJson());
    if (!backendName.isEmpty())
        object.insert(QStringLiteral("backendName"), backendName);
    return object;
}

Result<Refusal> Refusal::fromJson(const QJsonValue &value, const QString &path)
{
    JsonReader reader(value, path);
    reader.rejectUnknownKeys({ QStringLiteral("id"), QStringLiteral("timeMs"), QStringLiteral("kind"),
                               QStringLiteral("what"), QStringLiteral("rule"), QStringLiteral("processId"),
                               QStringLiteral("command"), QStringLiteral("ref"), QStringLiteral("backendName") });
    Refusal refusal;
    refusal.id = static_cast<quint64>(reader.requireInteger(QStringLiteral("id"), 1, maxJsonInteger));
    refusal.timeMs = reader.requireInteger(QStringLiteral("timeMs"), 0, maxJsonInteger);
    const QString kind = reader.requireString(QStringLiteral("kind"));
    if (reader.ok()) {
        if (const std::optional<Kind> parsed = kindFromName(kind)) {
            refusal.kind = *parsed;
        } else {
            QStringList names;
            for (Kind k : allKinds())
                names.append(kindName(k));
            reader.fail(
                QStringLiteral("kind"),
                tr("unknown kind %1; expected one of %2").arg(cleanText(kind, 40), names.join(QStringLiteral(", "))));
        }
    }
    refusal.what = readText(reader, QStringLiteral("what"), true, maxWhatLength);
    refusal.rule = readText(reader, QStringLiteral("rule"), true, maxRuleLength);
    refusal.processId
        = static_cast<quint64>(reader.optionalInteger(QStringLiteral("processId"), 1, maxJsonInteger).value_or(0));
    refusal.command = readText(reader, QStringLiteral("command"), false, maxCommandLength);
    refusal.backendName = readText(reader, QStringLiteral("backendName"), false, maxNameLength);
    if (!reader.ok())
        return reader.error();
    if (reader.has(QStringLiteral("ref"))) {
        Result<BackendRef> ref
            = BackendRef::fromJson(reader.value(QStringLiteral("ref")), reader.childPath(QStringLiteral("ref")));
        if (!ref)
            return ref.error();
        refusal.ref = ref.value();
    }
    return refusal;
}

} // namespace sandbox
