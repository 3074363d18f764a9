#include "ConfigurationMigration.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>

namespace sandbox {

namespace {

struct Copy
{
    QString program; // empty: the shared location's own copy
    QString path;
    QByteArray content;
    QDateTime modified;
};

} // namespace

ConfigurationMigration::ConfigurationMigration(QString configDirectory, QString stateDirectory,
                                               QList<ConfigurationLocation::Legacy> legacy)
    : m_configDirectory(std::move(configDirectory))
    , m_stateDirectory(std::move(stateDirectory))
    , m_legacy(std::move(legacy))
{ }

QStringList ConfigurationMigration::fileNames()
{
    return { QStringLiteral("settings.json"), QStringLiteral("policy.json"), QStringLiteral("packs.json"),
             QStringLiteral("secrets.json") };
}

QStringList ConfigurationMigration::stateNames()
{
    return { QStringLiteral("backends"), QStringLiteral("packs") };
}

QStringList ConfigurationMigration::run()
{
    m_report.clear();
    bool any = false;
    for (const ConfigurationLocation::Legacy &legacy : std::as_const(m_legacy)) {
        for (const QString &name : fileNames())
            any = any
                || (!legacy.configDirectory.isEmpty()
                    && QFileInfo::exists(QDir(legacy.configDirectory).filePath(name)));
        for (const QString &name : stateNames())
            any = any
                || (!legacy.stateDirectory.isEmpty() && QFileInfo::exists(QDir(legacy.stateDirectory).filePath(name)));
    }
    if (!any)
        return {};
    if (!QDir().mkpath(m_configDirectory) || !QDir().mkpath(m_stateDirectory)) {
        return { tr("The configuration of an earlier version could not be moved to %1: the directory cannot be "
                    "created. It stays where it was and is not used.")
                     .arg(m_configDirectory) };
    }
    QLockFile lock(QDir(m_configDirectory).filePath(QStringLiteral("migration.lock")));
    if (!lock.tryLock(10000)) {
        return { tr("The configuration of an earlier version was not moved to %1: another program holds %2.")
                     .arg(m_configDirectory, lock.fileName()) };
    }
    for (const QString &name : fileNames())
        migrateFile(name);
    for (const ConfigurationLocation::Legacy &legacy : std::as_const(m_legacy)) {
        for (const QString &name : stateNames()) {
            const QString from = QDir(legacy.stateDirectory).filePath(name);
            if (!legacy.stateDirectory.isEmpty() && QFileInfo(from).isDir())
                migrateState(from, QDir(m_stateDirectory).filePath(name), legacy.program);
        }
    }
    return m_report;
}

QString ConfigurationMigration::backupPath(const QString &directory, const QString &name, const QString &suffix) const
{
    const QDir dir(directory);
    QString path = dir.filePath(name + suffix);
    for (int n = 2; QFileInfo::exists(path); ++n)
        path = dir.filePath(QStringLiteral("%1%2-%3").arg(name, suffix).arg(n));
    return path;
}

void ConfigurationMigration::migrateFile(const QString &name)
{
    const QString target = QDir(m_configDirectory).filePath(name);
    QList<Copy> copies;
    auto readCopy = [&copies, this](const QString &program, const QString &path) {
        QFile file(path);
        if (!file.exists())
            return true;
        if (!file.open(QIODevice::ReadOnly)) {
            m_report.append(
                tr("%1 could not be read (%2); it stays where it is and is not used.").arg(path, file.errorString()));
            return false;
        }
        copies.append({ program, path, file.readAll(), QFileInfo(path).lastModified() });
        return true;
    };
    bool readable = readCopy(QString(), target);
    for (const ConfigurationLocation::Legacy &legacy : std::as_const(m_legacy)) {
        if (!legacy.configDirectory.isEmpty())
            readable = readCopy(legacy.program, QDir(legacy.configDirectory).filePath(name)) && readable;
    }
    if (!readable || copies.isEmpty() || (copies.size() == 1 && copies.constFirst().program.isEmpty()))
        return;

    // The newest copy wins; on a tie the shared copy, then the earlier program listed.
    qsizetype winner = 0;
    for (qsizetype i = 1; i < copies.size(); ++i) {
        if (copies[i].modified > copies[winner].modified)
            winner = i;
    }
    const Copy chosen = copies[winner];
    QStringList backups;
    QStringList programs;
    bool conflict = false;
    for (const Copy &copy : std::as_const(copies)) {
        programs.append(copy.program.isEmpty() ? tr("%1 (shared)").arg(copy.path)
                                               : tr("%1 of %2").arg(copy.path, copy.program));
        if (copy.content == chosen.content)
            continue;
        conflict = true;
        const QString backup = backupPath(m_configDirectory, name,
                                          copy.program.isEmpty() ? QStringLiteral(".before-migration")
                                                                 : QStringLiteral(".from-") + copy.program);
        if (!QFile::copy(copy.path, backup)) {
            m_report.append(tr("%1 could not be kept as %2; nothing of %3 was migrated.").arg(copy.path, backup, name));
            return;
        }
        backups.append(backup);
    }
    if (!chosen.program.isEmpty()) {
        const QString staged = target + QStringLiteral(".migrating");
        QFile::remove(staged);
        if (!QFile::copy(chosen.path, staged) || (QFile::exists(target) && !QFile::remove(target))
            || !QFile::rename(staged, target)) {
            m_report.append(tr("%1 could not be moved to %2; it stays where it is.").arg(chosen.path, target));
            return;
        }
    }
    for (const Copy &copy : std::as_const(copies)) {
        if (copy.program.isEmpty())
            continue;
        const QString done = backupPath(QFileInfo(copy.path).absolutePath(), name, QStringLiteral(".migrated"));
        if (!QFile::rename(copy.path, done))
            m_report.append(tr("%1 was migrated to %2 but could not be renamed to %3; remove it yourself.")
                                .arg(copy.path, target, done));
    }
    const QString source = chosen.program.isEmpty() ? tr("the shared copy") : tr("that of %1").arg(chosen.program);
    if (conflict) {
        m_report.append(
            tr("Configuration conflict in %1: the copies %2 differ. Using %3, the most recently changed, "
               "as %4; the others are kept as %5.")
                .arg(name, programs.join(QStringLiteral(", ")), source, target, backups.join(QStringLiteral(", "))));
    } else {
        QStringList moved;
        for (const Copy &copy : std::as_const(copies)) {
            if (!copy.program.isEmpty())
                moved.append(copy.path);
        }
        m_report.append(tr("Moved %1 to %2, which every program of this user now shares (kept as %3.migrated where "
                           "it was).")
                            .arg(moved.join(QStringLiteral(", ")), target, name));
    }
}

void ConfigurationMigration::migrateState(const QString &from, const QString &to, const QString &program)
{
    QDir().mkpath(to);
    const QFileInfoList entries = QDir(from).entryInfoList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
    for (const QFileInfo &entry : entries) {
        QString destination = QDir(to).filePath(entry.fileName());
        const bool taken = QFileInfo::exists(destination);
        if (taken)
            destination = backupPath(to, entry.fileName(), QStringLiteral(".from-") + program);
        if (!QDir().rename(entry.absoluteFilePath(), destination)) {
            m_report.append(tr("The state %1 of %2 could not be moved to %3; it stays where it is and is not "
                               "used.")
                                .arg(entry.absoluteFilePath(), program, to));
            continue;
        }
        if (taken)
            m_report.append(tr("Configuration conflict: %1 has %2 and so did %3; the shared one is used "
                               "and that of %3 is kept as %4.")
                                .arg(to, entry.fileName(), program, destination));
    }
    QDir().rmdir(from);
}

} // namespace sandbox
