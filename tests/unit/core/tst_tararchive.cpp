// The reader of the archive a remote backend sends back (engine/core/workspace/TarArchive):
// regular files with their execute bit, links kept apart, an archive cut off before its
// end told from a whole one, and a member claiming more than the archive holds (8 GiB in
// GNU's base-256 size) named as such, not as a size that is "not a number".
#include "core/workspace/TarArchive.h"

#include <QTest>

#include <cstring>

using sandbox::TarArchive;

namespace {

QByteArray header(const QByteArray &name, char type, qint64 size, int mode = 0644, const QByteArray &link = {})
{
    QByteArray block(512, '\0');
    std::memcpy(block.data(), name.constData(), size_t(name.size()));
    const QByteArray modeText = QByteArray::number(mode, 8).rightJustified(7, '0');
    std::memcpy(block.data() + 100, modeText.constData(), 7);
    const QByteArray sizeText = QByteArray::number(size, 8).rightJustified(11, '0');
    std::memcpy(block.data() + 124, sizeText.constData(), 11);
    block[156] = type;
    std::memcpy(block.data() + 157, link.constData(), size_t(link.size()));
    std::memcpy(block.data() + 257, "ustar", 5);
    return block;
}

QByteArray member(const QByteArray &name, const QByteArray &data, int mode = 0644)
{
    QByteArray padded = data;
    padded.append(QByteArray((512 - data.size() % 512) % 512, '\0'));
    return header(name, '0', data.size(), mode) + padded;
}

const QByteArray endBlocks(1024, '\0');

} // namespace

class TestTarArchive final : public QObject
{
    Q_OBJECT

private slots:
    void readsFilesModesAndLinks()
    {
        const QByteArray archive = member("./a.txt", "hello\n") + member("./tool.sh", "#!/bin/sh\n", 0755)
            + header("./link", '2', 0, 0777, "a.txt") + endBlocks;
        const auto read = TarArchive::read(archive);
        QVERIFY(read.ok());
        QCOMPARE(read.value().files.size(), 2);
        QCOMPARE(read.value().files.at(0).path, QStringLiteral("a.txt"));
        QCOMPARE(read.value().files.at(0).data, QByteArray("hello\n"));
        QVERIFY(!read.value().files.at(0).executable);
        QVERIFY(read.value().files.at(1).executable);
        QCOMPARE(read.value().links.size(), 1);
        QCOMPARE(read.value().links.at(0).path, QStringLiteral("link"));
        QCOMPARE(read.value().links.at(0).target, QStringLiteral("a.txt"));
        QVERIFY(read.value().skipped.isEmpty());
        QVERIFY(read.value().complete);
    }

    void cutOffArchiveIsNotComplete()
    {
        const QByteArray whole = member("./a.txt", "hello\n") + member("./b.txt", "world\n");
        const auto read = TarArchive::read(whole);
        QVERIFY(read.ok());
        QCOMPARE(read.value().files.size(), 2);
        QVERIFY(!read.value().complete);
        const auto inside = TarArchive::read(whole.left(512 * 3 + 3)); // inside b.txt's data
        QVERIFY(!inside.ok());
        QVERIFY2(inside.error().message.contains(QLatin1String("ends inside it")), qPrintable(inside.error().message));
    }

    void hugeMemberIsNamedForItsSize()
    {
        // 8 GiB in GNU's base-256 form: 0x80, then the size big-endian in 11 bytes.
        QByteArray huge = header("./huge.bin", '0', 0);
        std::memset(huge.data() + 124, 0, 12);
        huge[124] = char(0x80);
        huge[124 + 7] = char(0x02); // 2 << 32 = 8 GiB
        const auto read = TarArchive::read(huge + QByteArray(4096, 'x'));
        QVERIFY(!read.ok());
        const QString message = read.error().message;
        QVERIFY2(message.contains(QLatin1String("claims 8589934592 bytes")), qPrintable(message));
        QVERIFY2(!message.contains(QLatin1String("not a number")), qPrintable(message));
        // The largest octal size (8 GiB less a byte) is read as a size too.
        QByteArray octal = header("./big.bin", '0', 0);
        std::memcpy(octal.data() + 124, "77777777777", 11);
        const auto big = TarArchive::read(octal + endBlocks);
        QVERIFY(!big.ok());
        QVERIFY2(big.error().message.contains(QLatin1String("claims 8589934591 bytes")),
                 qPrintable(big.error().message));
        // A size that is not one still says so.
        QByteArray garbage = header("./bad.bin", '0', 0);
        std::memcpy(garbage.data() + 124, "12x4", 4);
        const auto bad = TarArchive::read(garbage + endBlocks);
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().message.contains(QLatin1String("not a number")), qPrintable(bad.error().message));
    }
};

QTEST_GUILESS_MAIN(TestTarArchive)

#include "tst_tararchive.moc"
