#pragma once

#include "ConfigurationLocation.h"

#include <QCoreApplication>
#include <QStringList>

namespace sandbox {

// Brings the per-program configuration of earlier versions into the shared location,
// once. A file only one program had is moved; copies that agree become one; copies that
// differ are a conflict: the most recently changed one is used and every other one is
// kept beside it as "<name>.from-<program>" (or ".before-migration" for the shared copy),
// and the conflict is reported. A migrated legacy file is renamed "<name>.migrated", so
// nothing is lost and nothing is migrated twice. Per-backend state and installed packs are moved;
// one the shared location already has is kept as "<name>.from-<program>" and reported.
class ConfigurationMigration final
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::ConfigurationMigration)

public:
    ConfigurationMigration(QString configDirectory, QString stateDirectory,
                           QList<ConfigurationLocation::Legacy> legacy);

    // Runs the migration (under a lock in the configuration directory, so two programs
    // starting at once migrate once); returns what the user must be told.
    QStringList run();

    // The configuration files that are migrated.
    static QStringList fileNames();
    // The state directories whose entries are moved: per-backend state, installed packs.
    static QStringList stateNames();

private:
    void migrateFile(const QString &name);
    void migrateState(const QString &from, const QString &to, const QString &program);
    QString backupPath(const QString &directory, const QString &name, const QString &suffix) const;

    QString m_configDirectory;
    QString m_stateDirectory;
    QList<ConfigurationLocation::Legacy> m_legacy;
    QStringList m_report;
};

} // namespace sandbox
