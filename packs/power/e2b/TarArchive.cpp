#include "TarArchive.h"

#include <QCoreApplication>

namespace sandbox::power {

namespace {

constexpr qsizetype block = 512;

QString tr(const char *text)
{
    return QCoreApplication::translate("TarArchive", text);
}

QByteArray field(const char *header, int offset, int size)
{
    QByteArray value(header + offset, size);
    const qsizetype end = value.indexOf('\0');
    return end < 0 ? value : value.left(end);
}

bool octal(const QByteArray &text, qint64 *value)
{
    const QByteArray digits = text.trimmed();
    if (digits.isEmpty())
        return false;
    bool ok = false;
    *value = digits.toLongLong(&ok, 8);
    return ok && *value >= 0;
}

// The "path" record of a pax extended header, if any.
QByteArray paxPath(const QByteArray &records)
{
    qsizetype offset = 0;
    while (offset < records.size()) {
        const qsizetype space = records.indexOf(' ', offset);
        if (space < 0)
            break;
        bool ok = false;
        const qsizetype length = records.mid(offset, space - offset).toLongLong(&ok);
        if (!ok || length <= 0 || offset + length > records.size())
            break;
        const QByteArray record = records.mid(space + 1, length - (space + 1 - offset) - 1);
        if (record.startsWith("path="))
            return record.mid(5);
        offset += length;
    }
    return {};
}

} // namespace

QString TarArchive::cleanRelative(const QString &path)
{
    if (path.startsWith(QLatin1Char('/')) || path.contains(QChar(0)))
        return {};
    QStringList parts;
    for (const QString &part : path.split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
        if (part == QLatin1String("."))
            continue;
        if (part == QLatin1String(".."))
            return {};
        parts.append(part);
    }
    return parts.join(QLatin1Char('/'));
}

Result<TarArchive> TarArchive::read(const QByteArray &archive)
{
    TarArchive result;
    QByteArray longName;
    qsizetype offset = 0;
    while (offset + block <= archive.size()) {
        const char *header = archive.constData() + offset;
        if (std::all_of(header, header + block, [](char c) { return c == 0; }))
            break;
        qint64 size = 0;
        if (!octal(field(header, 124, 12), &size) || size > archive.size())
            return Error{ tr("archive"), tr("a member's size at offset %1 is not a number").arg(offset), {} };
        const char type = header[156];
        const qsizetype dataStart = offset + block;
        if (dataStart + size > archive.size())
            return Error{ tr("archive"), tr("the archive ends inside a member"), {} };
        const QByteArray data = archive.mid(dataStart, size);
        offset = dataStart + ((size + block - 1) / block) * block;

        if (type == 'L') {
            longName = field(data.constData(), 0, int(data.size()));
            continue;
        }
        if (type == 'x') {
            longName = paxPath(data);
            continue;
        }
        if (type == 'g')
            continue;
        QByteArray name = longName;
        longName.clear();
        if (name.isEmpty()) {
            name = field(header, 0, 100);
            const QByteArray prefix = field(header, 345, 155);
            if (field(header, 257, 5) == "ustar" && !prefix.isEmpty())
                name = prefix + '/' + name;
        }
        const QString raw = QString::fromUtf8(name);
        if (type == '5')
            continue;
        if (type != '0' && type != '\0' && type != '7') {
            result.skipped.append(tr("%1 (not a regular file)").arg(raw));
            continue;
        }
        const QString path = cleanRelative(raw);
        if (path.isEmpty()) {
            result.skipped.append(tr("%1 (outside the workspace)").arg(raw));
            continue;
        }
        result.files.append(Member{ path, data });
    }
    return result;
}

} // namespace sandbox::power
