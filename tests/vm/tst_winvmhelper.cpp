// The cross-built winvm-helper.exe itself, run under Wine: it is the artifact the engine
// pins, it refuses bad arguments naming them, and without Hyper-V it says it cannot open
// an hv_sock socket instead of relaying anything.
#include "HelperPins.h"

#include <QCryptographicHash>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TestWinvmHelper : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void theBuiltHelperIsTheOnePinned();
    void badArgumentsExitWithStatusTwoNamingThem();
    void helpPrintsTheUsage();
    void withoutHyperVItCannotOpenTheSocket();

private:
    struct Run
    {
        int status = -1;
        QByteArray output;
        QByteArray error;
    };
    Run run(const QStringList &arguments);

    QTemporaryDir m_prefix;
};

void TestWinvmHelper::initTestCase()
{
    QVERIFY(m_prefix.isValid());
    QVERIFY(QFile::exists(QStringLiteral(SANDBOX_VM_WINVM_HELPER)));
}

void TestWinvmHelper::cleanupTestCase()
{
    // Wine leaves its server running for the prefix a while; end it.
    QProcess server;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("WINEPREFIX"), m_prefix.path());
    server.setProcessEnvironment(environment);
    server.start(QStringLiteral(SANDBOX_WINESERVER), { QStringLiteral("-k") });
    server.waitForFinished(60000);
}

TestWinvmHelper::Run TestWinvmHelper::run(const QStringList &arguments)
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("WINEPREFIX"), m_prefix.path());
    environment.insert(QStringLiteral("WINEDEBUG"), QStringLiteral("-all"));
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(SANDBOX_WINE64), QStringList{ QStringLiteral(SANDBOX_VM_WINVM_HELPER) } + arguments);
    process.closeWriteChannel();
    Run result;
    if (!process.waitForFinished(180000))
        return result;
    result.status = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.output = process.readAllStandardOutput();
    result.error = process.readAllStandardError();
    return result;
}

void TestWinvmHelper::theBuiltHelperIsTheOnePinned()
{
    QFile helper(QStringLiteral(SANDBOX_VM_WINVM_HELPER));
    QVERIFY(helper.open(QIODevice::ReadOnly));
    const QByteArray digest = QCryptographicHash::hash(helper.readAll(), QCryptographicHash::Sha256).toHex();
    QByteArray pinned;
    for (const sandbox::vm::HelperPin &pin : sandbox::vm::kHelperPins) {
        if (QByteArray(pin.name) == "winvm-helper.exe")
            pinned = pin.sha256;
    }
    QCOMPARE(pinned, digest);
    QVERIFY(helper.read(2).isEmpty());
    QVERIFY(helper.seek(0));
    QCOMPARE(helper.read(2), QByteArray("MZ"));
}

void TestWinvmHelper::badArgumentsExitWithStatusTwoNamingThem()
{
    const Run none = run({});
    QCOMPARE(none.status, 2);
    QVERIFY2(none.error.contains("winvm-helper: --vm-id is required"), none.error.constData());
    QVERIFY(none.output.isEmpty());

    const Run badId = run(
        { QStringLiteral("--vm-id"), QStringLiteral("not-a-guid"), QStringLiteral("--port"), QStringLiteral("1024") });
    QCOMPARE(badId.status, 2);
    QVERIFY2(badId.error.contains("--vm-id \"not-a-guid\" is not a GUID"), badId.error.constData());

    const Run unknown = run({ QStringLiteral("--exec"), QStringLiteral("cmd.exe") });
    QCOMPARE(unknown.status, 2);
    QVERIFY2(unknown.error.contains("unknown argument \"--exec\""), unknown.error.constData());
}

void TestWinvmHelper::helpPrintsTheUsage()
{
    const Run help = run({ QStringLiteral("--help") });
    QCOMPARE(help.status, 0);
    QVERIFY2(help.output.startsWith("usage: winvm-helper --vm-id GUID --port N"), help.output.constData());
}

void TestWinvmHelper::withoutHyperVItCannotOpenTheSocket()
{
    const Run unreachable = run({ QStringLiteral("--vm-id"), QStringLiteral("6f1c2d3e-0a1b-4c5d-8e9f-0123456789ab"),
                                  QStringLiteral("--port"), QStringLiteral("1024"),
                                  QStringLiteral("--connect-timeout-ms"), QStringLiteral("500") });
    QCOMPARE(unreachable.status, 3);
    QVERIFY2(unreachable.error.contains("winvm-helper: cannot open an hv_sock socket"), unreachable.error.constData());
    QVERIFY(unreachable.output.isEmpty());
}

QTEST_GUILESS_MAIN(TestWinvmHelper)
#include "tst_winvmhelper.moc"
