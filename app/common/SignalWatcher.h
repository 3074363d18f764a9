#pragma once

#include <QList>
#include <QObject>

class QSocketNotifier;

namespace sandbox {

// Turns Unix signals (SIGTERM, SIGINT, ...) into a Qt signal delivered by the event loop,
// through the self-pipe pattern: the async-signal handler only writes one byte.
class SignalWatcher final : public QObject
{
    Q_OBJECT

public:
    explicit SignalWatcher(const QList<int> &signalNumbers, QObject *parent = nullptr);
    ~SignalWatcher() override;

signals:
    void signalReceived(int signalNumber);

private:
    static void handle(int signalNumber);
    void onReadable();

    QList<int> m_signals;
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace sandbox
