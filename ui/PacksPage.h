#pragma once

#include "protocol/BackendInfo.h"

#include <QFuture>
#include <QHash>
#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;
class QTreeWidget;

namespace sandbox {

class Client;

// The installed packs: each with its state and the backends it contributes, by their
// names (and those the engine refused, with the reason); install from a .tar.gz or a
// folder after the user says they trust it ("packTrustDialog": a pack is native code the
// engine loads), enable, disable, remove. Every operation shows that it is running and
// ends with its outcome.
class PacksPage final : public QWidget
{
    Q_OBJECT

public:
    explicit PacksPage(Client *client, QWidget *parent = nullptr);

    // The install button's work once a path is chosen (tests call it directly): asks
    // whether the pack is trusted, then installs it.
    void installFrom(const QString &path);
    void refresh();

signals:
    void operationFinished(bool ok);

private:
    void install(const QString &path);
    void loadNames();
    void showPacks();
    QString nameOf(const QString &id) const;
    void chooseArchive();
    void chooseFolder();
    void enableSelected();
    void disableSelected();
    void removeSelected();
    void runOperation(const QString &running, QFuture<Status> future, const QString &done);
    void setBusy(const QString &message);
    void finish(bool ok, const QString &message);
    void updateButtons();
    QString selectedPack() const;

    Client *m_client = nullptr;
    QTreeWidget *m_list = nullptr;
    QPushButton *m_installArchive = nullptr;
    QPushButton *m_installFolder = nullptr;
    QPushButton *m_enable = nullptr;
    QPushButton *m_disable = nullptr;
    QPushButton *m_remove = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QList<PackInfo> m_packs;
    QHash<QString, QString> m_names; // backend canonical ref -> display name
    bool m_busy = false;
};

} // namespace sandbox
