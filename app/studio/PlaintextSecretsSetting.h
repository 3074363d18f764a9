#pragma once

#include <QObject>
#include <QString>

#include <functional>

class QAction;
class QLabel;
class QMainWindow;

namespace sandbox {

// Studio's "Store Secrets in Plain Text" setting: a checkable action in the Studio menu
// that records the user's plaintext-secret opt-in in the shared configuration (after a
// confirmation), and a warning in the status bar that stands while the opt-in is on.
class PlaintextSecretsSetting final : public QObject
{
    Q_OBJECT

public:
    PlaintextSecretsSetting(QString configDirectory, QMainWindow *window);

    QAction *action() const { return m_action; }
    QLabel *warning() const { return m_warning; }
    // Asks before turning the opt-in on; tests answer without a modal dialog.
    void setConfirmation(std::function<bool()> confirm) { m_confirm = std::move(confirm); }

private:
    void toggle(bool allow);
    void showState(bool allowed);

    QString m_configDirectory;
    QMainWindow *m_window;
    QAction *m_action;
    QLabel *m_warning;
    std::function<bool()> m_confirm;
};

} // namespace sandbox
