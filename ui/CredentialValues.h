#pragma once

#include "protocol/CredentialInfo.h"
#include "protocol/Error.h"

#include <QGroupBox>
#include <QMap>

class QLabel;
class QPushButton;
class QVBoxLayout;

namespace sandbox {

class Client;
class SecretField;

// The values of the policy's credentials (and of any other credential with a stored value):
// whether each is configured, set through a secret field, removed. Each row saves on its own,
// at once, into the engine's secret storage; values are not part of the policy's Apply. A
// value is never shown back: the engine answers only {configured}. Follows changes any client
// makes (credentials.changed, policy.changed).
class CredentialValues final : public QGroupBox
{
    Q_OBJECT

public:
    explicit CredentialValues(Client *client, QWidget *parent = nullptr);

    void reload();

private:
    struct Row
    {
        QWidget *box = nullptr;
        QLabel *where = nullptr;
        SecretField *field = nullptr;
        QPushButton *save = nullptr;
        QLabel *outcome = nullptr;
        bool busy = false;
    };

    void showCredentials(const QList<CredentialInfo> &credentials);
    Row &rowFor(const QString &name);
    void describe(Row &row, const CredentialInfo &info);
    void save(const QString &name);
    void updateSave(Row &row);
    void setOutcome(Row &row, const QString &text, bool error);

    Client *m_client = nullptr;
    QVBoxLayout *m_rows = nullptr;
    QLabel *m_state = nullptr; // none in the policy, or why the list could not be read
    QMap<QString, Row> m_byName;
    int m_reloads = 0; // answers to older reloads are dropped
};

} // namespace sandbox
