#pragma once

#include "JsonDocumentStore.h"
#include "protocol/Policy.h"

#include <QStringList>

namespace sandbox {

// policy.json in the configuration directory. Absent: Policy::defaults(). Only
// setPolicy() writes it; activating a backend never does.
class PolicyStore final
{
public:
    explicit PolicyStore(const QString &configDirectory);

    Result<Policy> load();
    Status save(const Policy &policy);
    QStringList warnings() const;

private:
    JsonDocumentStore m_document;
};

} // namespace sandbox
