#pragma once

#include "protocol/SpawnRequest.h"

#include <QHash>
#include <QList>
#include <QObject>

namespace sandbox {

class Client;

// The commands running in the engine right now, whoever started them (this window, the
// tray, sandboxctl, another client), kept current from the engine's process notifications.
class RunningProcesses final : public QObject
{
    Q_OBJECT

public:
    explicit RunningProcesses(Client *client, QObject *parent = nullptr);

    const QList<ProcessInfo> &processes() const { return m_processes; }
    // Running commands per owning backend (canonical ref text), in first-seen order.
    QList<std::pair<QString, int>> countsByBackend() const;
    // "2 commands running: Plain 1, Leaky 1" (names by canonical ref), or "No commands running".
    static QString summary(const QList<std::pair<QString, int>> &counts, const QHash<QString, QString> &names);
    void refresh();

signals:
    void changed();

private:
    Client *m_client = nullptr;
    QList<ProcessInfo> m_processes;
    quint64 m_request = 0;
};

} // namespace sandbox
