#include "RunningProcesses.h"

#include "client/Client.h"
#include "client/WhenReady.h"

#include <algorithm>

namespace sandbox {

RunningProcesses::RunningProcesses(Client *client, QObject *parent)
    : QObject(parent)
    , m_client(client)
{
    // The notification says which process changed; the engine's list is the whole truth.
    connect(m_client, &Client::processChanged, this, &RunningProcesses::refresh);
    refresh();
}

void RunningProcesses::refresh()
{
    const quint64 request = ++m_request;
    whenReady(this, m_client->processes(), [this, request](const Result<QList<ProcessInfo>> &result) {
        if (request != m_request || !result)
            return; // a newer answer is on its way
        QList<ProcessInfo> running;
        for (const ProcessInfo &info : result.value()) {
            if (info.running)
                running.append(info);
        }
        if (running == m_processes)
            return;
        m_processes = running;
        emit changed();
    });
}

QList<std::pair<QString, int>> RunningProcesses::countsByBackend() const
{
    QList<std::pair<QString, int>> counts;
    for (const ProcessInfo &info : m_processes) {
        const QString ref = info.owner.toString();
        auto it = std::find_if(counts.begin(), counts.end(), [&](const auto &entry) { return entry.first == ref; });
        if (it == counts.end())
            counts.append({ ref, 1 });
        else
            ++it->second;
    }
    return counts;
}

QString RunningProcesses::summary(const QList<std::pair<QString, int>> &counts, const QHash<QString, QString> &names)
{
    int total = 0;
    QStringList parts;
    for (const auto &[ref, count] : counts) {
        total += count;
        const QString name = names.value(ref, ref.section(QLatin1Char(':'), -1));
        parts << tr("%1 %2").arg(name).arg(count);
    }
    if (total == 0)
        return tr("No commands running");
    const QString list = parts.join(QStringLiteral(", "));
    return total == 1 ? tr("1 command running: %1").arg(list) : tr("%1 commands running: %2").arg(total).arg(list);
}

} // namespace sandbox
