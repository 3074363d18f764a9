#pragma once

#include "protocol/Policy.h"

#include <QHash>
#include <QWidget>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace sandbox {

class Client;
struct Refusal;

// Refusals: what the sandbox refused, as it happens — which command, what was refused and
// the rule that refused it (in the user's language), newest first, with a count. This is
// how a user learns what the policy should allow: the selected refusal shows whole below
// the list, and a refused connection offers "Allow This Domain…", which adds the domain to
// the policy's allowed domains after asking ("allowDomainDialog"). Rows carry the
// refusal's id in Qt::UserRole; backends are named as in the Processes view.
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
    void loadNames();
    void showSelected();
    void allowSelectedDomain();
    void askToAllow(const QString &host, const Policy &policy);
    void allow(const QString &domain);

    Client *m_client = nullptr;
    QLabel *m_summary = nullptr;
    QTreeWidget *m_table = nullptr;
    QPushButton *m_clear = nullptr;
    QLabel *m_details = nullptr;
    QPushButton *m_allowDomain = nullptr;
    QLabel *m_status = nullptr;
    QHash<QString, QString> m_names; // canonical ref -> display name, as the Processes view has them
    int m_count = 0;
    quint64 m_lastId = 0;
};

} // namespace sandbox
