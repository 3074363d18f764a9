#include "core/secrets/SecretUpdateBatch.h"

#include "core/secrets/SecretStore.h"

namespace sandbox {

SecretUpdateBatch::SecretUpdateBatch(SecretStore &store, BackendRef ref)
    : m_store(store)
    , m_ref(std::move(ref))
{ }

Status SecretUpdateBatch::apply(const QList<SecretUpdate> &updates, const QMap<QString, std::optional<QString>> &before)
{
    for (const SecretUpdate &update : updates) {
        std::optional<QString> old;
        if (before.contains(update.fieldId)) {
            old = before.value(update.fieldId);
        } else {
            Result<std::optional<QString>> stored = m_store.read(m_ref, update.fieldId);
            if (!stored.ok()) {
                undo();
                return stored.error();
            }
            old = stored.value();
        }
        const Status status = update.action == SecretUpdate::Action::Replace
            ? m_store.write(m_ref, update.fieldId, update.value)
            : m_store.remove(m_ref, update.fieldId);
        if (!status.ok()) {
            undo();
            return status;
        }
        m_applied.append({ update.fieldId, old });
    }
    return {};
}

void SecretUpdateBatch::undo()
{
    for (auto it = m_applied.crbegin(); it != m_applied.crend(); ++it) {
        if (it->second)
            m_store.write(m_ref, it->first, *it->second);
        else
            m_store.remove(m_ref, it->first);
    }
    m_applied.clear();
}

} // namespace sandbox
