#include "PlaintextSecretsSetting.h"

#include "common/PlaintextSecretsOptIn.h"

#include <QAction>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QSignalBlocker>
#include <QStatusBar>

namespace sandbox {

PlaintextSecretsSetting::PlaintextSecretsSetting(QString configDirectory, QMainWindow *window)
    : QObject(window)
    , m_configDirectory(std::move(configDirectory))
    , m_window(window)
    , m_action(new QAction(tr("Store Secrets in Plain Te&xt (Not Recommended)"), this))
    , m_warning(new QLabel(window))
{
    m_action->setObjectName(QStringLiteral("plaintextSecretsAction"));
    m_action->setCheckable(true);
    m_action->setToolTip(tr("When no system keychain can be used, store backend secrets in a plain file that "
                            "anyone who can read your files can read"));
    m_warning->setObjectName(QStringLiteral("plaintextSecretsWarning"));
    m_warning->setWordWrap(true);
    m_warning->setStyleSheet(QStringLiteral("color: #b00020; font-weight: bold;"));
    window->statusBar()->addPermanentWidget(m_warning);
    if (auto *menu = window->findChild<QMenu *>(QStringLiteral("studioMenu"))) {
        const QList<QAction *> actions = menu->actions();
        QAction *before = nullptr;
        for (QAction *action : actions) {
            if (action->isSeparator()) {
                before = action;
                break;
            }
        }
        menu->insertAction(before, m_action);
    }
    m_confirm = [this] {
        return QMessageBox::warning(m_window, tr("Store Secrets in Plain Text?"),
                                    tr("Secrets will be stored without the system keychain, in %1, where anyone "
                                       "who can read your files can read them. This applies to every program of "
                                       "this user from the engine's next start. Secrets already in the keychain "
                                       "are not copied.")
                                        .arg(PlaintextSecretsOptIn::path(m_configDirectory)),
                                    QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel)
            == QMessageBox::Yes;
    };
    QString problem;
    const Result<bool> allowed = PlaintextSecretsOptIn::read(m_configDirectory, &problem);
    showState(allowed.ok() && allowed.value());
    if (!problem.isEmpty())
        m_window->statusBar()->showMessage(problem);
    connect(m_action, &QAction::toggled, this, &PlaintextSecretsSetting::toggle);
}

void PlaintextSecretsSetting::toggle(bool allow)
{
    if (allow && !m_confirm()) {
        showState(false);
        return;
    }
    if (const Status written = PlaintextSecretsOptIn::write(m_configDirectory, allow); !written.ok()) {
        QMessageBox::critical(m_window, tr("Secret Storage"),
                              tr("The secret storage choice could not be saved: %1").arg(written.error().toString()));
        showState(!allow);
        return;
    }
    showState(allow);
    m_window->statusBar()->showMessage(tr("The secret storage choice applies from the engine's next start."));
}

void PlaintextSecretsSetting::showState(bool allowed)
{
    const QSignalBlocker blocker(m_action);
    m_action->setChecked(allowed);
    m_warning->setText(allowed ? tr("Warning: secrets may be stored in plain text") : QString());
    m_warning->setToolTip(allowed ? PlaintextSecretsOptIn::warning(m_configDirectory) : QString());
    m_warning->setVisible(allowed);
}

} // namespace sandbox
