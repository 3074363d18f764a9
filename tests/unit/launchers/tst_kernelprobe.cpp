// The kernel probe's cache: a start answers from it only while the conditions it was
// measured under hold, and the answer is the one a fresh probe gives.
#include "launchers/auto/AutoLauncher.h"
#include "launchers/auto/linux/KernelProbe.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

using namespace sandbox;

class TestKernelProbe final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void secondProbeComesFromTheCacheWithTheSameAnswer();
    void changedHelperIsProbedAgain();
    void foreignOrDamagedCacheIsProbedAgain();
    void failedProbeIsNotRemembered();
    void cacheOthersCouldWriteIsNotBelieved();

private:
    QTemporaryDir m_dir;
    QString m_helper;
    QString cacheFile() const { return m_dir.filePath(QStringLiteral("state/kernel-probe")); }
};

void TestKernelProbe::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const QString built = AutoLauncher::locateInit();
    QVERIFY2(!built.isEmpty(), "sandbox-init is built next to the test");
    // A copy of our own, so changing it changes nothing else.
    m_helper = m_dir.filePath(QStringLiteral("sandbox-init"));
    QVERIFY(QFile::copy(built, m_helper));
    QVERIFY(QFile::setPermissions(m_helper, QFile::permissions(built)));
}

void TestKernelProbe::secondProbeComesFromTheCacheWithTheSameAnswer()
{
    QFile::remove(cacheFile());
    const KernelProbe fresh = KernelProbe::run(m_helper);
    QVERIFY2(fresh.ran, qPrintable(fresh.failure));
    const KernelProbe first = KernelProbe::cachedOrRun(m_helper, cacheFile());
    QVERIFY(first.ran);
    QVERIFY(!first.fromCache);
    QVERIFY(QFile::exists(cacheFile()));
    QCOMPARE(QFile::permissions(cacheFile()) & (QFile::ReadGroup | QFile::ReadOther), QFile::Permissions());
    const KernelProbe second = KernelProbe::cachedOrRun(m_helper, cacheFile());
    QVERIFY(second.fromCache);
    QCOMPARE(second.ran, fresh.ran);
    QCOMPARE(second.landlockAbi, fresh.landlockAbi);
    QCOMPARE(second.namespaces, fresh.namespaces);
    QCOMPARE(second.namespacesError, fresh.namespacesError);
    QCOMPARE(second.seccomp, fresh.seccomp);
    QCOMPARE(second.seccompError, fresh.seccompError);
    QCOMPARE(second.appArmorRestrictsUserns, fresh.appArmorRestrictsUserns);
}

void TestKernelProbe::changedHelperIsProbedAgain()
{
    QVERIFY(KernelProbe::cachedOrRun(m_helper, cacheFile()).ran);
    QVERIFY(KernelProbe::cachedOrRun(m_helper, cacheFile()).fromCache);
    // A reinstalled helper: new modification time (and change time).
    const struct utimbuf times = { 1000000000, 1000000000 };
    QCOMPARE(::utime(QFile::encodeName(m_helper).constData(), &times), 0);
    const KernelProbe after = KernelProbe::cachedOrRun(m_helper, cacheFile());
    QVERIFY(after.ran);
    QVERIFY(!after.fromCache);
    QVERIFY(KernelProbe::cachedOrRun(m_helper, cacheFile()).fromCache);
}

void TestKernelProbe::foreignOrDamagedCacheIsProbedAgain()
{
    QVERIFY(KernelProbe::cachedOrRun(m_helper, cacheFile()).ran);
    QFile file(cacheFile());
    QVERIFY(file.open(QIODevice::ReadWrite));
    QByteArray content = file.readAll();
    // Same format, another boot: a cache copied from elsewhere is not believed.
    const qsizetype boot = content.indexOf("\nboot ");
    QVERIFY(boot > 0);
    content[boot + 7] = content[boot + 7] == 'x' ? 'y' : 'x';
    QVERIFY(file.seek(0));
    file.write(content);
    file.close();
    const KernelProbe probe = KernelProbe::cachedOrRun(m_helper, cacheFile());
    QVERIFY(probe.ran);
    QVERIFY(!probe.fromCache);

    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write("garbage\n");
    file.close();
    QVERIFY(!KernelProbe::cachedOrRun(m_helper, cacheFile()).fromCache);
    QVERIFY(KernelProbe::cachedOrRun(m_helper, cacheFile()).fromCache);
}

void TestKernelProbe::failedProbeIsNotRemembered()
{
    const QString broken = m_dir.filePath(QStringLiteral("broken-init"));
    QFile script(broken);
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write("#!/bin/sh\nexit 3\n");
    script.close();
    QVERIFY(QFile::setPermissions(broken, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    const QString cache = m_dir.filePath(QStringLiteral("broken-cache"));
    const KernelProbe probe = KernelProbe::cachedOrRun(broken, cache);
    QVERIFY(!probe.ran);
    QVERIFY(probe.failure.contains(broken));
    QVERIFY(!QFile::exists(cache));
}

// A cache with the right conditions but a forged, weaker answer, in a file someone else
// could have written: the answer is the kernel's, not the file's.
void TestKernelProbe::cacheOthersCouldWriteIsNotBelieved()
{
    const KernelProbe fresh = KernelProbe::run(m_helper);
    QVERIFY2(fresh.ran, qPrintable(fresh.failure));
    QVERIFY(KernelProbe::cachedOrRun(m_helper, cacheFile()).ran);
    QFile file(cacheFile());
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray content = file.readAll();
    file.close();
    const qsizetype output = content.indexOf("\n--\n");
    QVERIFY(output > 0);
    const QByteArray forged = content.left(output) + "\n--\nlandlock 0\nuserns refused\nseccomp refused\n";
    const auto forge = [&] {
        QVERIFY(QFile::remove(cacheFile()));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(forged);
        file.close();
    };
    const auto checkFresh = [&](const KernelProbe &probe) {
        QVERIFY(probe.ran);
        QVERIFY(!probe.fromCache);
        QCOMPARE(probe.seccomp, fresh.seccomp);
        QCOMPARE(probe.namespaces, fresh.namespaces);
        QCOMPARE(probe.landlockAbi, fresh.landlockAbi);
    };

    // The forgery is believed when it is the user's own file (the format is right).
    forge();
    QVERIFY(QFile::setPermissions(cacheFile(), QFile::ReadOwner | QFile::WriteOwner));
    QVERIFY(KernelProbe::cachedOrRun(m_helper, cacheFile()).fromCache);

    forge();
    QCOMPARE(::chmod(QFile::encodeName(cacheFile()).constData(), 0622), 0); // others may write
    checkFresh(KernelProbe::cachedOrRun(m_helper, cacheFile()));
    // Probed again and stored owner-only: believed from now on.
    QCOMPARE(QFile::permissions(cacheFile()) & (QFile::WriteGroup | QFile::WriteOther), QFile::Permissions());
    QVERIFY(KernelProbe::cachedOrRun(m_helper, cacheFile()).fromCache);

    if (::geteuid() == 0) { // only root can give a file to another user
        forge();
        QVERIFY(QFile::setPermissions(cacheFile(), QFile::ReadOwner | QFile::WriteOwner));
        QCOMPARE(::chown(QFile::encodeName(cacheFile()).constData(), 65534, 65534), 0);
        checkFresh(KernelProbe::cachedOrRun(m_helper, cacheFile()));
    }
}

QTEST_GUILESS_MAIN(TestKernelProbe)
#include "tst_kernelprobe.moc"
