// Crash safety of settings.json: a writer process is SIGKILLed at random points, many
// times; after each kill the file holds the old state or the new one, never a torn or
// corrupt one, and the lock left behind by the dead writer does not block anyone.
#include "core/settings/FileSettingsStore.h"

#include <QDir>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace sandbox;

namespace {

const char writerVariable[] = "SANDBOX_SETTINGS_WRITER_DIR";
const char startVariable[] = "SANDBOX_SETTINGS_WRITER_START";
// Big enough that a write takes many syscalls, so kills land in the middle of writes.
constexpr int paddingSize = 256 * 1024;

QJsonObject stateFor(qint64 counter)
{
    const QChar fill = QChar(u'a' + char16_t(counter % 26));
    return QJsonObject{ { QStringLiteral("counter"), counter },
                        { QStringLiteral("padding"), QString(paddingSize, fill) } };
}

// The child: writes ever-increasing states until it is killed.
int runWriter()
{
    FileSettingsStore store(qEnvironmentVariable(writerVariable));
    for (qint64 counter = qEnvironmentVariable(startVariable).toLongLong();; ++counter) {
        const Status status = store.update([&](SettingsDocument &document) -> Status {
            document.active = BackendRef::builtin(QStringLiteral("auto"));
            document.backends.insert(QStringLiteral("builtin:auto"), stateFor(counter));
            return {};
        });
        if (!status.ok())
            return 2;
    }
}

} // namespace

class SettingsCrashTest final : public QObject
{
    Q_OBJECT

private slots:
    void killedWriterNeverCorruptsSettings();
};

void SettingsCrashTest::killedWriterNeverCorruptsSettings()
{
    QTemporaryDir dir;
    FileSettingsStore reader(dir.path());
    qint64 lastCounter = -1;
    int writesObserved = 0;
    constexpr int iterations = 200;
    for (int i = 0; i < iterations; ++i) {
        QProcess writer;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QString::fromLatin1(writerVariable), dir.path());
        environment.insert(QString::fromLatin1(startVariable), QString::number(lastCounter + 1));
        writer.setProcessEnvironment(environment);
        writer.setProgram(QCoreApplication::applicationFilePath());
        writer.start();
        QVERIFY(writer.waitForStarted());
        QThread::msleep(QRandomGenerator::global()->bounded(5, 60));
        ::kill(pid_t(writer.processId()), SIGKILL);
        QVERIFY(writer.waitForFinished());
        QCOMPARE(writer.exitStatus(), QProcess::CrashExit);

        const Result<SettingsDocument> loaded = reader.load();
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : qPrintable(loaded.error().toString()));
        QVERIFY2(reader.warnings().isEmpty(), qPrintable(reader.warnings().join(QLatin1Char('\n'))));
        if (!loaded.value().backends.contains(QStringLiteral("builtin:auto"))) {
            QCOMPARE(lastCounter, -1); // nothing written yet is the only "old state" without an entry
            continue;
        }
        const QJsonObject state = loaded.value().backends.value(QStringLiteral("builtin:auto"));
        const qint64 counter = qint64(state.value(QStringLiteral("counter")).toDouble());
        // The old state or a newer complete one; never older, never a mix.
        QVERIFY(counter >= lastCounter);
        QCOMPARE(state, stateFor(counter));
        QCOMPARE(loaded.value().active, BackendRef::builtin(QStringLiteral("auto")));
        if (counter > lastCounter)
            ++writesObserved;
        lastCounter = counter;
    }
    QVERIFY(QDir(dir.path()).entryList({ QStringLiteral("settings.json.corrupt-*") }, QDir::Files).isEmpty());
    // Leftover temporary files of killed writers are not settings and are not read.
    QVERIFY(writesObserved > iterations / 4);
    qInfo("%d kills, %d distinct committed states observed, last counter %lld", iterations, writesObserved,
          lastCounter);
}

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsSet(writerVariable)) {
        QCoreApplication app(argc, argv);
        return runWriter();
    }
    QCoreApplication app(argc, argv);
    SettingsCrashTest test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_settingscrash.moc"
