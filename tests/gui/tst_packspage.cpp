// The Packs window: install the real Power Pack from its folder once the user says they
// trust it, see it listed with its state and its backends by name, a failed install and a
// refused disable shown with their reasons, the window placed on the screen, and
// Docker's settings form rendered from its descriptor and activated against the real
// runtime test.sh starts (Podman's Docker-compatible service).
#include "GuiTest.h"
#include "MainWindow.h"
#include "PacksPage.h"
#include "SchemaForm.h"
#include "StudioHarness.h"
#include "WidgetWalk.h"
#include "client/Client.h"

#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSignalSpy>
#include <QTreeWidget>

using namespace sandbox;
using namespace sandbox::test;

namespace {

const BackendRef docker = BackendRef::atomPack(QStringLiteral("power-pack"), QStringLiteral("docker"));

QTreeWidgetItem *packRow(QTreeWidget *list, const QString &name)
{
    for (int i = 0; i < list->topLevelItemCount(); ++i) {
        if (list->topLevelItem(i)->text(0) == name)
            return list->topLevelItem(i);
    }
    return nullptr;
}

} // namespace

class TestPacksPage final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void installListAndRefuse();
    void dockerFormFromItsDescriptorActivates();

private:
    QTemporaryDir m_home;
};

void TestPacksPage::initTestCase()
{
    QVERIFY(m_home.isValid());
    GuiTest::isolateUserConfig(m_home);
}

void TestPacksPage::installListAndRefuse()
{
    StudioHarness harness;
    MainWindow window(harness.client(), nullptr);
    window.show();
    PacksPage *page = window.showPacks();
    QVERIFY(QTest::qWaitForWindowExposed(page->window()));
    auto *list = page->findChild<QTreeWidget *>(QStringLiteral("packList"));
    auto *status = page->findChild<QLabel *>(QStringLiteral("packStatus"));
    auto *progress = page->findChild<QProgressBar *>(QStringLiteral("packProgress"));
    QSignalSpy finished(page, &PacksPage::operationFinished);

    // The window opens on the screen, over Studio's, not against the screen's edge.
    const QRect available = page->window()->screen()->availableGeometry();
    const QRect placed = page->window()->frameGeometry();
    QVERIFY2(
        available.contains(placed),
        qPrintable(
            QStringLiteral("%1,%2 %3x%4").arg(placed.x()).arg(placed.y()).arg(placed.width()).arg(placed.height())));
    QVERIFY(placed.left() > available.left() && placed.top() > available.top());
    // No word of the code's own ("atom pack") in what the window shows.
    for (const QString &text : WidgetWalk::texts(page->window()))
        QVERIFY2(!text.contains(QStringLiteral("atom"), Qt::CaseInsensitive), qPrintable(text));

    // A pack is native code: nothing is loaded before the user says they trust it.
    auto trustDialog = [page] { return page->findChild<QMessageBox *>(QStringLiteral("packTrustDialog")); };
    page->installFrom(QStringLiteral(SANDBOX_POWER_PACK_DIR));
    QTRY_VERIFY(trustDialog() && trustDialog()->isVisible());
    QVERIFY2(trustDialog()->informativeText().contains(QStringLiteral("outside any sandbox")),
             qPrintable(trustDialog()->informativeText()));
    QVERIFY(trustDialog()->text().contains(QDir::toNativeSeparators(QStringLiteral(SANDBOX_POWER_PACK_DIR))));
    WidgetWalk::saveScreenshot(trustDialog(), QStringLiteral("packs-trust"));
    QTest::mouseClick(trustDialog()->findChild<QPushButton *>(QStringLiteral("packTrustCancel")), Qt::LeftButton);
    QTRY_VERIFY(!trustDialog());
    QVERIFY(!progress->isVisible());
    QCOMPARE(finished.size(), 0);
    QVERIFY(!packRow(list, QStringLiteral("Power Pack")));
    QVERIFY(StudioHarness::await(harness.client()->packs()).value().size() == 1); // the test pack only

    page->installFrom(QStringLiteral(SANDBOX_POWER_PACK_DIR));
    QTRY_VERIFY(trustDialog() && trustDialog()->isVisible());
    QTest::mouseClick(trustDialog()->findChild<QPushButton *>(QStringLiteral("packTrustInstall")), Qt::LeftButton);
    QTRY_VERIFY(progress->isVisible());
    QVERIFY(!page->findChild<QPushButton *>(QStringLiteral("packInstallArchive"))->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
    QVERIFY2(finished.takeFirst().first().toBool(), qPrintable(status->text()));
    QVERIFY(!progress->isVisible());
    QVERIFY(status->text().contains(QStringLiteral("Installed Power Pack")));
    QTRY_VERIFY(packRow(list, QStringLiteral("Power Pack")));
    QCOMPARE(packRow(list, QStringLiteral("Power Pack"))->text(3), QStringLiteral("Enabled"));
    // Its backends by the names the backend list gives them, never raw refs.
    QTRY_COMPARE(packRow(list, QStringLiteral("Power Pack"))->text(4), QStringLiteral("Docker, E2B"));
    WidgetWalk::saveScreenshot(page->window(), QStringLiteral("packs"));
    QTRY_VERIFY(GuiTest::backendItem(window, docker));

    // A path that is no pack: refused, with the reason, and nothing changes.
    page->installFrom(m_home.filePath(QStringLiteral("missing.tar.gz")));
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
    QVERIFY(!finished.takeFirst().first().toBool());
    QVERIFY2(status->text().contains(QStringLiteral("does not exist")), qPrintable(status->text()));
    QCOMPARE(list->topLevelItemCount(), 2);

    // Disable, then enable, through the buttons (the list is rebuilt after each operation).
    QTRY_VERIFY(packRow(list, QStringLiteral("Power Pack")));
    list->setCurrentItem(packRow(list, QStringLiteral("Power Pack")));
    auto *disable = page->findChild<QPushButton *>(QStringLiteral("packDisable"));
    QTRY_VERIFY(disable->isEnabled());
    QTest::mouseClick(disable, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
    QVERIFY2(finished.takeFirst().first().toBool(), qPrintable(status->text()));
    QTRY_COMPARE(packRow(list, QStringLiteral("Power Pack"))->text(3), QStringLiteral("Disabled"));
    list->setCurrentItem(packRow(list, QStringLiteral("Power Pack")));
    auto *enable = page->findChild<QPushButton *>(QStringLiteral("packEnable"));
    QTRY_VERIFY(enable->isEnabled());
    QTest::mouseClick(enable, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
    QVERIFY(finished.takeFirst().first().toBool());
    QTRY_COMPARE(packRow(list, QStringLiteral("Power Pack"))->text(3), QStringLiteral("Enabled"));
}

void TestPacksPage::dockerFormFromItsDescriptorActivates()
{
    const QString socket = qEnvironmentVariable("SANDBOX_TEST_DOCKER_SOCKET");
    const QString image = qEnvironmentVariable("SANDBOX_TEST_DOCKER_IMAGE");
    if (socket.isEmpty() || image.isEmpty()) {
        if (qEnvironmentVariableIntValue("SANDBOX_REQUIRE_DOCKER"))
            QFAIL("SANDBOX_TEST_DOCKER_SOCKET and SANDBOX_TEST_DOCKER_IMAGE are not set: test.sh starts the runtime");
        QSKIP("No Docker-compatible runtime: run through test.sh, or tests/integration/podman-runtime.sh start DIR");
    }
    StudioHarness harness;
    MainWindow window(harness.client(), nullptr);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(StudioHarness::await(harness.client()->installPack(QStringLiteral(SANDBOX_POWER_PACK_DIR))).ok());

    GuiTest::clickBackend(window, docker);
    if (QTest::currentTestFailed())
        return;
    auto *form = window.findChild<SchemaForm *>(QStringLiteral("schemaForm"));
    QTRY_VERIFY_WITH_TIMEOUT(form->hasSchema() && window.findChild<QLineEdit *>(QStringLiteral("field_image")), 20000);
    // Every field the descriptor declares, with its label, and nothing Docker-specific in Studio.
    for (const QString &id : { QStringLiteral("endpoint"), QStringLiteral("image"), QStringLiteral("memoryMb"),
                               QStringLiteral("cpus"), QStringLiteral("pidsLimit") })
        QVERIFY2(window.findChild<QWidget *>(QStringLiteral("field_") + id), qPrintable(id));
    QCOMPARE(window.findChild<QLabel *>(QStringLiteral("field_image_label"))->text().remove(QLatin1Char('*')).trimmed(),
             QStringLiteral("Image"));

    auto *endpoint = window.findChild<QLineEdit *>(QStringLiteral("field_endpoint"));
    auto *imageField = window.findChild<QLineEdit *>(QStringLiteral("field_image"));
    endpoint->clear();
    QTest::keyClicks(endpoint, QStringLiteral("unix://") + socket);
    imageField->clear();
    QTest::keyClicks(imageField, image);
    auto *activate = window.findChild<QPushButton *>(QStringLiteral("activateButton"));
    QTRY_VERIFY(activate->isEnabled());
    QTest::mouseClick(activate, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(harness.engine().activeRef(), std::optional<BackendRef>(docker), 60000);

    // Disabling its pack needs builtin:auto first; this window's engine has none, so the
    // disable is refused with the reason and Docker keeps serving.
    PacksPage *page = window.showPacks();
    auto *packs = page->findChild<QTreeWidget *>(QStringLiteral("packList"));
    QSignalSpy finished(page, &PacksPage::operationFinished);
    QTRY_VERIFY(packRow(packs, QStringLiteral("Power Pack")));
    packs->setCurrentItem(packRow(packs, QStringLiteral("Power Pack")));
    auto *disable = page->findChild<QPushButton *>(QStringLiteral("packDisable"));
    QTRY_VERIFY(disable->isEnabled());
    QTest::mouseClick(disable, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
    QVERIFY(!finished.first().first().toBool());
    const QString why = page->findChild<QLabel *>(QStringLiteral("packStatus"))->text();
    QVERIFY2(why.contains(QStringLiteral("Cannot disable the pack")), qPrintable(why));
    QCOMPARE(harness.engine().activeRef(), std::optional<BackendRef>(docker));
}

QTEST_MAIN(TestPacksPage)
#include "tst_packspage.moc"
