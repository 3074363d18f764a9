#include "WidgetWalk.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QAction>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPixmap>
#include <QTabWidget>
#include <QTreeWidget>
#include <QWidget>

namespace sandbox::test {

QStringList WidgetWalk::texts(QWidget *root)
{
    QStringList out;
    QList<QWidget *> widgets = root->findChildren<QWidget *>();
    widgets.prepend(root);
    for (QWidget *w : widgets) {
        out << w->toolTip() << w->statusTip() << w->whatsThis() << w->accessibleName() << w->accessibleDescription()
            << w->windowTitle();
        if (auto *label = qobject_cast<QLabel *>(w))
            out << label->text();
        if (auto *edit = qobject_cast<QLineEdit *>(w))
            out << edit->text() << edit->placeholderText() << edit->displayText();
        if (auto *button = qobject_cast<QAbstractButton *>(w))
            out << button->text();
        if (auto *combo = qobject_cast<QComboBox *>(w)) {
            for (int i = 0; i < combo->count(); ++i)
                out << combo->itemText(i) << combo->itemData(i).toString();
        }
        if (auto *list = qobject_cast<QListWidget *>(w)) {
            for (int i = 0; i < list->count(); ++i)
                out << list->item(i)->text() << list->item(i)->toolTip()
                    << list->item(i)->data(Qt::AccessibleTextRole).toString();
        }
        if (auto *tree = qobject_cast<QTreeWidget *>(w)) {
            QList<QTreeWidgetItem *> items{ tree->headerItem() };
            for (int i = 0; i < tree->topLevelItemCount(); ++i)
                items << tree->topLevelItem(i);
            for (int i = 1; i < items.size(); ++i) {
                for (int child = 0; child < items.at(i)->childCount(); ++child)
                    items << items.at(i)->child(child);
            }
            for (QTreeWidgetItem *item : items) {
                for (int column = 0; column < tree->columnCount(); ++column)
                    out << item->text(column) << item->toolTip(column);
            }
        }
        if (auto *tabs = qobject_cast<QTabWidget *>(w)) {
            for (int i = 0; i < tabs->count(); ++i)
                out << tabs->tabText(i) << tabs->tabToolTip(i);
        }
        if (auto *group = qobject_cast<QGroupBox *>(w))
            out << group->title();
    }
    // Menu entries and other actions (a menu bar's, a context menu's).
    for (QAction *action : root->findChildren<QAction *>())
        out << action->text() << action->toolTip() << action->statusTip();
    out.removeAll(QString());
    return out;
}

QStringList WidgetWalk::unnamedInteractiveWidgets(QWidget *root)
{
    QStringList missing;
    for (QWidget *w : root->findChildren<QWidget *>()) {
        const bool interactive = qobject_cast<QAbstractButton *>(w) || qobject_cast<QLineEdit *>(w)
            || qobject_cast<QComboBox *>(w) || qobject_cast<QAbstractSpinBox *>(w) || qobject_cast<QListWidget *>(w);
        if (!interactive)
            continue;
        // Parts Qt builds inside a composite widget belong to that widget.
        QWidget *parent = w->parentWidget();
        if (qobject_cast<QAbstractSpinBox *>(parent) || qobject_cast<QComboBox *>(parent)
            || qobject_cast<QLineEdit *>(parent) || w->objectName().startsWith(QLatin1String("qt_")))
            continue;
        if (w->objectName().isEmpty() || w->accessibleName().isEmpty())
            missing << QStringLiteral("%1 \"%2\" (accessible \"%3\") in %4")
                           .arg(QString::fromLatin1(w->metaObject()->className()), w->objectName(), w->accessibleName(),
                                parent ? parent->objectName() : QString());
    }
    return missing;
}

QString WidgetWalk::saveScreenshot(QWidget *root, const QString &name)
{
    const QString dir = QStringLiteral(SANDBOX_ARTIFACTS_DIR);
    QDir().mkpath(dir);
    const QString path = dir + QLatin1Char('/') + name + QStringLiteral(".png");
    // Let pending layout passes and deferred shows finish before the picture is taken.
    for (int i = 0; i < 3; ++i) {
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
    }
    root->grab().save(path);
    return path;
}

} // namespace sandbox::test
