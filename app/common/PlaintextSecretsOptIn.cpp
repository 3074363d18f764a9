#include "PlaintextSecretsOptIn.h"

#include "core/settings/LockedJsonFile.h"
#include "protocol/JsonReader.h"

#include <QDir>
#include <QJsonObject>

namespace sandbox {

namespace {

const QString kVersion = QStringLiteral("version");
const QString kAllowed = QStringLiteral("plaintextSecretsAllowed");

Status validate(const QJsonObject &object, const QString &where)
{
    JsonReader reader(object, where);
    const double version = reader.requireNumber(kVersion);
    reader.requireBool(kAllowed);
    reader.rejectUnknownKeys({ kVersion, kAllowed });
    if (!reader.ok())
        return reader.error();
    if (version != 1)
        return Error{ where + QLatin1Char('.') + kVersion, PlaintextSecretsOptIn::tr("expected version 1"), {} };
    return {};
}

} // namespace

QString PlaintextSecretsOptIn::path(const QString &configDirectory)
{
    return QDir(configDirectory).filePath(QStringLiteral("secret-storage.json"));
}

Result<bool> PlaintextSecretsOptIn::read(const QString &configDirectory, QString *warning)
{
    LockedJsonFile file(path(configDirectory));
    const auto validator = [&file](const QJsonObject &o) { return validate(o, file.path()); };
    if (const std::optional<std::optional<QJsonObject>> clean = file.readClean(validator))
        return *clean ? (*clean)->value(kAllowed).toBool() : false;
    if (const Status locked = file.lock(); !locked.ok())
        return locked.error();
    const Result<std::optional<QJsonObject>> object
        = file.read([&file](const QJsonObject &o) { return validate(o, file.path()); }, warning);
    file.unlock();
    if (!object.ok())
        return object.error();
    if (!object.value())
        return false;
    return object.value()->value(kAllowed).toBool();
}

Status PlaintextSecretsOptIn::write(const QString &configDirectory, bool allowed)
{
    if (!QDir().mkpath(configDirectory))
        return Error{ configDirectory, tr("cannot create the configuration directory"), {} };
    LockedJsonFile file(path(configDirectory));
    if (const Status locked = file.lock(); !locked.ok())
        return locked;
    const Status written = file.write(QJsonObject{ { kVersion, 1 }, { kAllowed, allowed } });
    file.unlock();
    return written;
}

QString PlaintextSecretsOptIn::warning(const QString &configDirectory)
{
    return tr("Plaintext secret storage is allowed (%1): secrets are stored without the system keychain, in a file "
              "anyone who can read your files can read.")
        .arg(path(configDirectory));
}

} // namespace sandbox
