// libFuzzer target for pack.json (engine/core/packs/PackManifest): the manifest a contributed pack
// carries, read before any of its code is loaded. Beyond "no crash": a refusal names where
// and what, an accepted manifest keeps every promise fromJson() makes (valid id, at least
// one kind, no duplicate and no built-in kind, this engine's API), and writing it back out
// as JSON reads back as the same manifest.
#include "FuzzSupport.h"
#include "core/packs/PackManifest.h"
#include "protocol/BackendRef.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

using namespace sandbox;

namespace {

QByteArray manifestJson(const PackManifest &manifest)
{
    QJsonObject object{ { QStringLiteral("id"), manifest.id },
                        { QStringLiteral("publisher"), manifest.publisher },
                        { QStringLiteral("version"), manifest.version },
                        { QStringLiteral("name"), manifest.name },
                        { QStringLiteral("engineApi"), manifest.engineApi },
                        { QStringLiteral("kinds"), QJsonArray::fromStringList(manifest.kinds) },
                        { QStringLiteral("plugin"), manifest.plugin } };
    if (!manifest.description.isEmpty())
        object.insert(QStringLiteral("description"), manifest.description);
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

bool sameManifest(const PackManifest &a, const PackManifest &b)
{
    return a.id == b.id && a.publisher == b.publisher && a.version == b.version && a.name == b.name
        && a.description == b.description && a.engineApi == b.engineApi && a.kinds == b.kinds && a.plugin == b.plugin;
}

bool validUtf16(const PackManifest &m)
{
    for (const QString &text : { m.id, m.publisher, m.version, m.name, m.description, m.plugin })
        if (!text.isValidUtf16())
            return false;
    return true;
}

void checkInvariants(const PackManifest &manifest)
{
    if (!BackendRef::isValidIdentifier(manifest.id))
        fuzz::contractBroken("accepted an invalid pack id", manifest.id);
    if (manifest.engineApi != PackManifest::engineApiVersion)
        fuzz::contractBroken("accepted another engine API", QString::number(manifest.engineApi));
    if (manifest.publisher.trimmed().isEmpty() || manifest.name.trimmed().isEmpty())
        fuzz::contractBroken("accepted an empty publisher or name", QString());
    if (manifest.publisher.contains(QLatin1Char('/')))
        fuzz::contractBroken("accepted a publisher with \"/\"", manifest.publisher);
    if (manifest.plugin.isEmpty() || manifest.plugin.contains(QLatin1Char('/'))
        || manifest.plugin.contains(QLatin1Char('\\')) || manifest.plugin.startsWith(QLatin1Char('.')))
        fuzz::contractBroken("accepted a plugin outside the pack's folder", manifest.plugin);
    if (manifest.kinds.isEmpty())
        fuzz::contractBroken("accepted a pack without kinds", QString());
    QSet<QString> seen;
    for (const QString &kind : manifest.kinds) {
        if (!BackendRef::isValidIdentifier(kind))
            fuzz::contractBroken("accepted an invalid kind", kind);
        if (kind == QLatin1String("auto") || kind == QLatin1String("vm")
            || !PackManifest::builtinKindProblem(kind).isEmpty())
            fuzz::contractBroken("accepted a built-in kind", kind);
        if (seen.contains(kind))
            fuzz::contractBroken("accepted a kind twice", kind);
        seen.insert(kind);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray text(reinterpret_cast<const char *>(data), qsizetype(size));
    const Result<PackManifest> manifest = PackManifest::fromJson(text, QStringLiteral("pack.json"));
    if (!manifest.ok()) {
        fuzz::checkError(manifest.error());
        if (!manifest.error().where.startsWith(QStringLiteral("pack.json")))
            fuzz::contractBroken("an error names another file", manifest.error().toString());
        return 0;
    }
    checkInvariants(manifest.value());

    // Qt's JSON writer cannot write an unpaired surrogate back as itself; only compare
    // the round trip for text that is valid UTF-16.
    if (!validUtf16(manifest.value()))
        return 0;
    const Result<PackManifest> again = PackManifest::fromJson(manifestJson(manifest.value()), QStringLiteral("again"));
    if (!again.ok())
        fuzz::contractBroken("re-reading an accepted manifest failed", again.error().toString());
    if (!sameManifest(manifest.value(), again.value()))
        fuzz::contractBroken("manifest round trip changed it", manifest.value().id);
    return 0;
}
