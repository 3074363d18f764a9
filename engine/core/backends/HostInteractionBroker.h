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
    // `settled` hears the id of every shown question once it is answered, timed out or
    // refused, so presenters still showing it can put it away.
    HostInteractionBroker(std::function<bool(const HostInteractionRequest &)> present, QObject *timerContext,
                          int timeoutMs, std::function<void(const QString &id)> settled = {});
    ~HostInteractionBroker();

    // A request that fails validate() is refused at once and never shown.
    QFuture<HostInteractionResponse> ask(HostInteractionRequest request);
    // Returns false when no open question has this id (already answered or timed out).
    bool answer(const HostInteractionResponse &response);
    // Refuses every open question (the engine is shutting down).
    void refuseAll();

    // Whether presenters can show `request` as asked: it must survive the protocol codec
    // (toJson, then fromJson), which applies every rule presenters rely on (kinds, options
    // only on a choice, plain-text titles and messages, lengths). A request the wire would
    // reject would otherwise never reach a presenter and its question would wait forever.
    static Status validate(const HostInteractionRequest &request);

private:
    std::function<bool(const HostInteractionRequest &)> m_present;
    std::function<void(const QString &id)> m_settled;
    QObject *m_timerContext;
    int m_timeoutMs;
    QMutex m_mutex;
    QHash<QString, std::shared_ptr<QPromise<HostInteractionResponse>>> m_open;
};

} // namespace sandbox
