#pragma once

#include <QHash>
#include <QWidget>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace sandbox {

class Client;
class RunningProcesses;

// Processes: every command running in the engine, whoever started it, with the backend
// that started it (a hot switch leaves running commands on their backend, and this is
// where that shows), its start time, what its backend noted about how its sandbox started
// (a restored VM, or why it booted), and Stop. Rows carry the process id in Qt::UserRole.
class ProcessesView final : public QWidget
{
    Q_OBJECT

public:
    explicit ProcessesView(Client *client, QWidget *parent = nullptr);

    QTreeWidget *table() const { return m_table; }
    RunningProcesses *processes() const { return m_processes; }

private:
    void rebuild();
    void loadNames();
    void stopSelected();
    void updateButtons();

    Client *m_client = nullptr;
    RunningProcesses *m_processes = nullptr;
    QLabel *m_summary = nullptr;
    QTreeWidget *m_table = nullptr;
    QPushButton *m_stop = nullptr;
    QLabel *m_status = nullptr;
    QHash<QString, QString> m_names; // canonical ref -> backend name
};

} // namespace sandbox
