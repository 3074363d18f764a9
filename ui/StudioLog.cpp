#include "StudioLog.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMutex>
#include <QStandardPaths>

#include <cstdio>

namespace sandbox {

namespace {

constexpr qint64 kMaxLogBytes = 1024 * 1024;

QMutex g_mutex;
QFile *g_file = nullptr;
QtMessageHandler g_previous = nullptr;

const char *levelName(QtMsgType type)
{
    switch (type) {
    case QtDebugMsg:
        return "debug";
    case QtInfoMsg:
        return "info";
    case QtWarningMsg:
        return "warning";
    case QtCriticalMsg:
        return "critical";
    case QtFatalMsg:
        return "fatal";
    }
    return "log";
}

void handle(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    {
        QMutexLocker locker(&g_mutex);
        if (g_file && g_file->isOpen()) {
            if (g_file->size() > kMaxLogBytes) {
                const QString name = g_file->fileName();
                g_file->close();
                QFile::remove(name + QStringLiteral(".1"));
                QFile::rename(name, name + QStringLiteral(".1"));
                g_file->open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Text);
            }
            const QByteArray line = QDateTime::currentDateTime().toString(Qt::ISODateWithMs).toUtf8() + ' '
                + levelName(type) + ' ' + (context.category ? context.category : "default") + ": " + message.toUtf8()
                + '\n';
            g_file->write(line);
            g_file->flush();
        }
    }
    if (g_previous)
        g_previous(type, context, message);
}

} // namespace

QString StudioLog::path()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + QStringLiteral("/studio.log");
}

bool StudioLog::install()
{
    QMutexLocker locker(&g_mutex);
    if (g_file)
        return g_file->isOpen();
    const QString file = path();
    QDir().mkpath(QFileInfo(file).absolutePath());
    g_file = new QFile(file); // lives as long as the handler, i.e. the process
    if (!g_file->open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Text))
        return false;
    g_file->setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    g_previous = qInstallMessageHandler(&handle);
    return true;
}

} // namespace sandbox
