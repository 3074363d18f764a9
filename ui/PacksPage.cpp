#include "PacksPage.h"

#include "client/Client.h"
#include "client/WhenReady.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace sandbox {

PacksPage::PacksPage(Client *client, QWidget *parent)
    : QWidget(parent)
    , m_client(client)
{
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Packs add sandbox backends to Sandbox Studio. Installed packs are kept for you "
                                "alone; a disabled or removed pack keeps its backends' settings for when it returns."));
    intro->setObjectName(QStringLiteral("packsIntro"));
    intro->setWordWrap(true);
    layout->addWidget(intro);

    m_list = new QTreeWidget;
    m_list->setObjectName(QStringLiteral("packList"));
    m_list->setHeaderLabels({ tr("Pack"), tr("Version"), tr("Publisher"), tr("State"), tr("Backends") });
    m_list->setRootIsDecorated(false);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->header()->setStretchLastSection(true);
    layout->addWidget(m_list, 1);

    auto *buttons = new QHBoxLayout;
    m_installArchive = new QPushButton(tr("Install from File…"));
    m_installArchive->setObjectName(QStringLiteral("packInstallArchive"));
    m_installFolder = new QPushButton(tr("Install from Folder…"));
    m_installFolder->setObjectName(QStringLiteral("packInstallFolder"));
    m_enable = new QPushButton(tr("Enable Pack", "turn an installed, disabled pack back on (not: activate a backend)"));
    m_enable->setObjectName(QStringLiteral("packEnable"));
    m_disable = new QPushButton(tr("Disable Pack", "turn an installed pack off without removing it"));
    m_disable->setObjectName(QStringLiteral("packDisable"));
    m_remove = new QPushButton(tr("Remove Pack"));
    m_remove->setObjectName(QStringLiteral("packRemove"));
    for (QPushButton *button : { m_installArchive, m_installFolder, m_enable, m_disable, m_remove })
        buttons->addWidget(button);
    buttons->addStretch(1);
    layout->addLayout(buttons);

    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("packProgress"));
    m_progress->setRange(0, 0);
    m_progress->setTextVisible(false);
    m_progress->hide();
    layout->addWidget(m_progress);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("packStatus"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    layout->addWidget(m_status);

    connect(m_installArchive, &QPushButton::clicked, this, &PacksPage::chooseArchive);
    connect(m_installFolder, &QPushButton::clicked, this, &PacksPage::chooseFolder);
    connect(m_enable, &QPushButton::clicked, this, &PacksPage::enableSelected);
    connect(m_disable, &QPushButton::clicked, this, &PacksPage::disableSelected);
    connect(m_remove, &QPushButton::clicked, this, &PacksPage::removeSelected);
    connect(m_list, &QTreeWidget::itemSelectionChanged, this, &PacksPage::updateButtons);
    connect(m_client, &Client::backendsChanged, this, &PacksPage::refresh);
    refresh();
}

void PacksPage::loadNames()
{
    whenReady(this, m_client->backends(), [this](const Result<QList<BackendInfo>> &backends) {
        if (!backends.ok())
            return;
        m_names.clear();
        for (const BackendInfo &info : backends.value())
            m_names.insert(info.ref.toString(), info.descriptor.name);
        showPacks();
    });
}

void PacksPage::refresh()
{
    whenReady(this, m_client->packs(), [this](const Result<QList<PackInfo>> &packs) {
        if (!packs.ok()) {
            m_status->setText(tr("The packs cannot be listed: %1").arg(packs.error().toString()));
            return;
        }
        m_packs = packs.value();
        showPacks();
        loadNames();
    });
}

void PacksPage::showPacks()
{
    const QString selected = selectedPack();
    m_list->clear();
    for (const PackInfo &pack : std::as_const(m_packs)) {
        // Backends by the names the backend list gives them (a disabled pack's are not
        // listed: their kind then, never a raw ref).
        QStringList names;
        for (const BackendRef &ref : pack.backends)
            names.append(m_names.value(ref.toString(), ref.kind()));
        auto *item
            = new QTreeWidgetItem({ pack.name, pack.version, pack.publisher,
                                    pack.enabled ? tr("Enabled", "state of a pack") : tr("Disabled", "state of a pack"),
                                    names.join(QStringLiteral(", ")) });
        item->setData(0, Qt::UserRole, pack.id);
        QString tip = pack.description;
        if (!pack.refused.isEmpty())
            tip += QStringLiteral("\n\n") + tr("Refused: %1").arg(pack.refused.join(QLatin1Char(' ')));
        for (int column = 0; column < 5; ++column)
            item->setToolTip(column, tip.trimmed());
        m_list->addTopLevelItem(item);
        if (pack.id == selected)
            item->setSelected(true);
    }
    updateButtons();
}

QString PacksPage::nameOf(const QString &id) const
{
    for (const PackInfo &pack : std::as_const(m_packs)) {
        if (pack.id == id && !pack.name.isEmpty())
            return pack.name;
    }
    return id;
}

QString PacksPage::selectedPack() const
{
    const QList<QTreeWidgetItem *> items = m_list->selectedItems();
    return items.isEmpty() ? QString() : items.first()->data(0, Qt::UserRole).toString();
}

void PacksPage::updateButtons()
{
    const QString id = selectedPack();
    bool enabled = false;
    for (const PackInfo &pack : std::as_const(m_packs)) {
        if (pack.id == id)
            enabled = pack.enabled;
    }
    m_installArchive->setEnabled(!m_busy);
    m_installFolder->setEnabled(!m_busy);
    m_enable->setEnabled(!m_busy && !id.isEmpty() && !enabled);
    m_disable->setEnabled(!m_busy && !id.isEmpty() && enabled);
    m_remove->setEnabled(!m_busy && !id.isEmpty());
}

void PacksPage::setBusy(const QString &message)
{
    m_busy = true;
    m_progress->show();
    m_status->setText(message);
    updateButtons();
}

void PacksPage::finish(bool ok, const QString &message)
{
    m_busy = false;
    m_progress->hide();
    m_status->setText(message);
    updateButtons();
    refresh();
    emit operationFinished(ok);
}

void PacksPage::chooseArchive()
{
    const QString path
        = QFileDialog::getOpenFileName(this, tr("Install a Pack"), QString(), tr("Pack archives (*.tar.gz *.tgz)"));
    if (!path.isEmpty())
        installFrom(path);
}

void PacksPage::chooseFolder()
{
    const QString path = QFileDialog::getExistingDirectory(this, tr("Install a Pack from its Folder"));
    if (!path.isEmpty())
        installFrom(path);
}

void PacksPage::installFrom(const QString &path)
{
    if (!QFileInfo::exists(path)) {
        install(path); // the engine names what is missing
        return;
    }
    // A pack is native code the engine loads into itself, outside any sandbox: the user
    // says they trust it before anything of it is loaded.
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Install This Pack?"),
                                tr("Install the pack from %1?").arg(QDir::toNativeSeparators(path)),
                                QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("packTrustDialog"));
    box->setInformativeText(tr("A pack is a program: Sandbox Studio loads its code into the engine, where it runs "
                               "with your permissions and outside any sandbox. Install it only if you trust where it "
                               "came from."));
    QPushButton *install = box->addButton(tr("Install and Load"), QMessageBox::AcceptRole);
    install->setObjectName(QStringLiteral("packTrustInstall"));
    QPushButton *cancel = box->addButton(QMessageBox::Cancel);
    cancel->setObjectName(QStringLiteral("packTrustCancel"));
    box->setDefaultButton(cancel);
    box->setEscapeButton(cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, install, path] {
        if (box->clickedButton() == install)
            this->install(path);
        else
            m_status->setText(tr("Nothing was installed."));
    });
    box->open();
}

void PacksPage::install(const QString &path)
{
    setBusy(tr("Installing the pack from %1…").arg(path));
    whenReady(this, m_client->installPack(path), [this](const Result<PackInfo> &installed) {
        if (!installed.ok()) {
            finish(false, tr("The pack was not installed: %1").arg(installed.error().toString()));
            return;
        }
        QString message = tr("Installed %1 %2.").arg(installed.value().name, installed.value().version);
        if (!installed.value().refused.isEmpty())
            message += QLatin1Char(' ') + tr("Refused: %1").arg(installed.value().refused.join(QLatin1Char(' ')));
        finish(true, message);
    });
}

void PacksPage::runOperation(const QString &running, QFuture<Status> future, const QString &done)
{
    setBusy(running);
    whenReady(this, std::move(future), [this, done](const Status &status) {
        if (!status.ok())
            finish(false, status.error().toString());
        else
            finish(true, done);
    });
}

void PacksPage::enableSelected()
{
    const QString id = selectedPack();
    runOperation(tr("Enabling %1…").arg(nameOf(id)), m_client->enablePack(id), tr("Enabled %1.").arg(nameOf(id)));
}

void PacksPage::disableSelected()
{
    const QString id = selectedPack();
    runOperation(tr("Disabling %1…").arg(nameOf(id)), m_client->disablePack(id), tr("Disabled %1.").arg(nameOf(id)));
}

void PacksPage::removeSelected()
{
    const QString id = selectedPack();
    const auto answer = QMessageBox::question(
        this, tr("Remove Pack"),
        tr("Remove the pack %1? Its backends go away; their settings are kept in case you install it again.")
            .arg(nameOf(id)));
    if (answer != QMessageBox::Yes)
        return;
    runOperation(tr("Removing %1…").arg(nameOf(id)), m_client->removePack(id), tr("Removed %1.").arg(nameOf(id)));
}

} // namespace sandbox
