// VM pre-workload baselines: the cache's decisions (each invalidation cause, leases between
// two processes, LRU eviction, owner-only modes) on real files, the drivers' capability and
// Hyper-V's checkpoint commands, and end to end with QEMU: a cold boot saves a baseline,
// the next activation restores it and runs commands, a workspace's VM is restored from it
// too with exactly the cold boot's shares attached afterwards (a failed hot-add costs exactly
// one cold boot), a corrupted or unloadable baseline costs exactly one cold boot, and nothing
// under the cache holds a secret. QEMU runs through a pass-through script on PATH that logs
// each start (whether it restores, whether it has shares) and, while a flag file exists,
// starts a restored workspace VM without the backend of the share it names: a real hot-add
// failure (shares beyond the baseline's pre-plugged slots are hot-added).
#include "LauncherRun.h"
#include "launchers/vm/VmLauncher.h"
#include "launchers/vm/baseline/BaselineCache.h"
#include "launchers/vm/baseline/BaselineLease.h"
#include "launchers/vm/baseline/BaselineManifest.h"
#include "launchers/vm/baseline/FileDigest.h"
#include "launchers/vm/drivers/HyperVDriver.h"
#include "launchers/vm/drivers/QemuDriver.h"
#include "launchers/vm/drivers/VfkitDriver.h"
#include "launchers/vm/guest/GuestLayout.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QMutex>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <ctime>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace sandbox;
using namespace sandbox::test;

namespace {

const QByteArray kSecret = "baseline-secret-9f2c71d0e4";

BaselineManifest sampleManifest()
{
    BaselineManifest manifest;
    manifest.driver = QStringLiteral("qemu");
    manifest.driverVersion = QStringLiteral("QEMU emulator version 7.2.22");
    manifest.machine = { QStringLiteral("/usr/bin/qemu-system-x86_64"), QStringLiteral("-m"), QStringLiteral("512") };
    manifest.kernelSha256 = QString(64, QLatin1Char('a'));
    manifest.initramfsSha256 = QString(64, QLatin1Char('b'));
    manifest.helperSha256.insert(QStringLiteral("sandbox-vm-agent"), QString(64, QLatin1Char('c')));
    manifest.memoryMb = 512;
    manifest.cpus = 1;
    manifest.uid = ::getuid();
    return manifest;
}

// A baseline as store() writes it, with `content` as its artifact.
void storeFake(BaselineCache &cache, const BaselineManifest &manifest, const QByteArray &content)
{
    const Status stored = cache.store(manifest, [&](int fd) -> Status {
        if (::write(fd, content.constData(), size_t(content.size())) != content.size())
            return Error{ QStringLiteral("test"), QStringLiteral("write failed"), {} };
        return Status::success();
    });
    QVERIFY2(stored.ok(), qPrintable(stored.ok() ? QString() : stored.error().toString()));
}

int modeOf(const QString &path)
{
    struct stat info
    {
    };
    if (::lstat(QFile::encodeName(path).constData(), &info) != 0)
        return -1;
    return int(info.st_mode & 07777);
}

bool rewrite(const QString &path, const QByteArray &content)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(content) == content.size();
}

QString sha256Hex(const QByteArray &content)
{
    return QString::fromLatin1(QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex());
}

// Whether the clock the kernel stamps file times with has moved past the file's last change.
bool ctimeIsPast(const QString &path)
{
    struct stat info
    {
    };
    timespec now{};
    if (::stat(QFile::encodeName(path).constData(), &info) != 0 || ::clock_gettime(CLOCK_REALTIME_COARSE, &now) != 0)
        return false;
    return info.st_ctim.tv_sec < now.tv_sec
        || (info.st_ctim.tv_sec == now.tv_sec && info.st_ctim.tv_nsec < now.tv_nsec);
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestVmBaseline final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void manifestRoundTripsAndRefusesWhatIsMissing();
    void fileDigestIsSha256();
    void aRememberedDigestFollowsEveryChange();
    void eachInvalidationCauseRemovesTheCandidate();
    void aLiveHolderInAnotherProcessIsRespectedADeadOnesReclaimed();
    void evictionKeepsTheMostRecentlyUsedWithinCountAndBytes();
    void cacheIsOwnerOnly();
    void driversReportTheCapability();
    void coldBootSavesThenActivationRestoresAndRunsCommands();
    void aWorkspaceVmIsRestoredWithTheColdBootsShares();
    void aFailedHotAddCostsTheWorkspaceVmOneColdBoot();
    void aBaselineTheDriverCannotLoadCostsOneColdBoot();
    void cleanupTestCase();

private:
    struct Activation
    {
        Status status;
        QStringList notes;
        bool restored = false;
        qint64 bootMs = 0;
    };
    Activation activate(std::shared_ptr<VmLauncher> &launcher, FixedAnswerHost &host);
    // The QEMU starts logged since the last call that had shares ("incoming" or "boot").
    QStringList takeShareStarts();

    std::unique_ptr<QTemporaryDir> m_root;
    QString m_qemuLog;
    QString m_runDirectories; // each QEMU's working directory: its sockets' directory
    QString m_breakHotAdd;
    QString m_stateDirectory;
    QString m_workspace;
};

void TestVmBaseline::initTestCase()
{
    m_root = std::make_unique<QTemporaryDir>(QStringLiteral("/var/tmp/tst_vmbaseline-XXXXXX"));
    QVERIFY(m_root->isValid());
    m_stateDirectory = m_root->filePath(QStringLiteral("state"));
    m_workspace = m_root->filePath(QStringLiteral("workspace"));
    QVERIFY(QDir().mkpath(m_stateDirectory) && QDir().mkpath(m_workspace));
    const QString qemu = QStandardPaths::findExecutable(QStringLiteral("qemu-system-x86_64"));
    QVERIFY2(!qemu.isEmpty(), "qemu-system-x86_64 is not on PATH");
    const QString bin = m_root->filePath(QStringLiteral("bin"));
    m_qemuLog = m_root->filePath(QStringLiteral("qemu-starts.log"));
    m_breakHotAdd = m_root->filePath(QStringLiteral("break-hot-add"));
    m_runDirectories = m_root->filePath(QStringLiteral("run-directories.log"));
    // The engine's runtime directory (its sockets' place) is run/ in this state directory.
    qunsetenv("XDG_RUNTIME_DIR");
    qputenv("SANDBOX_STATE_DIR", QFile::encodeName(m_root->filePath(QStringLiteral("engine-state"))));
    QVERIFY(QDir().mkpath(bin));
    const QString wrapper = bin + QStringLiteral("/qemu-system-x86_64");
    QVERIFY(rewrite(
        wrapper,
        QStringLiteral("#!/bin/sh\n"
                       "mode=boot\n"
                       "case \" $* \" in *\" -incoming \"*) mode=incoming ;; esac\n"
                       "case \" $* \" in *\" -fsdev \"*) mode=\"$mode shares\" ;; esac\n"
                       "case \" $* \" in *\" --version \"*) ;; *) echo \"$mode\" >> '%1'; pwd >> '%4' ;; esac\n"
                       "if [ \"$mode\" = 'incoming shares' ] && [ -e '%2' ]; then\n"
                       "  n=$(cat '%2')\n"
                       "  first=1\n"
                       "  for a in \"$@\"; do\n"
                       "    [ $first = 1 ] && set -- && first=0\n"
                       "    case \"$a\" in \"local,id=fs$n,\"*) a=\"local,id=gone,${a#local,id=fs$n,}\" ;; esac\n"
                       "    set -- \"$@\" \"$a\"\n"
                       "  done\n"
                       "fi\n"
                       "exec '%3' \"$@\"\n")
            .arg(m_qemuLog, m_breakHotAdd, qemu, m_runDirectories)
            .toUtf8()));
    QVERIFY(QFile::setPermissions(wrapper, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
    qputenv("PATH", QFile::encodeName(bin) + ':' + qgetenv("PATH"));
    // The caller's environment holds a secret: nothing of it may reach the cache.
    qputenv("SANDBOX_BASELINE_TEST_TOKEN", kSecret);
}

void TestVmBaseline::cleanupTestCase()
{
    qunsetenv("SANDBOX_BASELINE_TEST_TOKEN");
}

void TestVmBaseline::manifestRoundTripsAndRefusesWhatIsMissing()
{
    BaselineManifest manifest = sampleManifest();
    manifest.artifactSha256 = QString(64, QLatin1Char('d'));
    manifest.artifactBytes = 1234;
    const Result<BaselineManifest> parsed = BaselineManifest::fromJson(manifest.toJson(), QStringLiteral("m"));
    QVERIFY(parsed.ok());
    QCOMPARE(parsed.value().toJson(), manifest.toJson());
    QCOMPARE(parsed.value().key(), manifest.key());

    BaselineManifest other = manifest;
    other.memoryMb = 1024;
    QVERIFY(other.key() != manifest.key());

    QByteArray broken = manifest.toJson();
    broken.replace("\"kernelSha256\"", "\"kernelDigest\"");
    const Result<BaselineManifest> missing = BaselineManifest::fromJson(broken, QStringLiteral("m"));
    QVERIFY(!missing.ok());
    QCOMPARE(missing.error().where, QStringLiteral("m.kernelSha256"));
    QVERIFY(!BaselineManifest::fromJson("[1]", QStringLiteral("m")).ok());
}

void TestVmBaseline::fileDigestIsSha256()
{
    QTemporaryDir root;
    const QString path = root.filePath(QStringLiteral("blob"));
    QByteArray content;
    for (int i = 0; i < 300000; ++i)
        content += char(i * 7 + i / 251);
    QVERIFY(rewrite(path, content));
    qint64 bytes = 0;
    QCOMPARE(FileDigest::sha256(path, &bytes),
             QString::fromLatin1(QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex()));
    QCOMPARE(bytes, qint64(content.size()));
    QVERIFY(rewrite(path, QByteArray()));
    QCOMPARE(FileDigest::sha256(path),
             QString::fromLatin1(QCryptographicHash::hash({}, QCryptographicHash::Sha256).toHex()));
    QVERIFY(FileDigest::sha256(root.filePath(QStringLiteral("missing"))).isEmpty());
}

void TestVmBaseline::aRememberedDigestFollowsEveryChange()
{
    QTemporaryDir root;
    const QString path = root.filePath(QStringLiteral("artifact"));
    const QByteArray first(200000, 'a');
    QVERIFY(rewrite(path, first));
    struct stat original
    {
    };
    QVERIFY(::stat(QFile::encodeName(path).constData(), &original) == 0);
    // Remembered once the kernel's clock has moved past the file's last change.
    QTRY_VERIFY(ctimeIsPast(path));
    QCOMPARE(FileDigest::rememberedSha256(path), sha256Hex(first));
    QCOMPARE(FileDigest::rememberedSha256(path), sha256Hex(first));

    // The same inode and size, the modification time put back: only the status change time
    // tells, and the digest is computed again.
    QByteArray second = first;
    second[100000] = 'b';
    QVERIFY(rewrite(path, second));
    const timespec times[2] = { original.st_atim, original.st_mtim };
    QVERIFY(::utimensat(AT_FDCWD, QFile::encodeName(path).constData(), times, 0) == 0);
    struct stat changed
    {
    };
    QVERIFY(::stat(QFile::encodeName(path).constData(), &changed) == 0);
    QCOMPARE(changed.st_ino, original.st_ino);
    QCOMPARE(changed.st_size, original.st_size);
    QCOMPARE(changed.st_mtim.tv_sec, original.st_mtim.tv_sec);
    QCOMPARE(changed.st_mtim.tv_nsec, original.st_mtim.tv_nsec);
    QCOMPARE(FileDigest::rememberedSha256(path), sha256Hex(second));
    QTRY_VERIFY(ctimeIsPast(path));
    QCOMPARE(FileDigest::rememberedSha256(path), sha256Hex(second));

    // Another file renamed over it, its times set to the old one's.
    QByteArray third = first;
    third[5] = 'c';
    const QString other = root.filePath(QStringLiteral("other"));
    QVERIFY(rewrite(other, third));
    QVERIFY(::utimensat(AT_FDCWD, QFile::encodeName(other).constData(), times, 0) == 0);
    QVERIFY(::rename(QFile::encodeName(other).constData(), QFile::encodeName(path).constData()) == 0);
    QCOMPARE(FileDigest::rememberedSha256(path), sha256Hex(third));
    qint64 bytes = 0;
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    QVERIFY(fd >= 0);
    QCOMPARE(FileDigest::rememberedSha256(fd, &bytes), sha256Hex(third));
    QCOMPARE(bytes, qint64(third.size()));
    QCOMPARE(::lseek(fd, 0, SEEK_CUR), off_t(0));
    ::close(fd);
    QVERIFY(FileDigest::rememberedSha256(root.filePath(QStringLiteral("missing"))).isEmpty());
}

void TestVmBaseline::eachInvalidationCauseRemovesTheCandidate()
{
    QTemporaryDir root;
    BaselineCache cache(root.filePath(QStringLiteral("baselines")));
    const BaselineManifest expected = sampleManifest();
    const QString directory = cache.directoryFor(expected);
    const QString manifestPath = directory + QStringLiteral("/manifest.json");

    QCOMPARE(cache.lookUp(expected).verdict, BaselineCache::Verdict::Missing);

    storeFake(cache, expected, QByteArray(4096, 'x'));
    {
        BaselineCache::Candidate usable = cache.lookUp(expected);
        QCOMPARE(usable.verdict, BaselineCache::Verdict::Usable);
        QVERIFY(usable.artifactFd >= 0);
        QCOMPARE(::lseek(usable.artifactFd, 0, SEEK_CUR), off_t(0));
        QVERIFY(usable.lease);
        // While leased to this process, a second look finds it in use and leaves it.
        QCOMPARE(cache.lookUp(expected).verdict, BaselineCache::Verdict::Leased);
        QVERIFY(QFileInfo::exists(manifestPath));
    }

    // Invalid manifest: removed.
    QVERIFY(rewrite(manifestPath, "{ not json"));
    BaselineCache::Candidate invalid = cache.lookUp(expected);
    QCOMPARE(invalid.verdict, BaselineCache::Verdict::InvalidManifest);
    QVERIFY(!QFileInfo::exists(directory));

    // Epoch mismatch: removed.
    storeFake(cache, expected, QByteArray(4096, 'x'));
    QByteArray manifest = readAll(manifestPath);
    manifest.replace(QByteArray(QByteArray("\"epoch\": ") + QByteArray::number(BaselineManifest::kEpoch)),
                     QByteArray(QByteArray("\"epoch\": ") + QByteArray::number(BaselineManifest::kEpoch + 1)));
    QVERIFY(rewrite(manifestPath, manifest));
    QCOMPARE(cache.lookUp(expected).verdict, BaselineCache::Verdict::EpochMismatch);
    QVERIFY(!QFileInfo::exists(directory));

    // Digest mismatch: one byte of the artifact changed.
    storeFake(cache, expected, QByteArray(4096, 'x'));
    QByteArray artifact = readAll(directory + QStringLiteral("/state"));
    artifact[100] = 'y';
    QVERIFY(rewrite(directory + QStringLiteral("/state"), artifact));
    const BaselineCache::Candidate tampered = cache.lookUp(expected);
    QCOMPARE(tampered.verdict, BaselineCache::Verdict::DigestMismatch);
    QVERIFY(tampered.reason.contains(QStringLiteral("digest mismatch")));
    QVERIFY(!QFileInfo::exists(directory));

    // A manifest made for another machine under this one's key: invalid.
    storeFake(cache, expected, QByteArray(4096, 'x'));
    manifest = readAll(manifestPath);
    manifest.replace("\"memoryMb\": 512", "\"memoryMb\": 2048");
    QVERIFY(rewrite(manifestPath, manifest));
    QCOMPARE(cache.lookUp(expected).verdict, BaselineCache::Verdict::InvalidManifest);
    QVERIFY(!QFileInfo::exists(directory));

    // A missing artifact: a failed digest.
    storeFake(cache, expected, QByteArray(4096, 'x'));
    QVERIFY(QFile::remove(directory + QStringLiteral("/state")));
    QCOMPARE(cache.lookUp(expected).verdict, BaselineCache::Verdict::DigestMismatch);
    QVERIFY(!QFileInfo::exists(directory));

    // A driver failure on restore: the caller invalidates the usable candidate.
    storeFake(cache, expected, QByteArray(4096, 'x'));
    BaselineCache::Candidate failing = cache.lookUp(expected);
    QCOMPARE(failing.verdict, BaselineCache::Verdict::Usable);
    cache.invalidate(failing);
    QVERIFY(!QFileInfo::exists(directory));
}

void TestVmBaseline::aLiveHolderInAnotherProcessIsRespectedADeadOnesReclaimed()
{
    QTemporaryDir root;
    BaselineCache cache(root.filePath(QStringLiteral("baselines")));
    const BaselineManifest expected = sampleManifest();
    storeFake(cache, expected, QByteArray(2048, 'z'));
    const QString directory = cache.directoryFor(expected);

    // The other engine: this test binary again, holding the lease until killed.
    QProcess other;
    other.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("TST_VMBASELINE_HOLD_LEASE"), directory);
    other.setProcessEnvironment(environment);
    other.start(QCoreApplication::applicationFilePath(), {});
    QVERIFY(other.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(other.readAllStandardOutput().contains("held") || BaselineLease::liveHolder(directory),
                             20000);
    QTRY_COMPARE_WITH_TIMEOUT(BaselineLease::liveHolder(directory), other.processId(), 20000);

    const BaselineCache::Candidate busy = cache.lookUp(expected);
    QCOMPARE(busy.verdict, BaselineCache::Verdict::Leased);
    QVERIFY(busy.reason.contains(QString::number(other.processId())));
    QVERIFY2(QFileInfo::exists(directory + QStringLiteral("/state")), "a leased baseline is never removed");
    QVERIFY(cache.evict(0, 0).isEmpty());
    QVERIFY(!cache.store(expected, [](int) { return Status::success(); }).ok());
    QVERIFY(QFileInfo::exists(directory + QStringLiteral("/state")));

    // The holder dies without releasing: its lease file stays, and is reclaimed.
    other.kill();
    QVERIFY(other.waitForFinished());
    QVERIFY(QFileInfo::exists(directory + QStringLiteral("/lease")));
    QCOMPARE(BaselineLease::liveHolder(directory), qint64(0));
    BaselineCache::Candidate reclaimed = cache.lookUp(expected);
    QCOMPARE(reclaimed.verdict, BaselineCache::Verdict::Usable);
    QCOMPARE(BaselineLease::liveHolder(directory), qint64(::getpid()));
    reclaimed.lease.reset();
    QCOMPARE(BaselineLease::liveHolder(directory), qint64(0));
    QVERIFY(!QFileInfo::exists(directory + QStringLiteral("/lease")));
}

void TestVmBaseline::evictionKeepsTheMostRecentlyUsedWithinCountAndBytes()
{
    QTemporaryDir root;
    BaselineCache cache(root.filePath(QStringLiteral("baselines")));
    QStringList directories;
    for (int i = 0; i < 4; ++i) {
        BaselineManifest manifest = sampleManifest();
        manifest.memoryMb = 256 * (i + 1);
        storeFake(cache, manifest, QByteArray(10000, char('a' + i)));
        directories.append(cache.directoryFor(manifest));
        // Used in order 0, 1, 2, 3 (3 most recently).
        QVERIFY(rewrite(directories.last() + QStringLiteral("/last-used"), QByteArray::number(1000 + i)));
    }
    // Directory 0 in use by this process: never evicted, not counted as inactive.
    BaselineLease::Attempt inUse = BaselineLease::acquire(directories[0]);
    QVERIFY(inUse.lease);

    // By count: two inactive kept, the least recently used inactive one goes.
    QCOMPARE(cache.evict(2, qint64(1) << 40), QStringList{ directories[1] });
    QVERIFY(QFileInfo::exists(directories[0]) && QFileInfo::exists(directories[2])
            && QFileInfo::exists(directories[3]));

    // By bytes: room for two baselines' artifacts (and their small files) in all.
    const QStringList removed = cache.evict(10, 25000);
    QCOMPARE(removed, QStringList{ directories[2] });
    QVERIFY(QFileInfo::exists(directories[0]) && QFileInfo::exists(directories[3]));

    // Released, the oldest one is evicted like the others.
    inUse.lease.reset();
    QCOMPARE(cache.evict(1, 0), (QStringList{ directories[0], directories[3] }));
    QVERIFY(!QFileInfo::exists(directories[0]) && !QFileInfo::exists(directories[3]));
}

void TestVmBaseline::cacheIsOwnerOnly()
{
    QTemporaryDir root;
    BaselineCache cache(root.filePath(QStringLiteral("baselines")));
    const BaselineManifest expected = sampleManifest();
    const mode_t previous = ::umask(0);
    storeFake(cache, expected, QByteArray(100, 'q'));
    ::umask(previous);
    BaselineCache::Candidate leased = cache.lookUp(expected);
    QCOMPARE(leased.verdict, BaselineCache::Verdict::Usable);
    QCOMPARE(modeOf(cache.root()), 0700);
    QDirIterator it(cache.root(), QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    int files = 0;
    while (it.hasNext()) {
        const QString path = it.next();
        const int mode = modeOf(path);
        QVERIFY2(mode == (it.fileInfo().isDir() ? 0700 : 0600),
                 qPrintable(path + QStringLiteral(": ") + QString::number(mode, 8)));
        ++files;
    }
    QCOMPARE(files, 5); // the directory, state, manifest.json, last-used, lease
}

void TestVmBaseline::driversReportTheCapability()
{
    QVERIFY(!VfkitDriver().baselineSupport().available);
    QVERIFY(VfkitDriver().baselineSupport().reason.contains(QStringLiteral("cold boot")));

    VmSpec spec;
    spec.runDirectory = QStringLiteral("C:/Users/me/vm/run-1");
    const VmDriver::Command checkpoint = HyperVDriver::checkpointCommand(spec, QStringLiteral("base'line"));
    QCOMPARE(checkpoint.program, QStringLiteral("powershell.exe"));
    QCOMPARE(checkpoint.arguments.last(),
             QStringLiteral("$ErrorActionPreference = 'Stop'; Set-VM -Name 'sandbox-vm-run-1' -CheckpointType "
                            "Standard; Checkpoint-VM -Name 'sandbox-vm-run-1' -SnapshotName 'base''line'"));
    const VmDriver::Command restore = HyperVDriver::restoreCheckpointCommand(spec, QStringLiteral("b1"));
    QCOMPARE(restore.arguments.last(),
             QStringLiteral("$ErrorActionPreference = 'Stop'; Restore-VMCheckpoint -VMName 'sandbox-vm-run-1' -Name "
                            "'b1' -Confirm:$false; Start-VM -VMName 'sandbox-vm-run-1'"));
    // Not on this host: the same reason as booting, and nothing is attempted.
    QVERIFY(!HyperVDriver().baselineSupport().available);
    QVERIFY(!HyperVDriver().saveBaseline(spec, -1).ok());
    QVERIFY(!HyperVDriver().shareAttachSupport(spec, VmDriver::Acceleration::Software).available);

    // QEMU restoring a workspace's VM: the shares' backends (read-only ones read-only) and
    // none of their devices, which come over the monitor once it runs; KVM's microvm cannot.
    const QemuDriver qemu(QStringLiteral("/usr/bin/qemu-system-x86_64"));
    VmSpec workspace;
    workspace.runDirectory = QStringLiteral("/tmp/run");
    workspace.monitorSocket = QStringLiteral("/tmp/run/monitor");
    workspace.shares = { { QStringLiteral("/work/ws"), true }, { QStringLiteral("/usr"), false } };
    workspace.incoming = true;
    workspace.sharesAttachedLater = true;
    const Result<VmDriver::Command> restoring = qemu.bootCommand(workspace, VmDriver::Acceleration::Software);
    QVERIFY(restoring.ok());
    const QStringList args = restoring.value().arguments;
    QVERIFY(args.contains(QStringLiteral("local,id=fs0,path=/work/ws,security_model=none")));
    QVERIFY(args.contains(QStringLiteral("local,id=fs1,path=/usr,security_model=none,readonly=on")));
    QVERIFY(!args.join(QLatin1Char(' ')).contains(QStringLiteral("virtio-9p")));
    QVERIFY(args.contains(QStringLiteral("-incoming")));
    QVERIFY(!qemu.bootCommand(workspace, VmDriver::Acceleration::Hardware).ok());
    workspace.sharesAttachedLater = false;
    workspace.incoming = false;
    const QString cold
        = qemu.bootCommand(workspace, VmDriver::Acceleration::Software).value().arguments.join(QLatin1Char(' '));
    QVERIFY(cold.contains(QStringLiteral("virtio-9p-pci,fsdev=fs1,mount_tag=s1")));
    // A baseline's share slots: devices from boot, the shares' backends in the first ones,
    // an empty read-only directory in the rest; only shares beyond them wait for a hot-add.
    workspace.shareSlots = 3;
    workspace.emptyShare = QStringLiteral("/tmp/run/empty");
    workspace.sharesAttachedLater = true;
    workspace.incoming = true;
    const QString slotted
        = qemu.bootCommand(workspace, VmDriver::Acceleration::Software).value().arguments.join(QLatin1Char(' '));
    QVERIFY(slotted.contains(QStringLiteral("local,id=fs2,path=/tmp/run/empty,security_model=none,readonly=on")));
    QVERIFY(slotted.contains(QStringLiteral("local,id=fs1,path=/usr,security_model=none,readonly=on")));
    for (int i = 0; i < 3; ++i)
        QVERIFY(slotted.contains(QStringLiteral("-device virtio-9p-pci,fsdev=fs%1,mount_tag=s%1").arg(i)));
    QVERIFY(!slotted.contains(QStringLiteral("mount_tag=s3")));
    workspace.shares = QList<GuestLayout::Share>(30, GuestLayout::Share{ QStringLiteral("/usr"), false });
    QVERIFY(!qemu.shareAttachSupport(workspace, VmDriver::Acceleration::Software).available);
    // A baseline's full set of slots: 20 on the root bus, the rest behind a bridge; the root
    // bus's 8 free slots take hot-added shares beyond them, one more is refused.
    workspace.shareSlots = VmLauncher::kBaselineShareSlots;
    workspace.shares = QList<GuestLayout::Share>(3, GuestLayout::Share{ QStringLiteral("/usr"), false });
    const QString full
        = qemu.bootCommand(workspace, VmDriver::Acceleration::Software).value().arguments.join(QLatin1Char(' '));
    QCOMPARE(full.count(QStringLiteral("-device virtio-9p-pci,")), VmLauncher::kBaselineShareSlots);
    QVERIFY(full.contains(QStringLiteral("-device virtio-9p-pci,fsdev=fs19,mount_tag=s19 -fsdev local,id=fs20,"
                                         "path=/tmp/run/empty,security_model=none,readonly=on -device pci-bridge,"
                                         "id=bridge0,chassis_nr=1 -device virtio-9p-pci,fsdev=fs20,mount_tag=s20,"
                                         "bus=bridge0,addr=0x1 ")));
    QVERIFY(
        full.contains(QStringLiteral("mount_tag=s%1,bus=bridge0,addr=0x1e").arg(VmLauncher::kBaselineShareSlots - 1)));
    workspace.shares = QList<GuestLayout::Share>(VmLauncher::kBaselineShareSlots + 8,
                                                 GuestLayout::Share{ QStringLiteral("/usr"), false });
    QVERIFY(qemu.shareAttachSupport(workspace, VmDriver::Acceleration::Software).available);
    workspace.shares.append(GuestLayout::Share{ QStringLiteral("/usr"), false });
    QVERIFY(!qemu.shareAttachSupport(workspace, VmDriver::Acceleration::Software).available);
}

TestVmBaseline::Activation TestVmBaseline::activate(std::shared_ptr<VmLauncher> &launcher, FixedAnswerHost &host)
{
    launcher = std::make_shared<VmLauncher>();
    launcher->attach(&host);
    ResolvedSettings settings;
    settings.values.values.insert(QStringLiteral("helperSource"),
                                  QUrl::fromLocalFile(QStringLiteral(SANDBOX_VM_BUNDLE_DIR "/")).toString());
    settings.values.values.insert(QStringLiteral("baselineEnabled"), true);
    // A secret the engine resolved for this backend: the cache must not hold it either.
    settings.secrets.insert(QStringLiteral("token"), QString::fromLatin1(kSecret));
    Activation activation;
    activation.status = launcher->configure(settings).result();
    if (!activation.status.ok())
        return activation;
    QFuture<Status> prepared = launcher->prepare();
    prepared.waitForFinished();
    activation.status = prepared.result();
    activation.notes = host.takeNotes();
    activation.restored = launcher->lastPrepareRestored();
    activation.bootMs = launcher->lastBootMs();
    return activation;
}

void TestVmBaseline::coldBootSavesThenActivationRestoresAndRunsCommands()
{
    FixedAnswerHost host(false, m_stateDirectory);
    std::shared_ptr<VmLauncher> first;
    const Activation cold = activate(first, host);
    QVERIFY2(cold.status.ok(), qPrintable(cold.status.ok() ? QString() : cold.status.error().toString()));
    QVERIFY(!cold.restored);
    QCOMPARE(cold.notes,
             (QStringList{ QStringLiteral("no baseline yet; cold boot"), QStringLiteral("baseline saved") }));
    const QString cacheRoot = first->baselineDirectory();
    const QStringList keys = QDir(cacheRoot).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QCOMPARE(keys.size(), 1);
    const QString directory = cacheRoot + QLatin1Char('/') + keys.first();
    QVERIFY(QFileInfo(directory + QStringLiteral("/state")).size() > 0);
    const Result<BaselineManifest> manifest
        = BaselineManifest::fromJson(readAll(directory + QStringLiteral("/manifest.json")), QStringLiteral("m"));
    QVERIFY(manifest.ok());
    QCOMPARE(manifest.value().uid, uint(::getuid()));
    QVERIFY(manifest.value().driverVersion.startsWith(QStringLiteral("QEMU emulator version")));
    // The image with an empty layout prepare() wrote once, not one of the VM's own.
    QVERIFY(manifest.value().machine.contains(m_stateDirectory + QStringLiteral("/initramfs-baseline.cpio")));
    QCOMPARE(manifest.value().helperSha256.size(), VmLauncher::requiredHelpers().size());
    // QEMU's sockets are in the engine's owner-only runtime directory, never in the shared
    // /tmp, where a command of another sandbox could rename them or listen first.
    const QString runtime = m_root->filePath(QStringLiteral("engine-state/run"));
    const QList<QByteArray> runDirectories = readAll(m_runDirectories).trimmed().split('\n');
    QVERIFY(!runDirectories.isEmpty());
    for (const QByteArray &run : runDirectories)
        QVERIFY2(QString::fromUtf8(run).startsWith(runtime + QStringLiteral("/sandbox-vm-")), run.constData());
    QCOMPARE(QFileInfo(runtime).permissions() & ~(QFile::ReadUser | QFile::WriteUser | QFile::ExeUser),
             QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    // The VM the baseline was saved from goes on serving commands.
    const RunResult afterSave = runIn(*first, { QStringLiteral("/bin/echo"), QStringLiteral("saved") }, defaultPolicy(),
                                      m_workspace, {}, 0, 300000);
    QVERIFY2(afterSave.started && afterSave.status.exitCode == 0, qPrintable(afterSave.error));
    first.reset();

    // A second engine's activation: restored, and commands run.
    std::shared_ptr<VmLauncher> second;
    const Activation warm = activate(second, host);
    QVERIFY2(warm.status.ok(), qPrintable(warm.status.ok() ? QString() : warm.status.error().toString()));
    QVERIFY(warm.restored);
    QCOMPARE(warm.notes, QStringList{ QStringLiteral("restored from baseline %1").arg(keys.first()) });
    QCOMPARE(BaselineLease::liveHolder(directory), qint64(::getpid()));
    const RunResult afterRestore
        = runIn(*second, { QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("echo restored; date +%Y") },
                defaultPolicy(), m_workspace, {}, 0, 300000);
    QVERIFY2(afterRestore.started && afterRestore.status.exitCode == 0, qPrintable(afterRestore.error));
    QVERIFY(afterRestore.out.startsWith("restored\n"));
    second.reset();
    QTRY_COMPARE_WITH_TIMEOUT(BaselineLease::liveHolder(directory), qint64(0), 20000);

    // No file under the cache holds the secret, its base64 or its sha256 (hex or raw).
    const QByteArray digest = QCryptographicHash::hash(kSecret, QCryptographicHash::Sha256);
    const QList<QByteArray> needles{ kSecret, kSecret.toBase64(), kSecret.toBase64(QByteArray::Base64UrlEncoding),
                                     digest,  digest.toHex(),     digest.toBase64() };
    QDirIterator it(cacheRoot, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    int files = 0;
    while (it.hasNext()) {
        const QString path = it.next();
        const QByteArray content = readAll(path);
        for (const QByteArray &needle : needles)
            QVERIFY2(!content.contains(needle), qPrintable(path));
        ++files;
    }
    QVERIFY(files >= 3);
}

QStringList TestVmBaseline::takeShareStarts()
{
    QStringList starts;
    for (const QByteArray &line : readAll(m_qemuLog).split('\n')) {
        if (line.endsWith(" shares"))
            starts.append(QString::fromUtf8(line.left(line.size() - 7)));
    }
    rewrite(m_qemuLog, QByteArray());
    return starts;
}

void TestVmBaseline::aWorkspaceVmIsRestoredWithTheColdBootsShares()
{
    FixedAnswerHost host(false, m_stateDirectory);
    // Under /tmp (the guest's own, never shared read-only), so the denied path inside the
    // workspace splits only the workspace, not the readable directories above it.
    QTemporaryDir root(QDir::tempPath() + QStringLiteral("/tst_vmbaseline-ws-XXXXXX"));
    QVERIFY(root.isValid());
    const QString workspace = root.path();
    QVERIFY(QDir().mkpath(workspace + QStringLiteral("/secret")) && QDir().mkpath(workspace + QStringLiteral("/locked"))
            && QDir().mkpath(workspace + QStringLiteral("/src")));
    QVERIFY(rewrite(workspace + QStringLiteral("/secret/key"), "denied-content"));
    QVERIFY(rewrite(workspace + QStringLiteral("/locked/readme"), "read-only content\n"));
    Policy policy = defaultPolicy({ workspace + QStringLiteral("/secret") });
    policy.readOnly.append(workspace + QStringLiteral("/locked"));

    std::shared_ptr<VmLauncher> launcher;
    const Activation activation = activate(launcher, host);
    QVERIFY2(activation.status.ok(),
             qPrintable(activation.status.ok() ? QString() : activation.status.error().toString()));
    QVERIFY(activation.restored);
    takeShareStarts();
    launcher->takeWorkspaceBootNotes();

    // The first command in the workspace: its VM restored, the shares attached after.
    const RunResult first = runIn(*launcher,
                                  { QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                                    QStringLiteral("echo written > src/out.txt && cat locked/readme; "
                                                   "echo tampered > locked/readme || echo refused-readonly; "
                                                   "echo new > locked/new || echo refused-new; "
                                                   "ls -a secret 2>/dev/null | grep -q key && echo secret-visible; "
                                                   "grep -q denied-content secret/key 2>/dev/null && echo secret-read; "
                                                   "echo done") },
                                  policy, workspace, {}, 0, 300000);
    const QStringList notes = launcher->takeWorkspaceBootNotes();
    QVERIFY2(first.started && first.status.exitCode == 0,
             qPrintable(first.error + QString::fromUtf8(first.err) + notes.join(QLatin1Char('|'))));
    QCOMPARE(notes.size(), 1);
    QVERIFY2(notes.first().startsWith(QStringLiteral("workspace VM restored from baseline ")),
             qPrintable(notes.first()));
    // The command whose spawn started that VM carries the note, as the engine publishes it.
    QCOMPARE(first.notes, notes);
    QCOMPARE(takeShareStarts(), QStringList{ QStringLiteral("incoming") });

    // What the command wrote is on the host; the read-only share refused writes; the denied
    // path is not there.
    QCOMPARE(readAll(workspace + QStringLiteral("/src/out.txt")), QByteArray("written\n"));
    QCOMPARE(first.out, QByteArray("read-only content\nrefused-readonly\nrefused-new\ndone\n"));
    QCOMPARE(readAll(workspace + QStringLiteral("/locked/readme")), QByteArray("read-only content\n"));
    QVERIFY(!QFileInfo::exists(workspace + QStringLiteral("/locked/new")));

    // The same VM serves the next command, and the share set is the cold boot's: the guest's
    // 9p mounts are exactly the layout's, read-only ones read-only.
    const Result<GuestLayout> layout = GuestLayout::fromPolicy(policy, workspace, QDir::homePath());
    QVERIFY(layout.ok());
    const RunResult mounts = runIn(*launcher, { QStringLiteral("/bin/cat"), QStringLiteral("/proc/mounts") }, policy,
                                   workspace, {}, 0, 300000);
    QVERIFY2(mounts.started && mounts.status.exitCode == 0, qPrintable(mounts.error));
    QVERIFY(mounts.notes.isEmpty());
    QStringList mounted;
    for (const QByteArray &line : mounts.out.split('\n')) {
        const QList<QByteArray> fields = line.split(' ');
        if (fields.size() >= 4 && fields[2] == "9p") {
            const bool readOnly = fields[3].split(',').contains("ro");
            mounted.append(QString::fromUtf8(fields[1]).replace(QStringLiteral("\\040"), QStringLiteral(" "))
                           + (readOnly ? QStringLiteral(" ro") : QStringLiteral(" rw")));
        }
    }
    QStringList expected;
    for (const GuestLayout::Share &share : layout.value().shares)
        expected.append(share.hostPath + (share.writable ? QStringLiteral(" rw") : QStringLiteral(" ro")));
    mounted.sort();
    expected.sort();
    QCOMPARE(mounted, expected);
    QVERIFY(takeShareStarts().isEmpty());
    QVERIFY(launcher->takeWorkspaceBootNotes().isEmpty());
    launcher.reset();
}

void TestVmBaseline::aFailedHotAddCostsTheWorkspaceVmOneColdBoot()
{
    FixedAnswerHost host(false, m_stateDirectory);
    // More shares than the baseline's pre-plugged slots: a denied path splits the workspace
    // into its subdirectories, the ones beyond the slots hot-added on restore.
    QTemporaryDir root(QDir::tempPath() + QStringLiteral("/tst_vmbaseline-hot-XXXXXX"));
    QVERIFY(root.isValid());
    const QString workspace = root.path();
    QVERIFY(QDir().mkpath(workspace + QStringLiteral("/secret")));
    const Policy policy = defaultPolicy({ workspace + QStringLiteral("/secret") });
    qsizetype shares = 0;
    for (int i = 0; shares <= VmLauncher::kBaselineShareSlots + 1; ++i) {
        QVERIFY(QDir().mkpath(workspace + QStringLiteral("/d%1").arg(i)));
        const Result<GuestLayout> layout = GuestLayout::fromPolicy(policy, workspace, QDir::homePath());
        QVERIFY(layout.ok());
        shares = layout.value().shares.size();
    }
    std::shared_ptr<VmLauncher> launcher;
    const Activation activation = activate(launcher, host);
    QVERIFY2(activation.status.ok(),
             qPrintable(activation.status.ok() ? QString() : activation.status.error().toString()));
    QVERIFY(activation.restored);
    takeShareStarts();
    launcher->takeWorkspaceBootNotes();

    // QEMU cannot add the first share's device: that VM is discarded, the workspace's VM
    // cold boots once in its place, and the command runs as if nothing happened.
    QVERIFY(rewrite(m_breakHotAdd, QByteArray::number(shares - 1)));
    const RunResult run = runIn(*launcher,
                                { QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                                  QStringLiteral("echo after-fallback > d0/out.txt && echo ran") },
                                policy, workspace, {}, 0, 300000);
    QFile::remove(m_breakHotAdd);
    QVERIFY2(run.started && run.status.exitCode == 0, qPrintable(run.error + QString::fromUtf8(run.err)));
    QCOMPARE(run.out, QByteArray("ran\n"));
    QCOMPARE(readAll(workspace + QStringLiteral("/d0/out.txt")), QByteArray("after-fallback\n"));
    QCOMPARE(takeShareStarts(), (QStringList{ QStringLiteral("incoming"), QStringLiteral("boot") }));
    const QStringList notes = launcher->takeWorkspaceBootNotes();
    QCOMPARE(notes.size(), 1);
    QVERIFY2(notes.first().startsWith(QStringLiteral("workspace VM restore discarded: QEMU did not add the device of "
                                                     "share s%1 ")
                                          .arg(shares - 1)),
             qPrintable(notes.first()));
    QVERIFY(notes.first().endsWith(QStringLiteral("; cold boot")));
    QCOMPARE(run.notes, notes);
    launcher.reset();
}

void TestVmBaseline::aBaselineTheDriverCannotLoadCostsOneColdBoot()
{
    FixedAnswerHost host(false, m_stateDirectory);
    const QString cacheRoot = m_stateDirectory + QStringLiteral("/baselines");
    const QStringList keys = QDir(cacheRoot).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QCOMPARE(keys.size(), 1);
    const QString directory = cacheRoot + QLatin1Char('/') + keys.first();

    // Tampered artifact, in place, its modification time put back (this process restored it
    // before, so its digest is remembered): the digest check catches it before QEMU sees it.
    const QByteArray artifactPath = QFile::encodeName(directory + QStringLiteral("/state"));
    struct stat before
    {
    };
    QVERIFY(::stat(artifactPath.constData(), &before) == 0);
    QByteArray artifact = readAll(directory + QStringLiteral("/state"));
    QVERIFY(artifact.size() > 1000);
    artifact[artifact.size() / 2] = char(artifact.at(artifact.size() / 2) ^ 0x55);
    QVERIFY(rewrite(directory + QStringLiteral("/state"), artifact));
    const timespec times[2] = { before.st_atim, before.st_mtim };
    QVERIFY(::utimensat(AT_FDCWD, artifactPath.constData(), times, 0) == 0);
    std::shared_ptr<VmLauncher> launcher;
    const Activation tampered = activate(launcher, host);
    QVERIFY2(tampered.status.ok(), qPrintable(tampered.status.ok() ? QString() : tampered.status.error().toString()));
    QVERIFY(!tampered.restored);
    QCOMPARE(tampered.notes.size(), 2);
    QVERIFY2(tampered.notes[0].startsWith(QStringLiteral("baseline invalid: digest mismatch")),
             qPrintable(tampered.notes[0]));
    QVERIFY(tampered.notes[0].endsWith(QStringLiteral("; cold boot")));
    QCOMPARE(tampered.notes[1], QStringLiteral("baseline saved"));
    launcher.reset();

    // Garbage that passes the digest (the manifest rewritten to match): QEMU cannot load it,
    // the candidate goes and the activation boots once.
    const QByteArray garbage(1 << 16, '\x5a');
    QVERIFY(rewrite(directory + QStringLiteral("/state"), garbage));
    QByteArray manifest = readAll(directory + QStringLiteral("/manifest.json"));
    const Result<BaselineManifest> parsed = BaselineManifest::fromJson(manifest, QStringLiteral("m"));
    QVERIFY(parsed.ok());
    BaselineManifest forged = parsed.value();
    forged.artifactSha256 = QString::fromLatin1(QCryptographicHash::hash(garbage, QCryptographicHash::Sha256).toHex());
    forged.artifactBytes = garbage.size();
    QVERIFY(rewrite(directory + QStringLiteral("/manifest.json"), forged.toJson()));
    const Activation unloadable = activate(launcher, host);
    QVERIFY2(unloadable.status.ok(),
             qPrintable(unloadable.status.ok() ? QString() : unloadable.status.error().toString()));
    QVERIFY(!unloadable.restored);
    QCOMPARE(unloadable.notes.size(), 2);
    QVERIFY2(unloadable.notes[0].startsWith(QStringLiteral("baseline invalid: driver failure on restore")),
             qPrintable(unloadable.notes[0]));
    QCOMPARE(unloadable.notes[1], QStringLiteral("baseline saved"));
    const RunResult works
        = runIn(*launcher, { QStringLiteral("/bin/true") }, defaultPolicy(), m_workspace, {}, 0, 300000);
    QVERIFY2(works.started && works.status.exitCode == 0, qPrintable(works.error));
    launcher.reset();
}

int main(int argc, char **argv)
{
    // The other engine of the lease test: holds the lease until it is killed.
    const QByteArray hold = qgetenv("TST_VMBASELINE_HOLD_LEASE");
    if (!hold.isEmpty()) {
        QCoreApplication app(argc, argv);
        BaselineLease::Attempt attempt = BaselineLease::acquire(QString::fromLocal8Bit(hold));
        if (!attempt.lease)
            return 3;
        std::fputs("held\n", stdout);
        std::fflush(stdout);
        return app.exec();
    }
    QCoreApplication app(argc, argv);
    TestVmBaseline test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_vmbaseline.moc"
