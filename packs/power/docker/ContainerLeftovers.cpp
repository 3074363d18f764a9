#include "ContainerLeftovers.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMutex>
#include <QSet>
#include <QSysInfo>
#include <QUrl>

#include <unistd.h>

namespace sandbox::power {

namespace {

constexpr const char *launcherKey = "dev.sandbox-studio.launcher";
constexpr const char *engineKey = "dev.sandbox-studio.engine";
constexpr const char *enginePidKey = "dev.sandbox-studio.engine-pid";

QMutex &heldMutex()
{
    static QMutex mutex;
    return mutex;
}

QSet<QString> &held()
{
    static QSet<QString> names;
    return names;
}

// The kernel's start time of the process `pid` (clock ticks since boot: field 22 of its stat
// file); empty when there is no such process. With the pid it names one process for good,
// whatever pid reuse brings later.
QString startTimeOf(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return {};
    const QByteArray text = stat.readAll();
    // The command name (field 2) may hold spaces and parentheses: fields resume after the last ')'.
    const qsizetype closing = text.lastIndexOf(')');
    if (closing < 0)
        return {};
    const QList<QByteArray> fields = text.mid(closing + 2).split(' ');
    // Fields from the third on: the start time, field 22, is the 20th.
    return fields.size() > 19 ? QString::fromLatin1(fields.at(19)) : QString();
}

// Where a pid names a process this one can look at: this computer, this user (another user's
// processes may be hidden from /proc), this pid namespace (a sandboxed app has its own).
QString placeOfPids()
{
    QByteArray machine = QSysInfo::machineUniqueId();
    if (machine.isEmpty())
        machine = QSysInfo::machineHostName().toUtf8().toHex();
    const QString pidNamespace = QFile::symLinkTarget(QStringLiteral("/proc/self/ns/pid"));
    const QString inode = pidNamespace.section(QLatin1Char('['), 1).section(QLatin1Char(']'), 0, 0);
    return QStringLiteral("%1:%2:%3").arg(QString::fromLatin1(machine)).arg(::getuid()).arg(inode);
}

} // namespace

QString ContainerLeftovers::identity()
{
    static const QString mine = QStringLiteral("%1:%2:%3")
                                    .arg(placeOfPids())
                                    .arg(QCoreApplication::applicationPid())
                                    .arg(startTimeOf(QCoreApplication::applicationPid()));
    return mine;
}

bool ContainerLeftovers::stillRuns(const QString &identity)
{
    const QStringList parts = identity.split(QLatin1Char(':'));
    bool numeric = false;
    const qint64 pid = parts.value(3).toLongLong(&numeric);
    if (parts.size() != 5 || !numeric || pid <= 0)
        return false;
    const QString started = startTimeOf(pid);
    return !started.isEmpty() && started == parts.at(4);
}

QJsonObject ContainerLeftovers::labels(const QString &launcherLabel)
{
    return QJsonObject{ { QString::fromLatin1(launcherKey), launcherLabel },
                        { QString::fromLatin1(engineKey), identity() },
                        { QString::fromLatin1(enginePidKey), QString::number(QCoreApplication::applicationPid()) } };
}

ContainerLeftovers::Hold::Hold(QString name)
    : m_name(std::move(name))
{
    QMutexLocker locker(&heldMutex());
    held().insert(m_name);
}

ContainerLeftovers::Hold::~Hold()
{
    QMutexLocker locker(&heldMutex());
    held().remove(m_name);
}

ContainerLeftovers::Swept ContainerLeftovers::sweep(const DockerApi &api, int timeoutMs)
{
    Swept swept;
    const QString filter = QStringLiteral("{\"label\":[\"%1\"]}").arg(QString::fromLatin1(engineKey));
    const Result<DockerApi::Response> listed = api.get(QStringLiteral("/containers/json?all=1&filters=")
                                                           + QString::fromLatin1(QUrl::toPercentEncoding(filter)),
                                                       timeoutMs);
    if (!listed.ok()) {
        swept.problem = listed.error().message;
        return swept;
    }
    if (listed.value().status != 200) {
        swept.problem = listed.value().message();
        return swept;
    }
    const QString mine = identity();
    const QString here = placeOfPids() + QLatin1Char(':');
    for (const QJsonValue &entry : QJsonDocument::fromJson(listed.value().body).array()) {
        const QJsonObject container = entry.toObject();
        const QString engine
            = container.value(QStringLiteral("Labels")).toObject().value(QString::fromLatin1(engineKey)).toString();
        if (!engine.startsWith(here))
            continue;
        if (engine == mine) {
            // Ours: a leftover only when no part of this process holds it any more.
            bool holds = false;
            QMutexLocker locker(&heldMutex());
            for (const QJsonValue &named : container.value(QStringLiteral("Names")).toArray()) {
                // The engine lists names with a leading slash.
                QString name = named.toString();
                if (name.startsWith(QLatin1Char('/')))
                    name.remove(0, 1);
                holds = holds || held().contains(name);
            }
            if (holds)
                continue;
        } else if (stillRuns(engine)) {
            continue;
        }
        const QString id = container.value(QStringLiteral("Id")).toString();
        if (id.isEmpty())
            continue;
        const Result<DockerApi::Response> removed
            = api.remove(QStringLiteral("/containers/") + id + QStringLiteral("?force=true&v=true"), timeoutMs);
        if (removed.ok() && (removed.value().status == 204 || removed.value().status == 404))
            ++swept.removed;
        else if (swept.problem.isEmpty())
            swept.problem = tr("the container %1 could not be removed: %2")
                                .arg(id.left(12), removed.ok() ? removed.value().message() : removed.error().message);
    }
    return swept;
}

} // namespace sandbox::power
