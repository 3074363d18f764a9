// The disk the Hyper-V driver boots the guest from, checked by the tools that read each
// layer (objdump/objcopy for the EFI image, fsck.fat and mtools for the FAT partition,
// sfdisk for the GPT, qemu-img for the VHDX) and, as a whole, booted by QEMU with OVMF's
// UEFI firmware from the VHDX to the guest's exec agent reporting ready.
#include "GuestProtocol.h"
#include "TestFiles.h"
#include "launchers/vm/VmLauncher.h"
#include "launchers/vm/drivers/HyperVDriver.h"
#include "launchers/vm/guest/GuestImage.h"
#include "launchers/vm/guest/GuestLayout.h"
#include "launchers/vm/image/FatImage.h"
#include "launchers/vm/image/GptDisk.h"
#include "launchers/vm/image/HyperVBootDisk.h"
#include "launchers/vm/image/LittleEndian.h"
#include "launchers/vm/image/UnifiedKernelImage.h"
#include "launchers/vm/image/VhdxImage.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalSocket>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

#include <memory>

using namespace sandbox;
using sandbox::test::readFile;
using sandbox::test::writeFile;

namespace {

struct Run
{
    int status = -1;
    QByteArray output;
};

Run run(const QString &program, const QStringList &arguments)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, arguments);
    Run result;
    if (!process.waitForFinished(120000))
        return result;
    result.status = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.output = process.readAll();
    return result;
}

QByteArray pattern(qsizetype size, int seed)
{
    QByteArray data(size, Qt::Uninitialized);
    for (qsizetype i = 0; i < size; ++i)
        data[i] = char((i * 7 + seed + i / 4096) & 0xff);
    return data;
}

} // namespace

class TestHyperVBootDisk : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void unifiedImageCarriesKernelInitramfsAndCommandLine();
    void unifiedImageRefusesWhatIsNotAStub();
    void fatPartitionChecksCleanAndHoldsTheLoader();
    void gptDiskHasOneSystemPartition();
    void vhdxRefusesAPartialBlock();
    void theDriverWritesItsDiskWithTheVsockChannel();
    void bootDiskBootsToTheAgentUnderUefi();

private:
    std::unique_ptr<QTemporaryDir> m_root;
    QByteArray m_stub;
};

void TestHyperVBootDisk::initTestCase()
{
    m_root = std::make_unique<QTemporaryDir>(QStringLiteral("/var/tmp/tst_hypervbootdisk-XXXXXX"));
    QVERIFY(m_root->isValid());
    m_stub = readFile(HyperVBootDisk::defaultStub());
    QVERIFY2(!m_stub.isEmpty(), "the EFI stub of systemd-boot-efi is not installed");
}

void TestHyperVBootDisk::unifiedImageCarriesKernelInitramfsAndCommandLine()
{
    const QByteArray kernel = pattern(3 * 1024 * 1024 + 17, 1);
    const QByteArray initramfs = pattern(1024 * 1024 + 5, 2);
    const QString commandLine = QStringLiteral("console=ttyS0 rdinit=/init sandbox.channel=vsock");
    const Result<QByteArray> image = UnifiedKernelImage::build(m_stub, kernel, initramfs, commandLine);
    QVERIFY2(image.ok(), image.ok() ? "" : qPrintable(image.error().message));
    const QString path = m_root->filePath(QStringLiteral("uki.efi"));
    QVERIFY(writeFile(path, image.value()));

    const Run headers = run(QStringLiteral("objdump"), { QStringLiteral("-h"), path });
    QCOMPARE(headers.status, 0);
    QVERIFY2(headers.output.contains("pei-x86-64"), headers.output.constData());
    // Each added section, with its size, page-aligned, after the stub's own.
    const auto section = [&](const char *name) {
        const QRegularExpression row(QStringLiteral("\\s%1\\s+([0-9a-f]+)\\s+([0-9a-f]+)").arg(QLatin1String(name)));
        const QRegularExpressionMatch match = row.match(QString::fromUtf8(headers.output));
        return std::pair{ match.captured(1).toULongLong(nullptr, 16), match.captured(2).toULongLong(nullptr, 16) };
    };
    QCOMPARE(section(".cmdline").first, quint64(commandLine.size()));
    QCOMPARE(section(".linux").first, quint64(kernel.size()));
    QCOMPARE(section(".initrd").first, quint64(initramfs.size()));
    QVERIFY(section(".sdmagic").second < section(".cmdline").second);
    QCOMPARE(section(".linux").second % 4096, 0u);
    QVERIFY(section(".linux").second < section(".initrd").second);

    const struct
    {
        const char *name;
        QByteArray content;
    } parts[] = { { ".cmdline", commandLine.toUtf8() }, { ".linux", kernel }, { ".initrd", initramfs } };
    for (const auto &part : parts) {
        const QString out = m_root->filePath(QStringLiteral("section") + QLatin1String(part.name));
        const Run copy = run(QStringLiteral("objcopy"),
                             { QStringLiteral("-O"), QStringLiteral("binary"),
                               QStringLiteral("--only-section=") + QLatin1String(part.name), path, out });
        QVERIFY2(copy.status == 0, copy.output.constData());
        QVERIFY2(readFile(out) == part.content, part.name);
    }
}

void TestHyperVBootDisk::unifiedImageRefusesWhatIsNotAStub()
{
    const Result<QByteArray> text = UnifiedKernelImage::build("#!/bin/sh\n", "k", "i", QStringLiteral("c"));
    QVERIFY(!text.ok());
    QCOMPARE(text.error().where, QStringLiteral("builtin:vm.bootdisk"));
    QVERIFY2(text.error().message.contains(QStringLiteral("not a PE image")), qPrintable(text.error().message));
    QByteArray truncated = m_stub.left(0x100);
    const Result<QByteArray> cut = UnifiedKernelImage::build(truncated, "k", "i", QStringLiteral("c"));
    QVERIFY(!cut.ok());
    // Headers that point outside the file, or claim more sections than it holds.
    QByteArray farHeader = m_stub;
    qToLittleEndian<quint32>(quint32(m_stub.size() + 16), farHeader.data() + 0x3C);
    const Result<QByteArray> noHeader = UnifiedKernelImage::build(farHeader, "k", "i", QStringLiteral("c"));
    QVERIFY(!noHeader.ok());
    QVERIFY2(noHeader.error().message.contains(QStringLiteral("no PE header")), qPrintable(noHeader.error().message));
    const quint32 pe = qFromLittleEndian<quint32>(m_stub.constData() + 0x3C);
    QByteArray manySections = m_stub;
    qToLittleEndian<quint16>(0xFFFF, manySections.data() + pe + 6);
    const Result<QByteArray> tooMany = UnifiedKernelImage::build(manySections, "k", "i", QStringLiteral("c"));
    QVERIFY(!tooMany.ok());
    QVERIFY2(tooMany.error().message.contains(QStringLiteral("cut short")), qPrintable(tooMany.error().message));
    // Sections whose data starts right after the section table: no room for three more.
    QByteArray crowded = m_stub;
    const qsizetype table = pe + 24 + qFromLittleEndian<quint16>(m_stub.constData() + pe + 20);
    const quint16 count = qFromLittleEndian<quint16>(m_stub.constData() + pe + 6);
    qToLittleEndian<quint32>(quint32(table + count * 40 + 40), crowded.data() + table + 20);
    const Result<QByteArray> noRoom = UnifiedKernelImage::build(crowded, "k", "i", QStringLiteral("c"));
    QVERIFY(!noRoom.ok());
    QVERIFY2(noRoom.error().message.contains(QStringLiteral("no room")), qPrintable(noRoom.error().message));
    QByteArray arm = m_stub;
    qToLittleEndian<quint16>(0xAA64, arm.data() + pe + 4);
    const Result<QByteArray> foreign = UnifiedKernelImage::build(arm, "k", "i", QStringLiteral("c"));
    QVERIFY(!foreign.ok());
    QVERIFY2(foreign.error().message.contains(QStringLiteral("not an x86-64 image")),
             qPrintable(foreign.error().message));
    // An image that already has the sections is not a stub.
    const Result<QByteArray> once = UnifiedKernelImage::build(m_stub, "k", "i", QStringLiteral("c"));
    QVERIFY(once.ok());
    const Result<QByteArray> twice = UnifiedKernelImage::build(once.value(), "k", "i", QStringLiteral("c"));
    QVERIFY(!twice.ok());
    QVERIFY2(twice.error().message.contains(QStringLiteral("already has a .cmdline section")),
             qPrintable(twice.error().message));
}

void TestHyperVBootDisk::fatPartitionChecksCleanAndHoldsTheLoader()
{
    for (const qsizetype size : { qsizetype(0), qsizetype(1), qsizetype(4096), qsizetype(9 * 1024 * 1024 + 3),
                                  qsizetype(300 * 1024 * 1024) }) {
        const QByteArray loader = pattern(size, int(size % 251));
        const Result<QByteArray> partition = FatImage::withBootLoader(loader, 2048);
        QVERIFY2(partition.ok(), partition.ok() ? "" : qPrintable(partition.error().message));
        QCOMPARE(partition.value().size() % FatImage::kSectorBytes, 0);
        const QString image = m_root->filePath(QStringLiteral("esp-%1.img").arg(size));
        QVERIFY(writeFile(image, partition.value()));
        const Run check = run(QStringLiteral("fsck.fat"), { QStringLiteral("-n"), QStringLiteral("-v"), image });
        QVERIFY2(check.status == 0, check.output.constData());
        QVERIFY2(check.output.contains("16 bit entries"), check.output.constData());
        const QString out = m_root->filePath(QStringLiteral("loader-%1").arg(size));
        const Run copy = run(
            QStringLiteral("mcopy"),
            { QStringLiteral("-n"), QStringLiteral("-i"), image, QStringLiteral("::/EFI/BOOT/BOOTX64.EFI"), out });
        QVERIFY2(copy.status == 0, copy.output.constData());
        QVERIFY(readFile(out) == loader);
        QVERIFY(QFile::remove(image));
    }
}

void TestHyperVBootDisk::gptDiskHasOneSystemPartition()
{
    const Result<QByteArray> partition = FatImage::withBootLoader(pattern(5000, 3), GptDisk::kFirstPartitionSector);
    QVERIFY(partition.ok());
    const QUuid diskId = QUuid::createUuid();
    const QUuid partitionId = QUuid::createUuid();
    const QByteArray disk = GptDisk::withSystemPartition(partition.value(), diskId, partitionId);
    QCOMPARE(disk.size() % (1024 * 1024), 0);
    const QString path = m_root->filePath(QStringLiteral("disk.img"));
    QVERIFY(writeFile(path, disk));
    // sfdisk checks both headers' and the entries' CRCs, and says so when one is wrong.
    const Run verify = run(QStringLiteral("sfdisk"), { QStringLiteral("--verify"), path });
    QVERIFY2(verify.status == 0 && !verify.output.contains("corrupt"),
             qPrintable(QString::number(verify.status) + QString::fromUtf8(verify.output)));
    const Run dump = run(QStringLiteral("sfdisk"), { QStringLiteral("--json"), path });
    QCOMPARE(dump.status, 0);
    const QJsonObject table
        = QJsonDocument::fromJson(dump.output).object().value(QStringLiteral("partitiontable")).toObject();
    QCOMPARE(table.value(QStringLiteral("label")).toString(), QStringLiteral("gpt"));
    QCOMPARE(table.value(QStringLiteral("id")).toString().toLower(), diskId.toString(QUuid::WithoutBraces));
    const QJsonArray partitions = table.value(QStringLiteral("partitions")).toArray();
    QCOMPARE(partitions.size(), 1);
    const QJsonObject esp = partitions.at(0).toObject();
    QCOMPARE(esp.value(QStringLiteral("start")).toInt(), 2048);
    QCOMPARE(esp.value(QStringLiteral("size")).toInteger(), partition.value().size() / 512);
    QCOMPARE(esp.value(QStringLiteral("type")).toString().toLower(),
             QStringLiteral("c12a7328-f81f-11d2-ba4b-00a0c93ec93b"));
    QCOMPARE(esp.value(QStringLiteral("uuid")).toString().toLower(), partitionId.toString(QUuid::WithoutBraces));
    // A changed entry no longer matches the header's CRC: sfdisk notices.
    QByteArray corrupt = disk;
    corrupt[2 * 512 + 40] = char(corrupt.at(2 * 512 + 40) ^ 1);
    const QString corruptPath = m_root->filePath(QStringLiteral("corrupt.img"));
    QVERIFY(writeFile(corruptPath, corrupt));
    const Run noticed = run(QStringLiteral("sfdisk"), { QStringLiteral("--verify"), corruptPath });
    QVERIFY2(noticed.output.contains("corrupt"), noticed.output.constData());
    // The partition's bytes are the FAT image, unchanged.
    QVERIFY(disk.mid(2048 * 512, partition.value().size()) == partition.value());
}

void TestHyperVBootDisk::vhdxRefusesAPartialBlock()
{
    const QString path = m_root->filePath(QStringLiteral("partial.vhdx"));
    const Status refused = VhdxImage::write(path, QByteArray(1000, 'x'), {});
    QVERIFY(!refused.ok());
    QVERIFY2(refused.error().message.contains(QStringLiteral("not a whole number")),
             qPrintable(refused.error().message));
    QVERIFY(!QFile::exists(path));
    const Status missing = HyperVBootDisk::write({ {}, m_root->filePath(QStringLiteral("no-kernel")), {}, {} },
                                                 m_root->filePath(QStringLiteral("never.vhdx")));
    QVERIFY(!missing.ok());
    QVERIFY2(missing.error().message.contains(QStringLiteral("guest kernel")), qPrintable(missing.error().message));
    QVERIFY(!QFile::exists(m_root->filePath(QStringLiteral("never.vhdx"))));
}

void TestHyperVBootDisk::theDriverWritesItsDiskWithTheVsockChannel()
{
    VmSpec spec;
    spec.runDirectory = m_root->filePath(QStringLiteral("run-1"));
    QVERIFY(QDir().mkpath(spec.runDirectory));
    spec.kernel = m_root->filePath(QStringLiteral("vmlinuz"));
    spec.initramfs = m_root->filePath(QStringLiteral("initramfs"));
    spec.kernelCommandLine = QStringLiteral("console=ttyS0 rdinit=/init");
    const QByteArray kernel = pattern(2 * 1024 * 1024, 5);
    const QByteArray initramfs = pattern(700 * 1024, 6);
    QVERIFY(writeFile(spec.kernel, kernel) && writeFile(spec.initramfs, initramfs));
    const Status written = HyperVDriver::writeBootDisk(spec);
    QVERIFY2(written.ok(), written.ok() ? "" : qPrintable(written.error().message));
    const QByteArray vhdx = readFile(HyperVDriver::bootDisk(spec));
    QVERIFY(vhdx.startsWith("vhdxfile"));
    QVERIFY(vhdx.contains("console=ttyS0 rdinit=/init sandbox.channel=vsock"));
    QVERIFY(vhdx.contains(kernel));
    QVERIFY(vhdx.contains(initramfs));
    // A stub that is not one leaves no disk behind.
    QVERIFY(QFile::remove(HyperVDriver::bootDisk(spec)));
    const Status refused = HyperVDriver::writeBootDisk(spec, spec.kernel);
    QVERIFY(!refused.ok());
    QVERIFY2(refused.error().message.contains(QStringLiteral("EFI stub")), qPrintable(refused.error().message));
    QVERIFY(!QFile::exists(HyperVDriver::bootDisk(spec)));
}

void TestHyperVBootDisk::bootDiskBootsToTheAgentUnderUefi()
{
    const QString firmware = QStringLiteral("/usr/share/OVMF/OVMF_CODE_4M.fd");
    QVERIFY2(QFile::exists(firmware), "OVMF (package ovmf) is not installed");
    const Result<QString> kernel = GuestImage::discoverKernel();
    QVERIFY2(kernel.ok(), kernel.ok() ? "" : qPrintable(kernel.error().message));
    GuestImage::Inputs inputs;
    inputs.kernel = kernel.value();
    for (const QString &name : VmLauncher::requiredHelpers())
        inputs.helpers.insert(name, readFile(QStringLiteral(SANDBOX_VM_BUNDLE_DIR "/") + name));
    const QString initramfs = m_root->filePath(QStringLiteral("initramfs.cpio"));
    const Result<QString> built = GuestImage::build(inputs, initramfs);
    QVERIFY2(built.ok(), built.ok() ? "" : qPrintable(built.error().message));
    // As the launcher does: the VM's layout appended (none here: no shares).
    QFile image(initramfs);
    QVERIFY(image.open(QIODevice::Append));
    QVERIFY(image.write(GuestImage::singleFileArchive(QStringLiteral("/.sandbox/layout"), GuestLayout().layoutFile()))
            > 0);
    image.close();

    const QString disk = m_root->filePath(QStringLiteral("boot.vhdx"));
    const Status written = HyperVBootDisk::write(
        { {}, kernel.value(), initramfs, QStringLiteral("console=ttyS0 quiet panic=-1 rdinit=/init") }, disk);
    QVERIFY2(written.ok(), written.ok() ? "" : qPrintable(written.error().message));
    // QEMU's own VHDX reader checks the headers, region tables, metadata and block table.
    const Run check = run(QStringLiteral("qemu-img"),
                          { QStringLiteral("check"), QStringLiteral("-f"), QStringLiteral("vhdx"), disk });
    QVERIFY2(check.status == 0 && check.output.contains("No errors were found"), check.output.constData());
    const Run info = run(QStringLiteral("qemu-img"), { QStringLiteral("info"), QStringLiteral("--output=json"), disk });
    QCOMPARE(info.status, 0);
    const QJsonObject described = QJsonDocument::fromJson(info.output).object();
    QCOMPARE(described.value(QStringLiteral("format")).toString(), QStringLiteral("vhdx"));
    QCOMPARE(described.value(QStringLiteral("virtual-size")).toInteger() % (1024 * 1024), 0);
    QVERIFY(described.value(QStringLiteral("virtual-size")).toInteger() > QFileInfo(initramfs).size());

    const QString variables = m_root->filePath(QStringLiteral("OVMF_VARS.fd"));
    QVERIFY(QFile::copy(QStringLiteral("/usr/share/OVMF/OVMF_VARS_4M.fd"), variables));
    const QString agent = m_root->filePath(QStringLiteral("agent"));
    const QString console = m_root->filePath(QStringLiteral("console.log"));
    QProcess qemu;
    qemu.setProcessChannelMode(QProcess::MergedChannels);
    QElapsedTimer clock;
    clock.start();
    qemu.start(QStringLiteral("qemu-system-x86_64"),
               { QStringLiteral("-nodefaults"), QStringLiteral("-no-user-config"),
                 QStringLiteral("-display"),    QStringLiteral("none"),
                 QStringLiteral("-accel"),      QStringLiteral("tcg"),
                 QStringLiteral("-M"),          QStringLiteral("q35"),
                 QStringLiteral("-m"),          QStringLiteral("512"),
                 QStringLiteral("-nic"),        QStringLiteral("none"),
                 QStringLiteral("-drive"),      QStringLiteral("if=pflash,format=raw,readonly=on,file=") + firmware,
                 QStringLiteral("-drive"),      QStringLiteral("if=pflash,format=raw,file=") + variables,
                 QStringLiteral("-drive"),      QStringLiteral("if=virtio,format=vhdx,file=") + disk,
                 QStringLiteral("-serial"),     QStringLiteral("file:") + console,
                 QStringLiteral("-chardev"),    QStringLiteral("socket,id=agent,path=%1,server=on,wait=off").arg(agent),
                 QStringLiteral("-device"),     QStringLiteral("virtio-serial-pci"),
                 QStringLiteral("-device"),     QStringLiteral("virtserialport,chardev=agent,name=sandbox.agent") });
    QVERIFY(qemu.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(agent) || qemu.state() == QProcess::NotRunning, 30000);
    QLocalSocket channel;
    channel.connectToServer(agent);
    QVERIFY2(channel.waitForConnected(10000), qPrintable(QString::fromUtf8(qemu.readAll())));
    QByteArray received;
    connect(&channel, &QLocalSocket::readyRead, this, [&] { received += channel.readAll(); });
    const auto ready = [&] { return received.size() >= 9 && quint8(received.at(4)) == sandbox::guest::Ready; };
    QTRY_VERIFY2_WITH_TIMEOUT(ready() || qemu.state() == QProcess::NotRunning,
                              qPrintable(QString::fromUtf8(readFile(console).right(2000))), 240000);
    const qint64 bootMs = clock.elapsed();
    QVERIFY2(ready(), qPrintable(QString::fromUtf8(qemu.readAll() + readFile(console).right(2000))));
    qInfo("UEFI boot from the VHDX to agent ready: %lld ms (TCG)", bootMs);
    qemu.kill();
    qemu.waitForFinished();
}

QTEST_GUILESS_MAIN(TestHyperVBootDisk)
#include "tst_hypervbootdisk.moc"
