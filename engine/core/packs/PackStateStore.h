#pragma once

#include "core/settings/JsonDocumentStore.h"
#include "protocol/Error.h"

#include <QCoreApplication>
#include <QMap>
#include <QStringList>

namespace sandbox {

// What the engine remembers about a pack between runs, also after it was removed, so
// that its settings can be matched to the same identity when it returns.
struct PackRecord
{
    QString publisher;
    QString name;
    QString version;
    bool enabled = true;
    bool installed = true;
    // "<kind>/<fieldId>" of every secret field its launchers declared: lets the engine
    // clear those secrets when another publisher's pack takes over the id.
    QStringList secretFields;

    friend bool operator==(const PackRecord &, const PackRecord &) = default;
};

// packs.json: { version: 1, packs: { "<packId>": { publisher, name, version, enabled,
//                                                  installed, secretFields } } }
class PackStateStore final
{
    Q_DECLARE_TR_FUNCTIONS(PackStateStore)

public:
    explicit PackStateStore(const QString &configDirectory);

    Result<QMap<QString, PackRecord>> load();
    Status save(const QMap<QString, PackRecord> &packs);
    QStringList warnings() const;

private:
    JsonDocumentStore m_document;
};

} // namespace sandbox
