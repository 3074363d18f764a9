#include "CpioArchive.h"

#include <sys/stat.h>

namespace sandbox {

namespace {

void appendHex(QByteArray &out, quint32 value)
{
    out += QByteArray::number(value, 16).rightJustified(8, '0');
}

void pad(QByteArray &out)
{
    while (out.size() % 4 != 0)
        out += '\0';
}

} // namespace

void CpioArchive::addEntry(const QString &path, quint32 mode, const QByteArray &content, quint32 rdevMajor,
                           quint32 rdevMinor)
{
    QByteArray name = path.toUtf8();
    if (name.startsWith('/'))
        name.remove(0, 1);
    if (name.isEmpty())
        name = ".";
    m_data += "070701";
    appendHex(m_data, m_inode++);
    appendHex(m_data, mode);
    appendHex(m_data, 0); // uid
    appendHex(m_data, 0); // gid
    appendHex(m_data, 1); // nlink
    appendHex(m_data, 0); // mtime
    appendHex(m_data, quint32(content.size()));
    appendHex(m_data, 0); // dev major
    appendHex(m_data, 0); // dev minor
    appendHex(m_data, rdevMajor);
    appendHex(m_data, rdevMinor);
    appendHex(m_data, quint32(name.size() + 1));
    appendHex(m_data, 0); // check
    m_data += name;
    m_data += '\0';
    pad(m_data);
    m_data += content;
    pad(m_data);
}

void CpioArchive::addDirectory(const QString &path, quint32 mode)
{
    addEntry(path, S_IFDIR | mode, {});
}

void CpioArchive::addFile(const QString &path, const QByteArray &content, quint32 mode)
{
    addEntry(path, S_IFREG | mode, content);
}

void CpioArchive::addSymlink(const QString &path, const QString &target)
{
    addEntry(path, S_IFLNK | 0777, target.toUtf8());
}

void CpioArchive::addCharacterDevice(const QString &path, quint32 major, quint32 minor, quint32 mode)
{
    addEntry(path, S_IFCHR | mode, {}, major, minor);
}

QByteArray CpioArchive::finish()
{
    addEntry(QStringLiteral("TRAILER!!!"), 0, {});
    QByteArray data = m_data;
    m_data.clear();
    m_inode = 1;
    return data;
}

} // namespace sandbox
