#include "HostInteraction.h"

#include "JsonReader.h"
#include "ProtocolText.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QSet>

namespace sandbox {

namespace {

constexpr qsizetype maxIdLength = 128;
constexpr qsizetype maxSubjectLength = 64;
constexpr qsizetype maxTitleLength = 200;
constexpr qsizetype maxMessageLength = 64 * 1024;
constexpr qsizetype maxOptions = 256;

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::HostInteraction", text);
}

QString readId(JsonReader &reader)
{
    const QString id = reader.requireString(QStringLiteral("id"));
    if (!reader.ok())
        return {};
    if (id.size() > maxIdLength) {
        reader.fail(QStringLiteral("id"),
                    tr("is too long (%1 characters, at most %2)").arg(id.size()).arg(maxIdLength));
        return {};
    }
    for (QChar c : id) {
        if (c.unicode() < 0x21 || c.unicode() == 0x7f) {
            reader.fail(QStringLiteral("id"), tr("must not contain whitespace or control characters"));
            return {};
        }
    }
    return id;
}

QString readSubject(JsonReader &reader)
{
    const QString subject = reader.optionalString(QStringLiteral("subject"));
    if (!reader.ok() || !reader.has(QStringLiteral("subject")))
        return {};
    if (subject.isEmpty() || subject.size() > maxSubjectLength) {
        reader.fail(QStringLiteral("subject"), tr("must have 1 to %1 characters").arg(maxSubjectLength));
        return {};
    }
    for (QChar c : subject) {
        const bool allowed = (c >= QLatin1Char('a') && c <= QLatin1Char('z'))
            || (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || c == QLatin1Char('-') || c == QLatin1Char('.');
        if (!allowed) {
            reader.fail(QStringLiteral("subject"), tr("may hold only lower-case letters, digits, '-' and '.'"));
            return {};
        }
    }
    return subject;
}

} // namespace

QString HostInteractionRequest::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Confirm:
        return QStringLiteral("confirm");
    case Kind::Choice:
        return QStringLiteral("choice");
    case Kind::Text:
        return QStringLiteral("text");
    case Kind::Secret:
        return QStringLiteral("secret");
    }
    return QString();
}

std::optional<HostInteractionRequest::Kind> HostInteractionRequest::kindFromName(const QString &name)
{
    for (Kind kind : { Kind::Confirm, Kind::Choice, Kind::Text, Kind::Secret }) {
        if (kindName(kind) == name)
            return kind;
    }
    return std::nullopt;
}

QJsonObject HostInteractionRequest::toJson() const
{
    QJsonObject object{ { QStringLiteral("id"), id },
                        { QStringLiteral("kind"), kindName(kind) },
                        { QStringLiteral("title"), title },
                        { QStringLiteral("message"), message } };
    if (!subject.isEmpty())
        object.insert(QStringLiteral("subject"), subject);
    if (hasRef)
        object.insert(QStringLiteral("ref"), ref.toJson());
    if (!options.isEmpty()) {
        QJsonArray array;
        for (const SelectOption &option : options) {
            QJsonObject o{ { QStringLiteral("value"), option.value } };
            if (!option.label.isEmpty())
                o.insert(QStringLiteral("label"), option.label);
            array.append(o);
        }
        object.insert(QStringLiteral("options"), array);
    }
    if (!defaultValue.isEmpty())
        object.insert(QStringLiteral("defaultValue"), defaultValue);
    return object;
}

Result<HostInteractionRequest> HostInteractionRequest::fromJson(const QJsonValue &value, const QString &path)
{
    JsonReader reader(value, path);
    reader.rejectUnknownKeys({ QStringLiteral("id"), QStringLiteral("subject"), QStringLiteral("ref"),
                               QStringLiteral("kind"), QStringLiteral("title"), QStringLiteral("message"),
                               QStringLiteral("options"), QStringLiteral("defaultValue") },
                             tr("interactions are data only"));
    HostInteractionRequest request;
    request.id = readId(reader);
    request.subject = readSubject(reader);
    const QString kind = reader.requireString(QStringLiteral("kind"));
    if (reader.ok()) {
        if (const auto parsed = kindFromName(kind))
            request.kind = *parsed;
        else
            reader.fail(QStringLiteral("kind"),
                        tr("unknown kind \"%1\"; expected confirm, choice, text or secret").arg(kind.left(40)));
    }
    request.title
        = readBoundedPlainText(reader, QStringLiteral("title"), true, maxTitleLength, "sandbox::HostInteraction");
    request.message
        = readBoundedPlainText(reader, QStringLiteral("message"), false, maxMessageLength, "sandbox::HostInteraction");
    request.defaultValue = reader.optionalString(QStringLiteral("defaultValue"));
    const QJsonArray options = reader.optionalArray(QStringLiteral("options"));
    if (!reader.ok())
        return reader.error();

    if (reader.has(QStringLiteral("ref"))) {
        Result<BackendRef> ref
            = BackendRef::fromJson(reader.value(QStringLiteral("ref")), reader.childPath(QStringLiteral("ref")));
        if (!ref)
            return ref.error();
        request.ref = ref.value();
        request.hasRef = true;
    }

    const QString optionsPath = reader.childPath(QStringLiteral("options"));
    if (request.kind != Kind::Choice && !options.isEmpty())
        return Error{ optionsPath, tr("only a choice has options"), {} };
    if (request.kind == Kind::Choice && options.isEmpty())
        return Error{ optionsPath, tr("a choice needs at least one option"), {} };
    if (options.size() > maxOptions)
        return Error{ optionsPath, tr("too many options (%1, at most %2)").arg(options.size()).arg(maxOptions), {} };
    QSet<QString> seen;
    for (qsizetype i = 0; i < options.size(); ++i) {
        JsonReader option(options.at(i), optionsPath + QStringLiteral("[%1]").arg(i));
        option.rejectUnknownKeys({ QStringLiteral("value"), QStringLiteral("label") });
        SelectOption parsed;
        parsed.value = option.requireString(QStringLiteral("value"));
        parsed.label
            = readBoundedPlainText(option, QStringLiteral("label"), false, maxTitleLength, "sandbox::HostInteraction");
        if (!option.ok())
            return option.error();
        if (seen.contains(parsed.value))
            return Error{ option.childPath(QStringLiteral("value")), tr("option value is listed twice"), {} };
        seen.insert(parsed.value);
        request.options.append(parsed);
    }

    const QString defaultPath = reader.childPath(QStringLiteral("defaultValue"));
    // A secret prompt never pre-fills anything: a default would have to come from somewhere.
    if (request.kind == Kind::Secret && !request.defaultValue.isEmpty())
        return Error{ defaultPath, tr("a secret question cannot have a default"), {} };
    if (request.kind == Kind::Choice && !request.defaultValue.isEmpty() && !seen.contains(request.defaultValue))
        return Error{ defaultPath, tr("the default is not one of the options"), {} };
    if (request.kind == Kind::Confirm && !request.defaultValue.isEmpty())
        return Error{ defaultPath, tr("a confirmation has no default value"), {} };
    return request;
}

QJsonObject HostInteractionResponse::toJson() const
{
    QJsonObject object{ { QStringLiteral("id"), id }, { QStringLiteral("accepted"), accepted } };
    if (!value.isEmpty())
        object.insert(QStringLiteral("value"), value);
    return object;
}

Result<HostInteractionResponse> HostInteractionResponse::fromJson(const QJsonValue &value, const QString &path)
{
    JsonReader reader(value, path);
    reader.rejectUnknownKeys({ QStringLiteral("id"), QStringLiteral("accepted"), QStringLiteral("value") });
    HostInteractionResponse response;
    response.id = readId(reader);
    response.accepted = reader.requireBool(QStringLiteral("accepted"));
    response.value = reader.optionalString(QStringLiteral("value"));
    if (!reader.ok())
        return reader.error();
    return response;
}

} // namespace sandbox
