#include "core/packs/PackFolder.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPluginLoader>

namespace sandbox {

PackFolder::PackFolder(QString path)
    : m_path(std::move(path))
{ }

Result<PackManifest> PackFolder::readManifest() const
{
    const QString file = QDir(m_path).filePath(QLatin1String(manifestFileName));
    const QFileInfo info(file);
    if (!info.exists())
        return Error{ m_path, tr("%1 is not a pack: it has no pack.json").arg(m_path), {} };
    if (info.isSymLink() || !info.isFile())
        return Error{ file, tr("pack.json must be a regular file"), {} };
    if (info.size() > PackManifest::maxManifestSize)
        return Error{ file, tr("the manifest is larger than %1 bytes").arg(PackManifest::maxManifestSize), {} };
    QFile manifest(file);
    if (!manifest.open(QIODevice::ReadOnly))
        return Error{ file, tr("cannot read the manifest: %1").arg(manifest.errorString()), {} };
    return PackManifest::fromJson(manifest.read(PackManifest::maxManifestSize + 1), QStringLiteral("pack.json"));
}

Result<std::shared_ptr<AtomPack>> PackFolder::load(const PackManifest &manifest) const
{
    const QString file = QDir(m_path).filePath(manifest.plugin);
    const QFileInfo info(file);
    if (info.isSymLink() || !info.isFile())
        return Error{ QStringLiteral("pack.json.plugin"),
                      tr("the plugin %1 named by the manifest is not a file in the pack's folder").arg(manifest.plugin),
                      {} };
    QPluginLoader loader(file);
    // Read from the file, before any of the plugin's code runs.
    const QString iid = loader.metaData().value(QLatin1String("IID")).toString();
    const QLatin1String expected(SandboxAtomPack_iid);
    const QLatin1String family("dev.sandbox-studio.AtomPack/");
    if (iid.startsWith(family) && iid != expected)
        return Error{ manifest.id,
                      tr("the plugin %1 was built for another version of Sandbox Studio (launcher API %2, this engine "
                         "has %3); install the pack's build for this version")
                          .arg(manifest.plugin, iid.mid(family.size()), expected.mid(family.size())),
                      {} };
    QObject *root = loader.instance();
    auto *pack = qobject_cast<AtomPack *>(root);
    if (!pack) {
        const QString why = root
            ? tr("it does not implement the atom pack interface %1").arg(QLatin1String(SandboxAtomPack_iid))
            : loader.errorString();
        return Error{ manifest.id, tr("the plugin %1 cannot be loaded: %2").arg(manifest.plugin, why), {} };
    }
    if (pack->id() != manifest.id || pack->publisher().trimmed() != manifest.publisher
        || pack->version() != manifest.version) {
        return Error{ manifest.id,
                      tr("the plugin is %1 %2 from %3, but the manifest describes %4 %5 from %6")
                          .arg(pack->id(), pack->version(), pack->publisher(), manifest.id, manifest.version,
                               manifest.publisher),
                      {} };
    }
    // The loader keeps the plugin loaded; the pack object is its root instance, owned by
    // the loader, hence the no-op deleter.
    return std::shared_ptr<AtomPack>(pack, [](AtomPack *) {});
}

} // namespace sandbox
