// A spawn that asks for a terminal: the request's terminal size is validated like every
// other field, and a backend that cannot give a terminal (every launcher that keeps the
// launcher API's default, as the Power Pack's and the VM backend do) refuses it with its
// reason before anything runs.
#include "EngineRig.h"

#include <QFile>
#include <QJsonDocument>
#include <QTest>

using namespace sandbox;
using sandbox::test::EngineRig;

class SpawnTerminalTest final : public QObject
{
    Q_OBJECT

private slots:
    void terminalSizeIsValidated();
    void backendWithoutTerminalsRefusesBeforeAnythingRuns();
};

void SpawnTerminalTest::terminalSizeIsValidated()
{
    SpawnRequest request;
    request.argv = { QStringLiteral("/bin/sh") };
    request.cwd = QStringLiteral("/");
    request.terminal = TerminalSize{ 50, 132 };
    const Result<SpawnRequest> back = SpawnRequest::fromJson(request.toJson());
    QVERIFY(back.ok());
    QCOMPARE(back.value(), request);

    const auto refused = [&request](const QJsonValue &terminal) {
        QJsonObject json = request.toJson();
        json.insert(QStringLiteral("terminal"), terminal);
        const Result<SpawnRequest> parsed = SpawnRequest::fromJson(json);
        return parsed.ok() ? QString() : parsed.error().where + QLatin1String(": ") + parsed.error().message;
    };
    QVERIFY(refused(QJsonObject{ { QStringLiteral("rows"), 0 }, { QStringLiteral("columns"), 80 } })
                .startsWith(QLatin1String("spawn.terminal.rows")));
    QVERIFY(refused(QJsonObject{ { QStringLiteral("rows"), 24 }, { QStringLiteral("columns"), 65536 } })
                .startsWith(QLatin1String("spawn.terminal.columns")));
    QVERIFY(refused(QJsonObject{ { QStringLiteral("rows"), 24 } }).startsWith(QLatin1String("spawn.terminal.columns")));
    QVERIFY(refused(QJsonObject{ { QStringLiteral("rows"), 24 },
                                 { QStringLiteral("columns"), 80 },
                                 { QStringLiteral("pixels"), 1 } })
                .startsWith(QLatin1String("spawn.terminal")));
    QVERIFY(refused(QStringLiteral("24x80")).startsWith(QLatin1String("spawn.terminal")));
}

void SpawnTerminalTest::backendWithoutTerminalsRefusesBeforeAnythingRuns()
{
    EngineRig rig;
    QVERIFY(rig.activate(EngineRig::fallbackRef()).ok);
    const QString marker = rig.dir.filePath(QStringLiteral("workspace/ran"));
    SpawnRequest request
        = rig.command({ QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("touch ") + marker });
    request.terminal = TerminalSize{ 24, 80 };
    const Result<std::shared_ptr<SandboxProcess>> spawned = rig.engine->spawn(request);
    QVERIFY(!spawned.ok());
    QCOMPARE(spawned.error().where, QStringLiteral("spawn.terminal"));
    QVERIFY2(spawned.error().message.contains(EngineRig::fallbackRef().toString())
                 && spawned.error().message.contains(QLatin1String("cannot give a command a terminal")),
             qPrintable(spawned.error().message));
    QVERIFY(rig.engine->processes().isEmpty());
    QVERIFY(!QFile::exists(marker));

    // The same command without a terminal runs there.
    request.terminal.reset();
    const Result<std::shared_ptr<SandboxProcess>> ran = rig.engine->spawn(request);
    QVERIFY2(ran.ok(), ran.ok() ? "" : qPrintable(ran.error().message));
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(marker), 30000);
}

QTEST_GUILESS_MAIN(SpawnTerminalTest)
#include "tst_spawnterminal.moc"
