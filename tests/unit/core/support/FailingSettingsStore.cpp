#include "FailingSettingsStore.h"

namespace sandbox::test {

FailingSettingsStore::FailingSettingsStore(const QString &configDirectory)
    : m_store(configDirectory)
{ }

Result<SettingsDocument> FailingSettingsStore::load()
{
    return m_store.load();
}

Status FailingSettingsStore::update(const std::function<Status(SettingsDocument &)> &change)
{
    if (failWrites.loadAcquire())
        return Error{ m_store.path(), QStringLiteral("injected write failure: no space left on device"), {} };
    return m_store.update(change);
}

QStringList FailingSettingsStore::warnings() const
{
    return m_store.warnings();
}

} // namespace sandbox::test
