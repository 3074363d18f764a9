#include "core/workspace/TarArchive.h"

#include <QCoreApplication>

#include <algorithm>
#include <limits>

namespace sandbox {

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
    // GNU's base-256 form for sizes of 8 GiB and more: the first byte's high bit set.
    if (!text.isEmpty() && (quint8(text.at(0)) & 0x80)) {
        quint64 number = quint8(text.at(0)) & 0x7f;
        for (qsizetype i = 1; i < text.size(); ++i) {
            if (number > (std::numeric_limits<quint64>::max() >> 9))
                return false;
            number = (number << 8) | quint8(text.at(i));
        }
        if (number > quint64(std::numeric_limits<qint64>::max()))
            return false;
        *value = qint64(number);
        return true;
    }
    const QByteArray digits = text.trimmed();
    if (digits.isEmpty())
        return false;
    bool ok = false;
    *value = digits.toLongLong(&ok, 8);
    return ok && *value >= 0;
}

// The `key` record ("path", "linkpath") of a pax extended header, if any.
QByteArray paxRecord(const QByteArray &records, const QByteArray &key)
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
        if (record.startsWith(QByteArray(key + '=')))
            return record.mid(key.size() + 1);
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
    QByteArray longLink;
    qsizetype offset = 0;
    while (offset + block <= archive.size()) {
        const char *header = archive.constData() + offset;
        if (std::all_of(header, header + block, [](char c) { return c == 0; })) {
            result.complete = true;
            break;
        }
        qint64 size = 0;
        // Base-256 sizes are binary (NUL bytes included); octal ones end at a NUL.
        const bool base256 = quint8(header[124]) & 0x80;
        if (!octal(base256 ? QByteArray(header + 124, 12) : field(header, 124, 12), &size))
            return Error{ tr("archive"), tr("a member's size at offset %1 is not a number").arg(offset), {} };
        const char type = header[156];
        const qsizetype dataStart = offset + block;
        if (size > archive.size() - dataStart)
            return Error{ tr("archive"),
                          tr("the member at offset %1 claims %2 bytes, more than the %3 bytes left in the archive: "
                             "the archive ends inside it")
                              .arg(offset)
                              .arg(size)
                              .arg(archive.size() - dataStart),
                          {} };
        // A view into the archive, not a copy: the archive outlives what is read from it.
        const QByteArray data = QByteArray::fromRawData(archive.constData() + dataStart, qsizetype(size));
        offset = dataStart + ((size + block - 1) / block) * block;

        if (type == 'L') {
            longName = field(data.constData(), 0, int(data.size()));
            continue;
        }
        if (type == 'K') {
            longLink = field(data.constData(), 0, int(data.size()));
            continue;
        }
        if (type == 'x') {
            longName = paxRecord(data, "path");
            longLink = paxRecord(data, "linkpath");
            continue;
        }
        if (type == 'g')
            continue;
        QByteArray name = longName;
        longName.clear();
        QByteArray linkTarget = longLink.isEmpty() ? field(header, 157, 100) : longLink;
        longLink.clear();
        if (name.isEmpty()) {
            name = field(header, 0, 100);
            const QByteArray prefix = field(header, 345, 155);
            if (field(header, 257, 5) == "ustar" && !prefix.isEmpty())
                name = prefix + '/' + name;
        }
        const QString raw = QString::fromUtf8(name);
        if (type == '5')
            continue;
        if (type == '2') {
            const QString path = cleanRelative(raw);
            if (path.isEmpty())
                result.skipped.append(tr("%1 (outside the workspace)").arg(raw));
            else
                result.links.append(Link{ path, QString::fromUtf8(linkTarget) });
            continue;
        }
        if (type != '0' && type != '\0' && type != '7') {
            result.skipped.append(tr("%1 (not a regular file)").arg(raw));
            continue;
        }
        const QString path = cleanRelative(raw);
        if (path.isEmpty()) {
            result.skipped.append(tr("%1 (outside the workspace)").arg(raw));
            continue;
        }
        qint64 mode = 0;
        octal(field(header, 100, 8), &mode);
        result.files.append(Member{ path, data, (mode & 0100) != 0 });
    }
    return result;
}

} // namespace sandbox
