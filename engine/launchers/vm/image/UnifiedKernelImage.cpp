#include "UnifiedKernelImage.h"

#include "LittleEndian.h"

#include <QCoreApplication>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::UnifiedKernelImage", text);
}

const QString kWhere = QStringLiteral("builtin:vm.bootdisk");
constexpr quint32 kSectionHeaderBytes = 40;
constexpr quint32 kPage = 4096;
// IMAGE_SCN_CNT_INITIALIZED_DATA | IMAGE_SCN_MEM_READ
constexpr quint32 kReadOnlyData = 0x40000040u;

quint32 alignUp(quint64 value, quint32 alignment)
{
    return quint32((value + alignment - 1) / alignment * alignment);
}

} // namespace

Result<QByteArray> UnifiedKernelImage::build(const QByteArray &stub, const QByteArray &kernel,
                                             const QByteArray &initramfs, const QString &commandLine)
{
    const auto refuse = [](const QString &why) {
        return Error{ kWhere, tr("cannot use the EFI stub: %1").arg(why), {} };
    };
    if (stub.size() < 0x40 || !stub.startsWith("MZ"))
        return refuse(tr("it is not a PE image"));
    const quint32 pe = readLittleEndian<quint32>(stub, 0x3C);
    if (qsizetype(pe) + 24 > stub.size() || stub.mid(pe, 4) != QByteArray("PE\0\0", 4))
        return refuse(tr("it has no PE header"));
    const qsizetype coff = pe + 4;
    if (readLittleEndian<quint16>(stub, coff) != 0x8664)
        return refuse(tr("it is not an x86-64 image"));
    const quint16 sections = readLittleEndian<quint16>(stub, coff + 2);
    const quint16 optionalBytes = readLittleEndian<quint16>(stub, coff + 16);
    const qsizetype optional = coff + 20;
    if (optional + optionalBytes > stub.size() || optionalBytes < 112
        || readLittleEndian<quint16>(stub, optional) != 0x20b)
        return refuse(tr("it is not a PE32+ image"));
    const quint32 sectionAlignment = readLittleEndian<quint32>(stub, optional + 32);
    const quint32 fileAlignment = readLittleEndian<quint32>(stub, optional + 36);
    const quint32 headerBytes = readLittleEndian<quint32>(stub, optional + 60);
    if (sectionAlignment == 0 || fileAlignment == 0 || kPage % sectionAlignment != 0)
        return refuse(tr("its section alignment is not a divisor of the page size"));
    const qsizetype table = optional + optionalBytes;
    if (table + qsizetype(sections) * kSectionHeaderBytes > stub.size())
        return refuse(tr("its section table is cut short"));

    quint64 imageEnd = 0;
    quint64 firstRaw = headerBytes;
    for (quint16 i = 0; i < sections; ++i) {
        const qsizetype header = table + qsizetype(i) * kSectionHeaderBytes;
        const quint32 virtualSize = readLittleEndian<quint32>(stub, header + 8);
        const quint32 address = readLittleEndian<quint32>(stub, header + 12);
        const quint32 rawSize = readLittleEndian<quint32>(stub, header + 16);
        const quint32 rawPointer = readLittleEndian<quint32>(stub, header + 20);
        const QByteArray name = stub.mid(header, 8);
        if (name.startsWith(".linux") || name.startsWith(".initrd") || name.startsWith(".cmdline"))
            return refuse(tr("it already has a %1 section").arg(QString::fromLatin1(name.constData())));
        imageEnd = qMax<quint64>(imageEnd, quint64(address) + qMax(virtualSize, rawSize));
        if (rawSize > 0)
            firstRaw = qMin<quint64>(firstRaw, rawPointer);
    }
    const quint32 added = 3;
    if (quint64(table) + quint64(sections + added) * kSectionHeaderBytes > firstRaw)
        return refuse(tr("its headers have no room for three more sections"));

    QByteArray image = stub;
    image.append(QByteArray(alignUp(quint64(image.size()), fileAlignment) - image.size(), '\0'));
    quint32 address = alignUp(imageEnd, kPage);
    quint32 initializedData = readLittleEndian<quint32>(stub, optional + 8);
    const struct
    {
        const char *name;
        QByteArray content;
    } parts[] = { { ".cmdline", commandLine.toUtf8() }, { ".linux", kernel }, { ".initrd", initramfs } };
    quint16 index = sections;
    for (const auto &part : parts) {
        if (quint64(address) + quint64(part.content.size()) > 0xFFFF0000u)
            return Error{ kWhere, tr("the kernel and initramfs are too large for one EFI image"), {} };
        const quint32 rawSize = alignUp(quint64(part.content.size()), fileAlignment);
        const qsizetype header = table + qsizetype(index) * kSectionHeaderBytes;
        QByteArray name(part.name);
        name.resize(8, '\0');
        image.replace(header, 8, name);
        putLittleEndian<quint32>(image, header + 8, quint32(part.content.size()));
        putLittleEndian<quint32>(image, header + 12, address);
        putLittleEndian<quint32>(image, header + 16, rawSize);
        putLittleEndian<quint32>(image, header + 20, quint32(image.size()));
        putLittleEndian<quint32>(image, header + 24, 0);
        putLittleEndian<quint32>(image, header + 28, 0);
        putLittleEndian<quint16>(image, header + 32, 0);
        putLittleEndian<quint16>(image, header + 34, 0);
        putLittleEndian<quint32>(image, header + 36, kReadOnlyData);
        image.append(part.content);
        image.append(QByteArray(rawSize - part.content.size(), '\0'));
        initializedData += rawSize;
        address = alignUp(quint64(address) + quint64(part.content.size()), kPage);
        ++index;
    }
    putLittleEndian<quint16>(image, coff + 2, index);
    putLittleEndian<quint32>(image, optional + 8, initializedData);
    putLittleEndian<quint32>(image, optional + 56, alignUp(address, sectionAlignment));
    putLittleEndian<quint32>(image, optional + 64, 0); // no checksum: firmware does not check it
    return image;
}

} // namespace sandbox
