#pragma once

#include "protocol/BackendInfo.h"

#include <QList>
#include <QListWidget>

#include <optional>

namespace sandbox {

// Every registered backend: name, source, availability (with the reason), which one is
// active; description and enforcement claims in each row's tooltip. Rows carry the
// canonical BackendRef text in Qt::UserRole.
class BackendList final : public QListWidget
{
    Q_OBJECT

public:
    explicit BackendList(QWidget *parent = nullptr);

    void setBackends(const QList<BackendInfo> &backends);
    const QList<BackendInfo> &backends() const { return m_backends; }
    std::optional<BackendInfo> selectedBackend() const;
    std::optional<BackendInfo> backend(const BackendRef &ref) const;
    void select(const BackendRef &ref);

    static QString enforcementTitle(const QString &dimension);
    // Why a backend cannot be used, as its launcher said it, without a leading raw ref.
    static QString unavailableReason(const BackendInfo &info);
    // Why the engine would refuse to activate an available backend under the current
    // policy (claims that leave a restricted dimension unenforced), or empty.
    static QString policyRefusal(const BackendInfo &info);
    // Which of its required settings are not set (by label), or empty.
    static QString missingSettings(const BackendInfo &info);

signals:
    void backendSelected(const sandbox::BackendRef &ref);

private:
    QList<BackendInfo> m_backends;
};

} // namespace sandbox
