#pragma once

#include "core/settings/FileSettingsStore.h"

#include <QAtomicInt>

namespace sandbox::test {

// The real settings.json store, except that writes fail while failWrites is set (as they
// would on a full disk or a read-only home), so tests can break the persist step.
class FailingSettingsStore final : public SettingsStore
{
public:
    explicit FailingSettingsStore(const QString &configDirectory);

    QAtomicInt failWrites = 0;

    Result<SettingsDocument> load() override;
    Status update(const std::function<Status(SettingsDocument &)> &change) override;
    QStringList warnings() const override;

private:
    FileSettingsStore m_store;
};

} // namespace sandbox::test
