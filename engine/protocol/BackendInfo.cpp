#include "BackendInfo.h"

#include "JsonReader.h"
#include "ProtocolText.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace sandbox {

namespace {

constexpr qsizetype maxReasonLength = 64 * 1024;
constexpr qsizetype maxPackBackends = 256;
constexpr qsizetype maxLabelLength = 200;

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::BackendInfo", text);
}

} // namespace

QJsonObject Availability::toJson() const
{
    QJsonObject object{ { QStringLiteral("available"), available } };
    if (!reason.isEmpty())
        object.insert(QStringLiteral("reason"), reason);
    return object;
}

Result<Availability> Availability::fromJson(const QJsonValue &value, const QString &path)
{
    JsonReader reader(value, path);
    reader.rejectUnknownKeys({ QStringLiteral("available"), QStringLiteral("reason") });
    Availability availability;
    availability.available = reader.requireBool(QStringLiteral("available"));
    availability.reason
        = readBoundedPlainText(reader, QStringLiteral("reason"), false, maxReasonLength, "sandbox::BackendInfo");
    if (!reader.ok())
        return reader.error();
    return availability;
}

QJsonObject BackendInfo::toJson() const
{
    QJsonObject object{ { QStringLiteral("ref"), ref.toJson() },
                        { QStringLiteral("descriptor"), descriptor.toJson() },
                        { QStringLiteral("availability"), availability.toJson() },
                        { QStringLiteral("active"), active },
                        { QStringLiteral("sourceLabel"), sourceLabel } };
    if (!unenforced.isEmpty())
        object.insert(QStringLiteral("unenforced"), QJsonArray::fromStringList(unenforced));
    if (!missingSettings.isEmpty())
        object.insert(QStringLiteral("missingSettings"), QJsonArray::fromStringList(missingSettings));
    return object;
}

Result<BackendInfo> BackendInfo::fromJson(const QJsonValue &value, const QString &path)
{
    JsonReader reader(value, path);
    reader.rejectUnknownKeys({ QStringLiteral("ref"), QStringLiteral("descriptor"), QStringLiteral("availability"),
                               QStringLiteral("active"), QStringLiteral("sourceLabel"), QStringLiteral("unenforced"),
                               QStringLiteral("missingSettings") });
    BackendInfo info;
    info.active = reader.requireBool(QStringLiteral("active"));
    info.unenforced = reader.optionalStringList(QStringLiteral("unenforced"));
    info.missingSettings = reader.optionalStringList(QStringLiteral("missingSettings"));
    info.sourceLabel
        = readBoundedPlainText(reader, QStringLiteral("sourceLabel"), true, maxLabelLength, "sandbox::BackendInfo");
    for (const QString &key : { QStringLiteral("ref"), QStringLiteral("descriptor"), QStringLiteral("availability") }) {
        if (reader.ok() && !reader.has(key))
            reader.fail(key, tr("missing required key"));
    }
    if (!reader.ok())
        return reader.error();

    Result<BackendRef> ref
        = BackendRef::fromJson(reader.value(QStringLiteral("ref")), reader.childPath(QStringLiteral("ref")));
    if (!ref)
        return ref.error();
    info.ref = ref.value();
    Result<BackendDescriptor> descriptor = BackendDescriptor::fromJson(reader.value(QStringLiteral("descriptor")),
                                                                       reader.childPath(QStringLiteral("descriptor")));
    if (!descriptor)
        return descriptor.error();
    info.descriptor = std::move(descriptor).value();
    Result<Availability> availability = Availability::fromJson(reader.value(QStringLiteral("availability")),
                                                               reader.childPath(QStringLiteral("availability")));
    if (!availability)
        return availability.error();
    info.availability = availability.value();
    for (qsizetype i = 0; i < info.unenforced.size(); ++i) {
        const QString &dimension = info.unenforced.at(i);
        const QString where = reader.childPath(QStringLiteral("unenforced")) + QStringLiteral("[%1]").arg(i);
        if (!BackendDescriptor::enforcementDimensions().contains(dimension))
            return Error{ where,
                          tr("unknown policy dimension %1; expected one of %2")
                              .arg(quotedForMessage(dimension),
                                   BackendDescriptor::enforcementDimensions().join(QStringLiteral(", "))),
                          {} };
        if (info.unenforced.indexOf(dimension) != i)
            return Error{ where, tr("%1 is listed twice").arg(quotedForMessage(dimension)), {} };
    }
    for (qsizetype i = 0; i < info.missingSettings.size(); ++i) {
        const QString &id = info.missingSettings.at(i);
        const QString where = reader.childPath(QStringLiteral("missingSettings")) + QStringLiteral("[%1]").arg(i);
        if (!info.descriptor.field(id))
            return Error{ where, tr("%1 is not a field of this backend").arg(quotedForMessage(id)), {} };
        if (info.missingSettings.indexOf(id) != i)
            return Error{ where, tr("%1 is listed twice").arg(quotedForMessage(id)), {} };
    }
    return info;
}

QJsonObject PackInfo::toJson() const
{
    QJsonArray refs;
    for (const BackendRef &ref : backends)
        refs.append(ref.toJson());
    QJsonObject object{ { QStringLiteral("id"), id },           { QStringLiteral("publisher"), publisher },
                        { QStringLiteral("name"), name },       { QStringLiteral("version"), version },
                        { QStringLiteral("enabled"), enabled }, { QStringLiteral("backends"), refs } };
    if (!description.isEmpty())
        object.insert(QStringLiteral("description"), description);
    if (!refused.isEmpty())
        object.insert(QStringLiteral("refused"), QJsonArray::fromStringList(refused));
    return object;
}

Result<PackInfo> PackInfo::fromJson(const QJsonValue &value, const QString &path)
{
    JsonReader reader(value, path);
    reader.rejectUnknownKeys({ QStringLiteral("id"), QStringLiteral("publisher"), QStringLiteral("name"),
                               QStringLiteral("version"), QStringLiteral("enabled"), QStringLiteral("backends"),
                               QStringLiteral("description"), QStringLiteral("refused") });
    PackInfo pack;
    pack.id = reader.requireString(QStringLiteral("id"));
    if (reader.ok() && !BackendRef::isValidIdentifier(pack.id))
        reader.fail(QStringLiteral("id"),
                    tr("\"%1\" is not a valid pack id; expected [a-z0-9][a-z0-9._-]{0,63}").arg(pack.id.left(80)));
    pack.publisher
        = readBoundedPlainText(reader, QStringLiteral("publisher"), true, maxLabelLength, "sandbox::BackendInfo");
    pack.name = readBoundedPlainText(reader, QStringLiteral("name"), true, maxLabelLength, "sandbox::BackendInfo");
    pack.version
        = readBoundedPlainText(reader, QStringLiteral("version"), true, maxLabelLength, "sandbox::BackendInfo");
    pack.enabled = reader.requireBool(QStringLiteral("enabled"));
    pack.description
        = readBoundedPlainText(reader, QStringLiteral("description"), false, maxReasonLength, "sandbox::BackendInfo");
    const QJsonArray backends = reader.optionalArray(QStringLiteral("backends"));
    const QJsonArray refused = reader.optionalArray(QStringLiteral("refused"));
    if (!reader.ok())
        return reader.error();
    if (refused.size() > maxPackBackends)
        return Error{ reader.childPath(QStringLiteral("refused")),
                      tr("too many entries (%1, at most %2)").arg(refused.size()).arg(maxPackBackends),
                      {} };
    for (qsizetype i = 0; i < refused.size(); ++i) {
        const QString where = reader.childPath(QStringLiteral("refused[%1]").arg(i));
        const QString text = refused.at(i).toString();
        if (!refused.at(i).isString() || text.size() > maxReasonLength)
            return Error{ where, tr("expected a sentence of at most %1 characters").arg(maxReasonLength), {} };
        if (const QString problem = JsonReader::plainTextProblem(text); !problem.isEmpty())
            return Error{ where, problem, {} };
        pack.refused.append(text);
    }
    if (backends.size() > maxPackBackends)
        return Error{ reader.childPath(QStringLiteral("backends")),
                      tr("too many backends (%1, at most %2)").arg(backends.size()).arg(maxPackBackends),
                      {} };
    for (qsizetype i = 0; i < backends.size(); ++i) {
        const QString where = reader.childPath(QStringLiteral("backends[%1]").arg(i));
        Result<BackendRef> ref = BackendRef::fromJson(backends.at(i), where);
        if (!ref)
            return ref.error();
        // A pack contributes only under its own identity; anything else would shadow another source.
        if (ref.value().source() != BackendRef::Source::AtomPack || ref.value().packId() != pack.id)
            return Error{ where, tr("%1 does not belong to pack \"%2\"").arg(ref.value().toString(), pack.id), {} };
        if (pack.backends.contains(ref.value()))
            return Error{ where, tr("%1 is listed twice").arg(ref.value().toString()), {} };
        pack.backends.append(ref.value());
    }
    return pack;
}

} // namespace sandbox
