#pragma once

#include "protocol/BackendRef.h"
#include "protocol/Error.h"
#include "protocol/SettingsValues.h"

#include <QList>
#include <QMap>
#include <QString>

#include <optional>
#include <utility>

namespace sandbox {

class SecretStore;

// Secret updates of one backend written to the store as one unit: apply() writes them in
// order and, when one fails, restores what the earlier ones replaced; undo() restores
// everything apply() changed (a later step of the same change failed). The one place
// that writes user-given secret updates, for activation and for settings updates alike.
class SecretUpdateBatch final
{
public:
    SecretUpdateBatch(SecretStore &store, BackendRef ref);

    // `before` holds values already read from the store (field id -> value before); a field
    // not in it is read here, so an undo always knows what to restore.
    Status apply(const QList<SecretUpdate> &updates, const QMap<QString, std::optional<QString>> &before = {});
    void undo();

private:
    SecretStore &m_store;
    BackendRef m_ref;
    QList<std::pair<QString, std::optional<QString>>> m_applied; // field id, value before
};

} // namespace sandbox
