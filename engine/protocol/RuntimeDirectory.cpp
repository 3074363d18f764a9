#include "RuntimeDirectory.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace sandbox {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::RuntimeDirectory", text);
}
} // namespace

QString RuntimeDirectory::defaultDirectory()
{
    return directoryFor(defaultStateDirectory());
}

QString RuntimeDirectory::directoryFor(const QString &stateDirectory)
{
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!runtime.isEmpty() && QFileInfo(runtime).isAbsolute())
        return runtime + QStringLiteral("/sandbox-studio");
    return QDir::cleanPath(stateDirectory) + QStringLiteral("/run");
}

QString RuntimeDirectory::defaultStateDirectory()
{
    const QString configured = qEnvironmentVariable("SANDBOX_STATE_DIR");
    if (!configured.isEmpty())
        return configured;
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + QStringLiteral("/sandbox-studio");
}

QString RuntimeDirectory::defaultSocketPath()
{
    return defaultDirectory() + QStringLiteral("/engine.sock");
}

QString RuntimeDirectory::lockPathFor(const QString &socketPath)
{
    return socketPath + QStringLiteral(".lock");
}

Status RuntimeDirectory::ensure(const QString &directory)
{
    const QByteArray path = QFile::encodeName(directory);
    if (::mkdir(path.constData(), 0700) != 0 && errno != EEXIST) {
        // A missing parent (e.g. a custom --socket path) is created the same way, owner-only.
        if (errno == ENOENT && QDir().mkpath(QFileInfo(directory).absolutePath())
            && ::mkdir(path.constData(), 0700) == 0)
            return verify(directory);
        return Error{ directory,
                      tr("cannot create the runtime directory: %1").arg(QString::fromLocal8Bit(std::strerror(errno))),
                      {} };
    }
    return verify(directory);
}

Status RuntimeDirectory::verify(const QString &directory)
{
    struct stat st
    {
    };
    if (::lstat(QFile::encodeName(directory).constData(), &st) != 0)
        return Error{ directory,
                      tr("cannot inspect the runtime directory: %1").arg(QString::fromLocal8Bit(std::strerror(errno))),
                      {} };
    if (S_ISLNK(st.st_mode))
        return Error{ directory, tr("the runtime directory is a symbolic link; refusing to use it"), {} };
    if (!S_ISDIR(st.st_mode))
        return Error{ directory, tr("the runtime directory is not a directory"), {} };
    if (st.st_uid != ::geteuid())
        return Error{ directory,
                      tr("the runtime directory belongs to uid %1, not to us (uid %2)").arg(st.st_uid).arg(::geteuid()),
                      {} };
    if ((st.st_mode & 077) != 0)
        return Error{ directory,
                      tr("the runtime directory is accessible to other users (mode %1); it must be 0700")
                          .arg(QString::number(st.st_mode & 07777, 8)),
                      {} };
    return Status::success();
}

Status RuntimeDirectory::checkSocketPath(const QString &socketPath)
{
    const qsizetype length = QFile::encodeName(socketPath).size();
    if (length <= kMaxSocketPathBytes)
        return Status::success();
    return Error{ socketPath,
                  tr("the socket path is %1 bytes long, more than the %2 a unix socket's path can have; set "
                     "XDG_RUNTIME_DIR, choose a shorter state directory (SANDBOX_STATE_DIR) or a shorter --socket")
                      .arg(length)
                      .arg(kMaxSocketPathBytes),
                  {} };
}

} // namespace sandbox
