#pragma once

#include "core/packs/AtomPack.h"
#include "core/packs/PackManifest.h"

#include <QCoreApplication>

#include <memory>

namespace sandbox {

// One atom pack on disk: a folder holding pack.json and the Qt plugin it names. load()
// reads and validates the manifest, loads the plugin and checks that the plugin is the
// pack the manifest describes (same id, publisher and version). The plugin stays loaded
// for the life of the process.
class PackFolder final
{
    Q_DECLARE_TR_FUNCTIONS(PackFolder)

public:
    static constexpr const char *manifestFileName = "pack.json";

    explicit PackFolder(QString path);

    QString path() const { return m_path; }
    Result<PackManifest> readManifest() const;
    Result<std::shared_ptr<AtomPack>> load(const PackManifest &manifest) const;

private:
    QString m_path;
};

} // namespace sandbox
