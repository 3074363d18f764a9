#pragma once

#include "protocol/Refusal.h"

#include <QList>
#include <QMutex>

namespace sandbox {

// The engine's recent refusals: each one numbered and stamped as it is recorded, the last
// `capacity` kept (older ones are dropped first). Thread-safe.
class RefusalLog final
{
public:
    static constexpr qsizetype defaultCapacity = 200;

    explicit RefusalLog(qsizetype capacity = defaultCapacity);

    // Numbers and stamps `refusal` (now, unless it already carries a time), bounds its texts
    // and keeps it; returns it as recorded.
    Refusal record(Refusal refusal);
    // Oldest first.
    QList<Refusal> recent() const;

private:
    mutable QMutex m_mutex;
    qsizetype m_capacity;
    quint64 m_nextId = 1;
    QList<Refusal> m_recent;
};

} // namespace sandbox
