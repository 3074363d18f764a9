#include "Autostart.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

namespace sandbox {

namespace {

// Desktop Entry Exec quoting: arguments with reserved characters go in double quotes,
// with ", `, $ and \ escaped.
QString quoteExecArgument(const QString &argument)
{
    static const QString reserved = QStringLiteral(" \t\n\"'\\><~|&;$*?#()`");
    if (std::none_of(argument.begin(), argument.end(), [](QChar c) { return reserved.contains(c); }))
        return argument;
    QString quoted = argument;
    quoted.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
    quoted.replace(QLatin1Char('"'), QStringLiteral("\\\""));
    quoted.replace(QLatin1Char('`'), QStringLiteral("\\`"));
    quoted.replace(QLatin1Char('$'), QStringLiteral("\\$"));
    // In a desktop file a backslash is itself escaped once more.
    quoted.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

} // namespace

Autostart::Autostart(QString executable)
    : m_executable(std::move(executable))
{ }

bool Autostart::isSupported()
{
#if defined(Q_OS_LINUX) || defined(Q_OS_FREEBSD)
    return true;
#else
    return false;
#endif
}

QString Autostart::entryPath() const
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation)
        + QStringLiteral("/autostart/sandbox-studio.desktop");
}

bool Autostart::isEnabled() const
{
    return isSupported() && QFileInfo::exists(entryPath());
}

QString Autostart::entryText() const
{
    return QStringLiteral("[Desktop Entry]\n"
                          "Type=Application\n"
                          "Name=Sandbox Studio\n"
                          "Comment=%1\n"
                          "Exec=%2 --hidden\n"
                          "Icon=sandbox-studio\n"
                          "Terminal=false\n"
                          "X-GNOME-Autostart-enabled=true\n")
        .arg(QCoreApplication::translate("sandbox::Autostart", "Keeps the sandbox engine running in the tray"),
             quoteExecArgument(m_executable));
}

Status Autostart::setEnabled(bool enabled)
{
    if (!isSupported())
        return Error{ QStringLiteral("autostart"),
                      QCoreApplication::translate("sandbox::Autostart",
                                                  "Starting at login is not supported on this system."),
                      {} };
    const QString path = entryPath();
    if (!enabled) {
        if (QFileInfo::exists(path) && !QFile::remove(path))
            return Error{ path,
                          QCoreApplication::translate("sandbox::Autostart", "could not remove the autostart entry"),
                          {} };
        return Status::success();
    }
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return Error{ QFileInfo(path).absolutePath(),
                      QCoreApplication::translate("sandbox::Autostart", "could not create the autostart folder"),
                      {} };
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(entryText().toUtf8()) < 0 || !file.commit())
        return Error{ path,
                      QCoreApplication::translate("sandbox::Autostart", "could not write the autostart entry: %1")
                          .arg(file.errorString()),
                      {} };
    return Status::success();
}

} // namespace sandbox
