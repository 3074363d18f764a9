#pragma once

#include <QStringList>
#include <QWidget>

#include <functional>

class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace sandbox {

// An editable list of strings (paths, domains): entries can be added, edited in place
// and removed (Remove or the Delete key). Each entry is checked as it is added or edited:
// a bad one is refused (or, when edited in place, marked) with a message naming it.
// Names its child widgets after `name` so tests and screen readers find them.
class StringListEditor final : public QWidget
{
    Q_OBJECT

public:
    StringListEditor(const QString &name, const QString &accessibleLabel, const QString &placeholder,
                     QWidget *parent = nullptr);

    // Returns what is wrong with an entry, or an empty string when it is fine.
    using Check = std::function<QString(const QString &entry)>;
    void setCheck(Check check) { m_check = std::move(check); }

    QStringList items() const;
    void setItems(const QStringList &items);
    // Shows an error under the list (empty text hides it).
    void setError(const QString &message);
    QString error() const;
    // Marks the entry at `index` as bad (red, the reason in its tooltip) and says so.
    void markEntry(int index, const QString &message);
    bool isMarked(int index) const;

signals:
    void changed();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void addEntry();
    void removeSelected();
    void updateButtons();
    void checkEdited(int row);
    void unmark(int row);

    Check m_check;
    QListWidget *m_list = nullptr;
    QLineEdit *m_input = nullptr;
    QPushButton *m_add = nullptr;
    QPushButton *m_remove = nullptr;
    QLabel *m_error = nullptr;
};

} // namespace sandbox
