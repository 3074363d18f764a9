#include "GuestImage.h"

#include "launchers/vm/image/CpioArchive.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QSet>

#include <functional>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::GuestImage", text);
}

const QString kWhere = QStringLiteral("builtin:vm.guest");

const QStringList kApplets
    = { QStringLiteral("sh"),    QStringLiteral("true"),   QStringLiteral("false"), QStringLiteral("cat"),
        QStringLiteral("echo"),  QStringLiteral("ls"),     QStringLiteral("sleep"), QStringLiteral("env"),
        QStringLiteral("id"),    QStringLiteral("mkdir"),  QStringLiteral("rm"),    QStringLiteral("cp"),
        QStringLiteral("mv"),    QStringLiteral("ps"),     QStringLiteral("kill"),  QStringLiteral("grep"),
        QStringLiteral("sed"),   QStringLiteral("head"),   QStringLiteral("tail"),  QStringLiteral("wc"),
        QStringLiteral("test"),  QStringLiteral("printf"), QStringLiteral("pwd"),   QStringLiteral("uname"),
        QStringLiteral("mount"), QStringLiteral("touch"),  QStringLiteral("sort"),  QStringLiteral("dd"),
        QStringLiteral("chmod"), QStringLiteral("stat") };

QString modulesDirectory(const QString &version)
{
    return QStringLiteral("/lib/modules/") + version;
}

// True when the ELF file asks for a program interpreter (is dynamically linked).
bool isDynamicElf(const QByteArray &elf)
{
    if (elf.size() < 64
        || !elf.startsWith("\x7f"
                           "ELF")
        || elf[4] != 2)
        return true; // not a 64-bit ELF: not usable as a static guest binary
    auto read = [&](int offset, int bytes) {
        quint64 value = 0;
        for (int i = 0; i < bytes; ++i)
            value |= quint64(quint8(elf[offset + i])) << (8 * i);
        return value;
    };
    const quint64 phoff = read(32, 8);
    const quint64 phentsize = read(54, 2);
    const quint64 phnum = read(56, 2);
    for (quint64 i = 0; i < phnum; ++i) {
        const quint64 at = phoff + i * phentsize;
        if (at + 4 > quint64(elf.size()))
            return true;
        if (read(int(at), 4) == 3) // PT_INTERP
            return true;
    }
    return false;
}

} // namespace

const QStringList &GuestImage::guestModules()
{
    static const QStringList modules
        = { QStringLiteral("virtio_mmio"),  QStringLiteral("virtio_pci"), QStringLiteral("virtio_console"),
            QStringLiteral("9pnet_virtio"), QStringLiteral("9p"),         QStringLiteral("vmw_vsock_virtio_transport"),
            QStringLiteral("virtio_net") };
    return modules;
}

QString GuestImage::kernelVersion(const QString &kernel)
{
    const QString name = QFileInfo(kernel).fileName();
    return name.startsWith(QLatin1String("vmlinuz-")) ? name.mid(8) : QString();
}

Result<QString> GuestImage::discoverKernel()
{
    const QFileInfoList kernels
        = QDir(QStringLiteral("/boot")).entryInfoList({ QStringLiteral("vmlinuz-*") }, QDir::Files, QDir::Time);
    QStringList rejected;
    for (const QFileInfo &kernel : kernels) {
        const QString version = kernelVersion(kernel.filePath());
        if (modulesFor(version, guestModules()).ok() && kernel.isReadable())
            return kernel.filePath();
        rejected.append(kernel.fileName());
    }
    return Error{ kWhere,
                  rejected.isEmpty()
                      ? tr("no guest kernel: /boot has no vmlinuz-* (install the generic kernel package, "
                           "linux-image-amd64 on Debian, or set the kernel setting)")
                      : tr("no kernel in /boot has the 9p, virtio-mmio and virtio-console modules the guest needs "
                           "(rejected: %1; the cloud kernel lacks 9p: install linux-image-amd64)")
                            .arg(rejected.join(QStringLiteral(", "))),
                  {} };
}

Result<QString> GuestImage::discoverBusybox()
{
    for (const QString &candidate : { QStringLiteral("/bin/busybox"), QStringLiteral("/usr/bin/busybox") }) {
        QFile file(candidate);
        if (!file.open(QIODevice::ReadOnly))
            continue;
        if (!isDynamicElf(file.read(64 * 1024)))
            return candidate;
        return Error{ kWhere,
                      tr("%1 is dynamically linked and cannot run in the guest: install the static build "
                         "(busybox-static on Debian)")
                          .arg(candidate),
                      {} };
    }
    return Error{ kWhere, tr("busybox was not found (install busybox-static)"), {} };
}

Result<QStringList> GuestImage::modulesFor(const QString &version, const QStringList &wanted)
{
    if (version.isEmpty())
        return Error{ kWhere, tr("the kernel file name carries no version (expected vmlinuz-<version>)"), {} };
    const QString directory = modulesDirectory(version);
    QFile depFile(directory + QStringLiteral("/modules.dep"));
    if (!depFile.open(QIODevice::ReadOnly))
        return Error{ kWhere, tr("cannot read %1: %2").arg(depFile.fileName(), depFile.errorString()), {} };
    QHash<QString, QStringList> dependencies; // module path -> its dependencies
    QHash<QString, QString> byName;
    for (const QByteArray &raw : depFile.readAll().split('\n')) {
        const int colon = raw.indexOf(':');
        if (colon <= 0)
            continue;
        const QString module = QString::fromUtf8(raw.left(colon));
        const QStringList deps = QString::fromUtf8(raw.mid(colon + 1)).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        dependencies.insert(module, deps);
        QString name = QFileInfo(module).fileName();
        name.truncate(name.indexOf(QLatin1String(".ko")));
        byName.insert(name.replace(QLatin1Char('-'), QLatin1Char('_')), module);
    }
    QStringList ordered;
    QSet<QString> seen;
    std::function<void(const QString &)> visit = [&](const QString &module) {
        if (seen.contains(module))
            return;
        seen.insert(module);
        for (const QString &dependency : dependencies.value(module))
            visit(dependency);
        ordered.append(directory + QLatin1Char('/') + module);
    };
    QStringList missing;
    for (const QString &name : wanted) {
        const QString module = byName.value(name);
        if (module.isEmpty()) {
            missing.append(name);
            continue;
        }
        visit(module);
    }
    if (!missing.isEmpty())
        return Error{ kWhere, tr("kernel %1 has no module %2").arg(version, missing.join(QStringLiteral(", "))), {} };
    for (const QString &module : std::as_const(ordered)) {
        if (!module.endsWith(QLatin1String(".ko")))
            return Error{ kWhere, tr("the module %1 is compressed; the guest loads plain .ko files").arg(module), {} };
    }
    return ordered;
}

QByteArray GuestImage::singleFileArchive(const QString &path, const QByteArray &content)
{
    CpioArchive archive;
    archive.addFile(path, content);
    return archive.finish();
}

Result<QString> GuestImage::build(const Inputs &inputs, const QString &output)
{
    Result<QString> kernel = inputs.kernel.isEmpty() ? discoverKernel() : Result<QString>(inputs.kernel);
    if (!kernel.ok())
        return kernel.error();
    if (!QFileInfo(kernel.value()).isReadable())
        return Error{ kWhere, tr("the kernel %1 is not readable").arg(kernel.value()), {} };
    Result<QString> busybox = inputs.busybox.isEmpty() ? discoverBusybox() : Result<QString>(inputs.busybox);
    if (!busybox.ok())
        return busybox.error();
    const Result<QStringList> modules = modulesFor(kernelVersion(kernel.value()), guestModules());
    if (!modules.ok())
        return modules.error();

    auto readAll = [](const QString &path, QByteArray &out) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return false;
        out = file.readAll();
        return true;
    };
    CpioArchive archive;
    archive.addDirectory(QStringLiteral("/dev"));
    archive.addCharacterDevice(QStringLiteral("/dev/console"), 5, 1);
    archive.addDirectory(QStringLiteral("/.sandbox"), 0700);
    archive.addDirectory(QStringLiteral("/.sandbox/bin"));
    archive.addDirectory(QStringLiteral("/.sandbox/modules.d"), 0700);
    QByteArray content;
    if (!readAll(busybox.value(), content))
        return Error{ kWhere, tr("cannot read %1").arg(busybox.value()), {} };
    archive.addFile(QStringLiteral("/.sandbox/bin/busybox"), content, 0755);
    for (const QString &applet : kApplets)
        archive.addSymlink(QStringLiteral("/.sandbox/bin/") + applet, QStringLiteral("busybox"));
    QByteArray moduleList;
    for (const QString &module : modules.value()) {
        if (!readAll(module, content))
            return Error{ kWhere, tr("cannot read the module %1").arg(module), {} };
        const QString guestPath = QStringLiteral("/.sandbox/modules.d/") + QFileInfo(module).fileName();
        archive.addFile(guestPath, content, 0600);
        moduleList += guestPath.toUtf8() + '\n';
    }
    archive.addFile(QStringLiteral("/.sandbox/modules"), moduleList, 0600);
    for (auto it = inputs.helpers.cbegin(); it != inputs.helpers.cend(); ++it) {
        archive.addFile(QStringLiteral("/.sandbox/") + it.key(), it.value(), 0755);
    }
    if (inputs.helpers.contains(QStringLiteral("sandbox-vm-agent")))
        archive.addSymlink(QStringLiteral("/init"), QStringLiteral(".sandbox/sandbox-vm-agent"));

    if (const Status written = write(output, archive.finish()); !written)
        return written.error();
    return kernel.value();
}

Status GuestImage::write(const QString &output, const QByteArray &image)
{
    QFile existing(output);
    const QFileInfo info(output);
    if (info.isFile() && !info.isSymLink() && info.size() == image.size()
        && !(info.permissions()
             & (QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ExeGroup | QFileDevice::ReadOther
                | QFileDevice::WriteOther | QFileDevice::ExeOther))
        && existing.open(QIODevice::ReadOnly) && existing.readAll() == image)
        return Status::success();
    QSaveFile file(output);
    if (!file.open(QIODevice::WriteOnly))
        return Error{ kWhere, tr("cannot write %1: %2").arg(output, file.errorString()), {} };
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    file.write(image);
    if (!file.commit())
        return Error{ kWhere, tr("cannot write %1: %2").arg(output, file.errorString()), {} };
    return Status::success();
}

} // namespace sandbox
