#pragma once

#include <QByteArray>
#include <QString>

namespace sandbox {

// Writes a newc ("070701") cpio archive, the format the Linux kernel unpacks as an
// initramfs. Entries are added parents first; finish() adds the trailer.
class CpioArchive final
{
public:
    void addDirectory(const QString &path, quint32 mode = 0755);
    void addFile(const QString &path, const QByteArray &content, quint32 mode = 0644);
    void addSymlink(const QString &path, const QString &target);
    void addCharacterDevice(const QString &path, quint32 major, quint32 minor, quint32 mode = 0600);
    QByteArray finish();

private:
    void addEntry(const QString &path, quint32 mode, const QByteArray &content, quint32 rdevMajor = 0,
                  quint32 rdevMinor = 0);

    QByteArray m_data;
    quint32 m_inode = 1;
};

} // namespace sandbox
