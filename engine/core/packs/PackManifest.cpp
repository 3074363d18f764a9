#include "core/packs/PackManifest.h"

#include "protocol/BackendRef.h"
#include "protocol/JsonReader.h"

#include <QLibrary>
#include <QRegularExpression>

namespace sandbox {

namespace {

constexpr qsizetype maxLabelLength = 200;
constexpr qsizetype maxDescriptionLength = 4000;
constexpr qsizetype maxKinds = 64;

QString boundedText(JsonReader &reader, const QString &key, bool required, qsizetype maxLength)
{
    const QString text = required ? reader.requirePlainText(key) : reader.optionalPlainText(key);
    if (reader.ok() && required && text.trimmed().isEmpty())
        reader.fail(key, PackManifest::tr("must not be empty"));
    if (reader.ok() && text.size() > maxLength)
        reader.fail(key, PackManifest::tr("is too long (%1 characters, at most %2)").arg(text.size()).arg(maxLength));
    return text;
}

} // namespace

QString PackManifest::builtinKindProblem(const QString &kind)
{
    if (kind == QLatin1String("auto") || kind == QLatin1String("vm"))
        return tr("%1 is a built-in backend and is never provided by a pack").arg(kind);
    return {};
}

Result<PackManifest> PackManifest::fromJson(const QByteArray &text, const QString &where)
{
    if (text.size() > maxManifestSize)
        return Error{ where, tr("the manifest is larger than %1 bytes").arg(maxManifestSize), {} };
    Result<QJsonObject> object = parseJsonObject(text, where);
    if (!object.ok())
        return object.error();

    JsonReader reader(object.value(), where);
    reader.rejectUnknownKeys({ QStringLiteral("id"), QStringLiteral("publisher"), QStringLiteral("version"),
                               QStringLiteral("name"), QStringLiteral("description"), QStringLiteral("engineApi"),
                               QStringLiteral("kinds"), QStringLiteral("plugin") },
                             tr("a manifest is data only"));
    PackManifest manifest;
    manifest.id = reader.requireString(QStringLiteral("id"));
    if (reader.ok() && !BackendRef::isValidIdentifier(manifest.id))
        reader.fail(QStringLiteral("id"),
                    tr("\"%1\" is not a valid pack id; expected [a-z0-9][a-z0-9._-]{0,63}").arg(manifest.id.left(80)));
    manifest.publisher = boundedText(reader, QStringLiteral("publisher"), true, maxLabelLength);
    if (reader.ok() && manifest.publisher.contains(QLatin1Char('/')))
        reader.fail(QStringLiteral("publisher"), tr("must not contain \"/\""));
    manifest.version = reader.requireString(QStringLiteral("version"));
    static const QRegularExpression versionPattern(
        QStringLiteral("^[0-9]{1,9}(\\.[0-9]{1,9}){0,3}(-[A-Za-z0-9][A-Za-z0-9.]{0,31})?$"));
    if (reader.ok() && !versionPattern.match(manifest.version).hasMatch())
        reader.fail(QStringLiteral("version"),
                    tr("\"%1\" is not a version; expected numbers separated by dots, such as 1.2.0")
                        .arg(manifest.version.left(80)));
    manifest.name = boundedText(reader, QStringLiteral("name"), true, maxLabelLength);
    manifest.description = boundedText(reader, QStringLiteral("description"), false, maxDescriptionLength);
    manifest.engineApi = int(reader.requireInteger(QStringLiteral("engineApi"), 1, 1000000));
    if (reader.ok() && manifest.engineApi != engineApiVersion)
        reader.fail(QStringLiteral("engineApi"),
                    tr("the pack needs engine API %1; this engine provides API %2")
                        .arg(manifest.engineApi)
                        .arg(engineApiVersion));
    const QJsonArray kinds = reader.requireArray(QStringLiteral("kinds"));
    manifest.plugin = reader.requireString(QStringLiteral("plugin"));
    if (reader.ok()
        && (manifest.plugin.contains(QLatin1Char('/')) || manifest.plugin.contains(QLatin1Char('\\'))
            || manifest.plugin.startsWith(QLatin1Char('.')) || !QLibrary::isLibrary(manifest.plugin)))
        reader.fail(
            QStringLiteral("plugin"),
            tr("\"%1\" is not the file name of a plugin library in the pack's folder").arg(manifest.plugin.left(80)));
    if (!reader.ok())
        return reader.error();

    const QString kindsPath = reader.childPath(QStringLiteral("kinds"));
    if (kinds.isEmpty())
        return Error{ kindsPath, tr("the pack must contribute at least one backend kind"), {} };
    if (kinds.size() > maxKinds)
        return Error{ kindsPath, tr("too many kinds (%1, at most %2)").arg(kinds.size()).arg(maxKinds), {} };
    for (qsizetype i = 0; i < kinds.size(); ++i) {
        const QString path = kindsPath + QStringLiteral("[%1]").arg(i);
        if (!kinds.at(i).isString())
            return Error{ path, tr("expected a string, got %1").arg(JsonReader::typeName(kinds.at(i))), {} };
        const QString kind = kinds.at(i).toString();
        if (!BackendRef::isValidIdentifier(kind))
            return Error{ path, tr("\"%1\" is not a valid backend kind").arg(kind.left(80)), {} };
        if (const QString problem = builtinKindProblem(kind); !problem.isEmpty())
            return Error{ path, problem, {} };
        if (manifest.kinds.contains(kind))
            return Error{ path, tr("%1 is listed twice").arg(kind), {} };
        manifest.kinds.append(kind);
    }
    return manifest;
}

} // namespace sandbox
