#pragma once

#include "BackendList.h"
#include "MainWindow.h"
#include "SchemaForm.h"
#include "TestPack.h"

#include <QListWidget>
#include <QTemporaryDir>
#include <QTest>

namespace sandbox::test {

// Steps every GUI test shares. They report failures through QTest; callers check
// QTest::currentTestFailed() when later steps depend on them.
class GuiTest final
{
public:
    // Keeps the app's own settings (QSettings, autostart entries) inside `dir`.
    static void isolateUserConfig(const QTemporaryDir &dir)
    {
        qputenv("XDG_CONFIG_HOME", dir.filePath(QStringLiteral("xdg-config")).toUtf8());
        QCoreApplication::setOrganizationName(QStringLiteral("sandbox-studio-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("sandbox-studio-tests"));
    }

    static QListWidgetItem *backendItem(MainWindow &window, const QString &kind)
    {
        return backendItem(window, TestPack::ref(kind));
    }

    // The backend's row in the list, for any backend (a pack's as well as the test pack's).
    static QListWidgetItem *backendItem(MainWindow &window, const BackendRef &ref)
    {
        auto *list = window.findChild<BackendList *>(QStringLiteral("backendList"));
        if (!list)
            return nullptr;
        for (int i = 0; i < list->count(); ++i) {
            if (list->item(i)->data(Qt::UserRole).toString() == ref.toString())
                return list->item(i);
        }
        return nullptr;
    }

    // Waits until the list shows the backend, then clicks its row as a user does.
    static void clickBackend(MainWindow &window, const BackendRef &ref)
    {
        auto *list = window.findChild<BackendList *>(QStringLiteral("backendList"));
        QVERIFY(list);
        QTRY_VERIFY(backendItem(window, ref));
        QListWidgetItem *item = backendItem(window, ref);
        list->scrollToItem(item);
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(item).center());
    }

    // Clicks the backend in the list, as a user does, and waits until its form is built.
    static void selectBackend(MainWindow &window, const QString &kind, const QString &firstFieldId = {})
    {
        auto *list = window.findChild<BackendList *>(QStringLiteral("backendList"));
        QVERIFY(list);
        QTRY_VERIFY(backendItem(window, kind));
        QListWidgetItem *item = backendItem(window, kind);
        list->scrollToItem(item);
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(item).center());
        QTRY_COMPARE(list->currentItem(), backendItem(window, kind));
        auto *form = window.findChild<SchemaForm *>(QStringLiteral("schemaForm"));
        QTRY_VERIFY_WITH_TIMEOUT(form->hasSchema(), 20000);
        // Widgets added to a shown form become visible on the next event loop pass.
        if (!firstFieldId.isEmpty())
            QTRY_VERIFY(window.findChild<QWidget *>(QStringLiteral("field_") + firstFieldId)
                        && window.findChild<QWidget *>(QStringLiteral("field_") + firstFieldId)->isVisible());
        else
            QVERIFY(!form->hasFields());
    }
};

} // namespace sandbox::test
