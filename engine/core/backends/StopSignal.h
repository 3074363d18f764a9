#pragma once

#include <QAtomicInt>
#include <QObject>

namespace sandbox {

// The engine shutting down, as something every bounded wait on a worker thread listens
// to: a wait in progress ends at once, and work that has not started does not start.
class StopSignal final : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    void stop();
    bool isStopped() const { return m_stopped.loadAcquire() != 0; }

signals:
    void stopped();

private:
    QAtomicInt m_stopped;
};

} // namespace sandbox
