#pragma once

#include <QStringList>
#include <QWidget>

class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace sandbox {

// An editable list of strings (paths, domains): entries can be added, edited in place
// and removed. Names its child widgets after `name` so tests and screen readers find them.
class StringListEditor final : public QWidget
{
    Q_OBJECT

public:
    StringListEditor(const QString &name, const QString &accessibleLabel, const QString &placeholder,
                     QWidget *parent = nullptr);

    QStringList items() const;
    void setItems(const QStringList &items);
    // Shows an error under the list (empty text hides it).
    void setError(const QString &message);
    QString error() const;

signals:
    void changed();

private:
    void addEntry();
    void removeSelected();
    void updateButtons();

    QListWidget *m_list = nullptr;
    QLineEdit *m_input = nullptr;
    QPushButton *m_add = nullptr;
    QPushButton *m_remove = nullptr;
    QLabel *m_error = nullptr;
};

} // namespace sandbox
