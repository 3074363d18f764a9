#include "core/packs/PackArchive.h"

#include "core/packs/PackFolder.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>

namespace sandbox {

namespace {

constexpr int tarTimeoutMs = 60000;

} // namespace

PackArchive::PackArchive(QString path)
    : m_path(std::move(path))
{ }

bool PackArchive::looksLikeArchive(const QString &path)
{
    return path.endsWith(QLatin1String(".tar.gz")) || path.endsWith(QLatin1String(".tgz"));
}

Result<QString> PackArchive::runTar(const QStringList &arguments) const
{
    QProcess tar;
    tar.setProgram(QStringLiteral("tar"));
    tar.setArguments(arguments);
    tar.start();
    if (!tar.waitForStarted(tarTimeoutMs))
        return Error{ m_path, tr("cannot run tar to read the archive: %1").arg(tar.errorString()), {} };
    if (!tar.waitForFinished(tarTimeoutMs)) {
        tar.kill();
        tar.waitForFinished();
        return Error{ m_path, tr("reading the archive took longer than %1 s").arg(tarTimeoutMs / 1000), {} };
    }
    if (tar.exitStatus() != QProcess::NormalExit || tar.exitCode() != 0)
        return Error{ m_path,
                      tr("the archive cannot be read as a .tar.gz: %1")
                          .arg(QString::fromLocal8Bit(tar.readAllStandardError()).trimmed().left(400)),
                      {} };
    return QString::fromUtf8(tar.readAllStandardOutput());
}

Status PackArchive::check() const
{
    const Result<QString> names = runTar({ QStringLiteral("-tzf"), m_path });
    if (!names.ok())
        return names.error();
    const Result<QString> details = runTar({ QStringLiteral("-tvzf"), m_path });
    if (!details.ok())
        return details.error();
    const QStringList nameLines = names.value().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const QStringList detailLines = details.value().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (nameLines.size() != detailLines.size())
        return Error{ m_path, tr("the archive holds names that cannot be read safely"), {} };
    if (nameLines.size() > maxEntries)
        return Error{ m_path, tr("the archive holds more than %1 entries").arg(maxEntries), {} };
    qint64 total = 0;
    for (qsizetype i = 0; i < nameLines.size(); ++i) {
        const QString &name = nameLines.at(i);
        if (name.startsWith(QLatin1Char('/')) || name.split(QLatin1Char('/')).contains(QLatin1String("..")))
            return Error{ m_path, tr("the archive entry \"%1\" points outside the pack").arg(name.left(200)), {} };
        const QChar type = detailLines.at(i).at(0);
        if (type != QLatin1Char('-') && type != QLatin1Char('d'))
            return Error{ m_path,
                          tr("the archive entry \"%1\" is not a file or a folder (links and devices are refused)")
                              .arg(name.left(200)),
                          {} };
        const QStringList columns = detailLines.at(i).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        bool sized = false;
        total += columns.size() > 2 ? columns.at(2).toLongLong(&sized) : 0;
        if (!sized || total > maxUnpackedBytes)
            return Error{ m_path, tr("the archive unpacks to more than %1 MB").arg(maxUnpackedBytes >> 20), {} };
    }
    return {};
}

Result<QString> PackArchive::unpack(const QString &destination) const
{
    if (!QFileInfo(m_path).isFile())
        return Error{ m_path, tr("%1 is not a file").arg(m_path), {} };
    if (Status checked = check(); !checked.ok())
        return checked.error();
    const Result<QString> extracted
        = runTar({ QStringLiteral("-xzf"), m_path, QStringLiteral("-C"), destination, QStringLiteral("--no-same-owner"),
                   QStringLiteral("--no-same-permissions") });
    if (!extracted.ok())
        return extracted.error();
    const QDir root(destination);
    if (root.exists(QLatin1String(PackFolder::manifestFileName)))
        return destination;
    const QStringList top = root.entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
    if (top.size() == 1 && QFileInfo(root.filePath(top.first())).isDir())
        return root.filePath(top.first());
    return Error{ m_path, tr("the archive holds no pack: pack.json is neither at its top nor in its one folder"), {} };
}

} // namespace sandbox
