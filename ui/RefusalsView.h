#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace sandbox {

class Client;
struct Refusal;

// Refusals: what the sandbox refused, as it happens — which command, what was refused and
// the rule that refused it, newest first, with a count. This is how a user learns what the
// policy should allow. Rows carry the refusal's id in Qt::UserRole.
class RefusalsView final : public QWidget
{
    Q_OBJECT

public:
    static constexpr int maxRows = 1000;

    explicit RefusalsView(Client *client, QWidget *parent = nullptr);

    QTreeWidget *table() const { return m_table; }
    // Refusals shown since the view started (or was cleared).
    int count() const { return m_count; }

signals:
    void countChanged(int count);

private:
    void add(const Refusal &refusal);
    void clear();
    void updateSummary();

    Client *m_client = nullptr;
    QLabel *m_summary = nullptr;
    QTreeWidget *m_table = nullptr;
    QPushButton *m_clear = nullptr;
    int m_count = 0;
    quint64 m_lastId = 0;
};

} // namespace sandbox
