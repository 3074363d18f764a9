#pragma once

#include "protocol/HostInteraction.h"

#include <QFuture>
#include <QHash>
#include <QMutex>
#include <QPromise>

#include <functional>
#include <memory>

class QObject;

namespace sandbox {

// Matches Host Interaction questions to answers. A question goes to the attached
// presenters; it resolves with their answer, or with accepted=false when no presenter is
// attached or nobody answers in time.
class HostInteractionBroker final
{
public:
    // `present` shows a request to presenters and says whether any is attached.
    // `timerContext` lives in a thread with a running event loop (for timeouts).
    HostInteractionBroker(std::function<bool(const HostInteractionRequest &)> present, QObject *timerContext,
                          int timeoutMs);
    ~HostInteractionBroker();

    QFuture<HostInteractionResponse> ask(HostInteractionRequest request);
    // Returns false when no open question has this id (already answered or timed out).
    bool answer(const HostInteractionResponse &response);
    // Refuses every open question (the engine is shutting down).
    void refuseAll();

private:
    std::function<bool(const HostInteractionRequest &)> m_present;
    QObject *m_timerContext;
    int m_timeoutMs;
    QMutex m_mutex;
    QHash<QString, std::shared_ptr<QPromise<HostInteractionResponse>>> m_open;
};

} // namespace sandbox
