#include "BackendList.h"

#include "StatusIcons.h"

#include <QLocale>

namespace sandbox {

BackendList::BackendList(QWidget *parent)
    : QListWidget(parent)
{
    setObjectName(QStringLiteral("backendList"));
    setAccessibleName(tr("Backends"));
    setIconSize(QSize(20, 20));
    setSpacing(2);
    setWordWrap(true);
    setUniformItemSizes(false);
    connect(this, &QListWidget::currentItemChanged, this, [this](QListWidgetItem *current) {
        if (!current)
            return;
        const auto ref = BackendRef::parse(current->data(Qt::UserRole).toString());
        if (ref)
            emit backendSelected(ref.value());
    });
}

QString BackendList::enforcementTitle(const QString &dimension)
{
    if (dimension == QLatin1String("filesystem"))
        return tr("Filesystem");
    if (dimension == QLatin1String("confinement"))
        return tr("Process confinement");
    if (dimension == QLatin1String("network"))
        return tr("Network");
    if (dimension == QLatin1String("allowedDomains"))
        return tr("Allowed domains");
    if (dimension == QLatin1String("hostExecution"))
        return tr("Host execution");
    if (dimension == QLatin1String("credentials"))
        return tr("Credentials");
    if (dimension == QLatin1String("sshAgent"))
        return tr("SSH agent");
    if (dimension == QLatin1String("upstreamProxy"))
        return tr("Upstream proxy");
    return dimension;
}

QString BackendList::policyRefusal(const BackendInfo &info)
{
    if (info.unenforced.isEmpty())
        return {};
    QStringList dimensions;
    for (const QString &dimension : info.unenforced)
        dimensions << enforcementTitle(dimension);
    return tr("Cannot be activated under the current sandbox policy: this backend does not enforce %1, which "
              "the policy restricts, and commands never run unconfined. Choose a backend that does, or change "
              "the policy.")
        .arg(QLocale().createSeparatedList(dimensions));
}

QString BackendList::missingSettings(const BackendInfo &info)
{
    QStringList labels;
    for (const QString &id : info.missingSettings) {
        const FieldSpec *field = info.descriptor.field(id);
        labels << QStringLiteral("“%1”").arg(field && !field->label.isEmpty() ? field->label : id);
    }
    if (labels.isEmpty())
        return {};
    return tr("Cannot be activated until its required settings are set: %1.")
        .arg(QLocale().createSeparatedList(labels));
}

QString BackendList::unavailableReason(const BackendInfo &info)
{
    QString reason = info.availability.reason.trimmed();
    for (const QString &prefix : { info.ref.toString(), info.ref.kind() }) {
        if (reason.startsWith(prefix + QLatin1Char(':')))
            reason = reason.mid(prefix.size() + 1).trimmed();
    }
    return reason;
}

void BackendList::setBackends(const QList<BackendInfo> &backends)
{
    const auto previous = selectedBackend();
    m_backends = backends;
    {
        const QSignalBlocker blocker(this);
        clear();
        for (const BackendInfo &info : backends) {
            QString state;
            StatusIcons::BackendState icon = StatusIcons::BackendState::Available;
            if (info.active) {
                state = tr("Active");
                icon = StatusIcons::BackendState::Active;
            } else if (!info.unenforced.isEmpty()) {
                // The policy's refusal holds whatever the backend's availability.
                icon = StatusIcons::BackendState::Unavailable;
                state = tr("Not under this policy");
            } else if (!info.availability.available) {
                icon = StatusIcons::BackendState::Unavailable;
                state = tr("Unavailable"); // the reason is shown once, with the backend's details
            } else if (!info.missingSettings.isEmpty()) {
                icon = StatusIcons::BackendState::Unavailable;
                state = tr("Needs settings");
            } else {
                state = tr("Available");
            }
            const QString source = info.sourceLabel.isEmpty()
                ? (info.ref.isBuiltin() ? tr("Built-in") : info.ref.packId())
                : info.sourceLabel;
            auto *item = new QListWidgetItem(StatusIcons::backend(icon),
                                             tr("%1\n%2 · %3").arg(info.descriptor.name, source, state), this);
            item->setData(Qt::UserRole, info.ref.toString());
            // The row may be elided in a narrow list: the tooltip starts with all of it.
            QStringList tip{ item->text().replace(QLatin1Char('\n'), QStringLiteral(" — ")),
                             info.descriptor.description };
            if (!info.active && !info.availability.available && !unavailableReason(info).isEmpty())
                tip << tr("Unavailable: %1").arg(unavailableReason(info));
            if (!info.active && info.availability.available) {
                for (const QString &refusal : { policyRefusal(info), missingSettings(info) }) {
                    if (!refusal.isEmpty())
                        tip << refusal;
                }
            }
            for (auto it = info.descriptor.enforcement.cbegin(); it != info.descriptor.enforcement.cend(); ++it)
                tip << tr("%1: %2").arg(enforcementTitle(it.key()), it.value());
            item->setToolTip(tip.join(QLatin1Char('\n')));
            item->setData(Qt::AccessibleTextRole, tr("%1, %2, %3").arg(info.descriptor.name, source, state));
            if (info.active) {
                QFont font = item->font();
                font.setBold(true);
                item->setFont(font);
            }
        }
        // Keep the selection across refreshes without re-announcing it: a refresh must not
        // throw away edits in the settings form of the selected backend.
        if (previous)
            select(previous->ref);
        if (!currentItem()) {
            for (const BackendInfo &info : backends) {
                if (info.active)
                    select(info.ref);
            }
        }
        if (!currentItem() && count() > 0)
            setCurrentRow(0);
    }
    const auto now = selectedBackend();
    if (now && (!previous || previous->ref != now->ref))
        emit backendSelected(now->ref);
}

std::optional<BackendInfo> BackendList::selectedBackend() const
{
    const QListWidgetItem *item = currentItem();
    if (!item)
        return std::nullopt;
    const auto ref = BackendRef::parse(item->data(Qt::UserRole).toString());
    return ref ? backend(ref.value()) : std::nullopt;
}

std::optional<BackendInfo> BackendList::backend(const BackendRef &ref) const
{
    for (const BackendInfo &info : m_backends) {
        if (info.ref == ref)
            return info;
    }
    return std::nullopt;
}

void BackendList::select(const BackendRef &ref)
{
    for (int i = 0; i < count(); ++i) {
        if (item(i)->data(Qt::UserRole).toString() == ref.toString()) {
            setCurrentRow(i);
            return;
        }
    }
}

} // namespace sandbox
