#pragma once

#include "protocol/ActivationEvent.h"
#include "protocol/BackendInfo.h"

#include <QWidget>

#include <optional>

class QGridLayout;
class QLabel;
class QPushButton;

namespace sandbox {

class ActivationProgress;
class BackendList;
class Client;
class SchemaForm;

// The backend side of the Sandbox page: the list of backends, the selected one's
// details and settings form, Save settings / Activate, and the activation's progress.
class BackendPanel final : public QWidget
{
    Q_OBJECT

public:
    explicit BackendPanel(Client *client, QWidget *parent = nullptr);

    void reload();
    BackendList *list() const { return m_list; }
    SchemaForm *form() const { return m_form; }
    ActivationProgress *progress() const { return m_progress; }

signals:
    void activationCompleted(const sandbox::ActivationResult &result, const QString &summary);

private:
    void showBackend(const BackendRef &ref);
    void showDetails(const BackendInfo &info);
    void loadSettings(const BackendInfo &info);
    void saveSettings();
    void activateSelected();
    void discardChanges();
    void updateButtons();
    void updateReason();
    QString nameOf(const BackendRef &ref) const;

    Client *m_client = nullptr;
    BackendList *m_list = nullptr;
    QLabel *m_name = nullptr;
    QLabel *m_description = nullptr;
    QLabel *m_source = nullptr;
    QLabel *m_availability = nullptr;
    QLabel *m_reason = nullptr; // why it cannot be activated and what to do, shown once
    QLabel *m_platforms = nullptr;
    QWidget *m_claimsBox = nullptr;
    QGridLayout *m_claims = nullptr;
    QList<QLabel *> m_claimLabels; // one per enforcement dimension, in their order
    QLabel *m_refusalsClaim = nullptr; // which refusals the backend reports as they happen
    SchemaForm *m_form = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_discard = nullptr;
    QPushButton *m_save = nullptr;
    QPushButton *m_activate = nullptr;
    ActivationProgress *m_progress = nullptr;
    std::optional<BackendRef> m_formRef;
    quint64 m_settingsRequest = 0;
    bool m_saving = false;
    bool m_activating = false;
    bool m_hadSelection = false; // a backend was shown before (the next one is the user's choice)
};

} // namespace sandbox
