#include "ConfigurationLocation.h"

#include <QDir>
#include <QStandardPaths>

namespace sandbox {

namespace {

const QString kName = QStringLiteral("sandbox-studio");

QString configRoot()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
}

QString dataRoot()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
}

} // namespace

QString ConfigurationLocation::configDirectory()
{
    return QDir(configRoot()).filePath(kName);
}

QString ConfigurationLocation::stateDirectory()
{
    return QDir(dataRoot()).filePath(kName);
}

QString ConfigurationLocation::keychainService()
{
    return kName;
}

QList<ConfigurationLocation::Legacy> ConfigurationLocation::legacyLocations()
{
    // Each program used QStandardPaths' AppConfigLocation/AppDataLocation under its own
    // name; Studio also set the organization name, hence its nested directories.
    const QDir config(configRoot());
    const QDir data(dataRoot());
    return {
        { QStringLiteral("sandbox-studio"), config.filePath(kName + QLatin1Char('/') + kName),
          data.filePath(kName + QLatin1Char('/') + kName) },
        { QStringLiteral("sandboxd"), config.filePath(QStringLiteral("sandboxd")),
          data.filePath(QStringLiteral("sandboxd")) },
        { QStringLiteral("sandboxctl"), config.filePath(QStringLiteral("sandboxctl")),
          data.filePath(QStringLiteral("sandboxctl")) },
    };
}

} // namespace sandbox
