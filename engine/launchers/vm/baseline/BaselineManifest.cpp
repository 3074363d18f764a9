#include "BaselineManifest.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::BaselineManifest", text);
}

bool isDigest(const QString &text)
{
    static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{64}$"));
    return hex.match(text).hasMatch();
}

} // namespace

QJsonObject BaselineManifest::identity() const
{
    QJsonObject helpers;
    for (auto it = helperSha256.cbegin(); it != helperSha256.cend(); ++it)
        helpers.insert(it.key(), it.value());
    return { { QStringLiteral("driver"), driver },
             { QStringLiteral("driverVersion"), driverVersion },
             { QStringLiteral("machine"), QJsonArray::fromStringList(machine) },
             { QStringLiteral("kernelSha256"), kernelSha256 },
             { QStringLiteral("initramfsSha256"), initramfsSha256 },
             { QStringLiteral("helperSha256"), helpers },
             { QStringLiteral("memoryMb"), memoryMb },
             { QStringLiteral("cpus"), cpus },
             { QStringLiteral("uid"), double(uid) } };
}

QString BaselineManifest::key() const
{
    const QByteArray canonical = QJsonDocument(identity()).toJson(QJsonDocument::Compact);
    return QString::fromLatin1(QCryptographicHash::hash(canonical, QCryptographicHash::Sha256).toHex().left(32));
}

QByteArray BaselineManifest::toJson() const
{
    QJsonObject object = identity();
    object.insert(QStringLiteral("epoch"), epoch);
    object.insert(QStringLiteral("artifactSha256"), artifactSha256);
    object.insert(QStringLiteral("artifactBytes"), double(artifactBytes));
    return QJsonDocument(object).toJson(QJsonDocument::Indented);
}

Result<BaselineManifest> BaselineManifest::fromJson(const QByteArray &json, const QString &where)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (!document.isObject())
        return Error{ where, tr("not a JSON object (%1)").arg(parseError.errorString()), {} };
    const QJsonObject object = document.object();
    auto bad = [&](const QString &field, const QString &what) {
        return Error{ where + QLatin1Char('.') + field, what, {} };
    };
    BaselineManifest manifest;
    for (const auto &[field, target] : { std::pair{ QStringLiteral("driver"), &manifest.driver },
                                         std::pair{ QStringLiteral("driverVersion"), &manifest.driverVersion },
                                         std::pair{ QStringLiteral("kernelSha256"), &manifest.kernelSha256 },
                                         std::pair{ QStringLiteral("initramfsSha256"), &manifest.initramfsSha256 },
                                         std::pair{ QStringLiteral("artifactSha256"), &manifest.artifactSha256 } }) {
        if (!object.value(field).isString())
            return bad(field, tr("missing or not a string"));
        *target = object.value(field).toString();
    }
    for (const QString &field :
         { QStringLiteral("kernelSha256"), QStringLiteral("initramfsSha256"), QStringLiteral("artifactSha256") }) {
        if (!isDigest(object.value(field).toString()))
            return bad(field, tr("not a sha256 digest in lowercase hex"));
    }
    for (const auto &[field, target] : { std::pair{ QStringLiteral("epoch"), &manifest.epoch },
                                         std::pair{ QStringLiteral("memoryMb"), &manifest.memoryMb },
                                         std::pair{ QStringLiteral("cpus"), &manifest.cpus } }) {
        const QJsonValue value = object.value(field);
        if (!value.isDouble() || value.toDouble() != double(value.toInt()) || value.toInt() < 0)
            return bad(field, tr("missing or not a non-negative integer"));
        *target = value.toInt();
    }
    const QJsonValue uid = object.value(QStringLiteral("uid"));
    const QJsonValue bytes = object.value(QStringLiteral("artifactBytes"));
    if (!uid.isDouble() || uid.toDouble() < 0 || uid.toDouble() != double(qint64(uid.toDouble())))
        return bad(QStringLiteral("uid"), tr("missing or not a non-negative integer"));
    if (!bytes.isDouble() || bytes.toDouble() < 0 || bytes.toDouble() != double(qint64(bytes.toDouble())))
        return bad(QStringLiteral("artifactBytes"), tr("missing or not a non-negative integer"));
    manifest.uid = uint(uid.toDouble());
    manifest.artifactBytes = qint64(bytes.toDouble());
    const QJsonValue machine = object.value(QStringLiteral("machine"));
    if (!machine.isArray() || machine.toArray().isEmpty())
        return bad(QStringLiteral("machine"), tr("missing or not a non-empty array"));
    for (const QJsonValue &argument : machine.toArray()) {
        if (!argument.isString())
            return bad(QStringLiteral("machine"), tr("holds something other than strings"));
        manifest.machine.append(argument.toString());
    }
    const QJsonValue helpers = object.value(QStringLiteral("helperSha256"));
    if (!helpers.isObject())
        return bad(QStringLiteral("helperSha256"), tr("missing or not an object"));
    const QJsonObject helperObject = helpers.toObject();
    for (auto it = helperObject.begin(); it != helperObject.end(); ++it) {
        if (!isDigest(it.value().toString()))
            return bad(QStringLiteral("helperSha256.") + it.key(), tr("not a sha256 digest in lowercase hex"));
        manifest.helperSha256.insert(it.key(), it.value().toString());
    }
    return manifest;
}

} // namespace sandbox
