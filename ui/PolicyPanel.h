#pragma once

#include "protocol/Error.h"
#include "protocol/Policy.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;

namespace sandbox {

class Client;
class CredentialValues;
class StringListEditor;

// Every dimension of the sandbox policy, editable with native widgets, under a summary. Changes are
// validated by the engine and saved only on Apply; Revert returns to the saved policy.
class PolicyPanel final : public QWidget
{
    Q_OBJECT

public:
    explicit PolicyPanel(Client *client, QWidget *parent = nullptr);

    void reload();
    bool isDirty() const;
    Policy editedPolicy() const;
    Policy savedPolicy() const { return m_saved; }
    // Apply, Revert, the outcome and errors: placed by the page outside the scroll area so
    // they stay in view (the page's layout owns it).
    QWidget *footer() const { return m_footer; }

signals:
    void saved(const sandbox::Policy &policy);

private:
    void load(const Policy &policy);
    void apply();
    void revert();
    void updateState();
    void updateSummary();
    void updateConflicts();
    void showError(const Error &error);
    void clearErrors();
    QComboBox *createCombo(const QString &name, const QString &accessibleName,
                           const QList<std::pair<QString, int>> &items);

    Client *m_client = nullptr;
    Policy m_saved;
    bool m_loaded = false;
    bool m_busy = false;
    StringListEditor *m_readable = nullptr;
    StringListEditor *m_writable = nullptr;
    StringListEditor *m_denied = nullptr;
    StringListEditor *m_readOnly = nullptr;
    StringListEditor *m_allowedDomains = nullptr;
    StringListEditor *m_deniedDomains = nullptr;
    QComboBox *m_processes = nullptr;
    QComboBox *m_network = nullptr;
    QComboBox *m_hostExecution = nullptr;
    CredentialValues *m_credentials = nullptr; // values saved on their own, not on Apply
    QLabel *m_domainsHint = nullptr;
    QLabel *m_summary = nullptr; // network and host execution first, then the rest in numbers
    QLabel *m_conflicts = nullptr; // writable paths inside denied ones
    QLabel *m_error = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_apply = nullptr;
    QPushButton *m_revert = nullptr;
    QWidget *m_footer = nullptr;
};

} // namespace sandbox
