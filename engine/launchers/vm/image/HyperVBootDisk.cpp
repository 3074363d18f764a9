#include "HyperVBootDisk.h"

#include "FatImage.h"
#include "GptDisk.h"
#include "UnifiedKernelImage.h"
#include "VhdxImage.h"

#include <QCoreApplication>
#include <QFile>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::HyperVBootDisk", text);
}

const QString kWhere = QStringLiteral("builtin:vm.bootdisk");
constexpr qint64 kMaxInputBytes = 512 * 1024 * 1024;

Result<QByteArray> readInput(const QString &path, const QString &what)
{
    QFile file(path);
    if (path.isEmpty() || !file.open(QIODevice::ReadOnly))
        return Error{ kWhere, tr("cannot read the %1 %2: %3").arg(what, path, file.errorString()), {} };
    if (file.size() > kMaxInputBytes)
        return Error{ kWhere, tr("the %1 %2 is larger than %3 bytes").arg(what, path).arg(kMaxInputBytes), {} };
    return file.readAll();
}

} // namespace

QString HyperVBootDisk::defaultStub()
{
    return QStringLiteral("/usr/lib/systemd/boot/efi/linuxx64.efi.stub");
}

Status HyperVBootDisk::write(const Inputs &inputs, const QString &output)
{
    const Result<QByteArray> stub
        = readInput(inputs.stub.isEmpty() ? defaultStub() : inputs.stub, tr("EFI stub (package systemd-boot-efi)"));
    if (!stub.ok())
        return stub.error();
    const Result<QByteArray> kernel = readInput(inputs.kernel, tr("guest kernel"));
    if (!kernel.ok())
        return kernel.error();
    const Result<QByteArray> initramfs = readInput(inputs.initramfs, tr("guest initramfs"));
    if (!initramfs.ok())
        return initramfs.error();
    const Result<QByteArray> image
        = UnifiedKernelImage::build(stub.value(), kernel.value(), initramfs.value(), inputs.commandLine);
    if (!image.ok())
        return image.error();
    const Result<QByteArray> partition = FatImage::withBootLoader(image.value(), GptDisk::kFirstPartitionSector);
    if (!partition.ok())
        return partition.error();
    const QByteArray disk = GptDisk::withSystemPartition(partition.value(), QUuid::createUuid(), QUuid::createUuid());
    return VhdxImage::write(output, disk, { QUuid::createUuid(), QUuid::createUuid(), QUuid::createUuid() });
}

} // namespace sandbox
