// Where the engine's rendezvous points live (RuntimeDirectory): never the shared /tmp, in a
// directory that is the user's alone, refused with a clear error otherwise.
#include "protocol/RuntimeDirectory.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using sandbox::RuntimeDirectory;
using sandbox::Status;

class TestRuntimeDirectory : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void withoutARuntimeDirectoryItIsInTheStateDirectory();
    void theRuntimeDirectoryWinsWhereThereIsOne();
    void aMissingDirectoryIsCreatedOwnerOnly();
    void aDirectoryNotOursAloneIsRefused_data();
    void aDirectoryNotOursAloneIsRefused();
    void aSocketPathTooLongIsRefused();

private:
    std::unique_ptr<QTemporaryDir> m_root;
};

void TestRuntimeDirectory::init()
{
    m_root = std::make_unique<QTemporaryDir>(QStringLiteral("/var/tmp/runtime-directory-XXXXXX"));
    QVERIFY(m_root->isValid());
    qunsetenv("XDG_RUNTIME_DIR");
    qunsetenv("SANDBOX_STATE_DIR");
    qunsetenv("XDG_DATA_HOME");
}

void TestRuntimeDirectory::withoutARuntimeDirectoryItIsInTheStateDirectory()
{
    qputenv("HOME", QFile::encodeName(m_root->path()));
    QCOMPARE(RuntimeDirectory::defaultSocketPath(),
             m_root->path() + QStringLiteral("/.local/share/sandbox-studio/run/engine.sock"));
    qputenv("XDG_DATA_HOME", QFile::encodeName(m_root->filePath(QStringLiteral("data"))));
    QCOMPARE(RuntimeDirectory::defaultDirectory(), m_root->filePath(QStringLiteral("data/sandbox-studio/run")));
    qputenv("SANDBOX_STATE_DIR", QFile::encodeName(m_root->filePath(QStringLiteral("state"))));
    QCOMPARE(RuntimeDirectory::defaultSocketPath(), m_root->filePath(QStringLiteral("state/run/engine.sock")));
    QCOMPARE(RuntimeDirectory::directoryFor(m_root->filePath(QStringLiteral("other/"))),
             m_root->filePath(QStringLiteral("other/run")));
    QVERIFY(!RuntimeDirectory::defaultSocketPath().startsWith(QLatin1String("/tmp/")));
}

void TestRuntimeDirectory::theRuntimeDirectoryWinsWhereThereIsOne()
{
    qputenv("SANDBOX_STATE_DIR", QFile::encodeName(m_root->filePath(QStringLiteral("state"))));
    qputenv("XDG_RUNTIME_DIR", QFile::encodeName(m_root->filePath(QStringLiteral("xdg"))));
    QCOMPARE(RuntimeDirectory::defaultSocketPath(), m_root->filePath(QStringLiteral("xdg/sandbox-studio/engine.sock")));
    QCOMPARE(RuntimeDirectory::directoryFor(QStringLiteral("/anywhere")),
             m_root->filePath(QStringLiteral("xdg/sandbox-studio")));
    // A relative runtime directory is no runtime directory.
    qputenv("XDG_RUNTIME_DIR", "relative");
    QCOMPARE(RuntimeDirectory::defaultSocketPath(), m_root->filePath(QStringLiteral("state/run/engine.sock")));
}

void TestRuntimeDirectory::aMissingDirectoryIsCreatedOwnerOnly()
{
    const QString directory = m_root->filePath(QStringLiteral("state/run"));
    const Status made = RuntimeDirectory::ensure(directory);
    QVERIFY2(made.ok(), qPrintable(made.error().toString()));
    struct stat st = {};
    QCOMPARE(::lstat(QFile::encodeName(directory).constData(), &st), 0);
    QVERIFY(S_ISDIR(st.st_mode));
    QCOMPARE(st.st_mode & 07777, mode_t(0700));
    QCOMPARE(st.st_uid, ::geteuid());
    QVERIFY(RuntimeDirectory::verify(directory).ok());
}

void TestRuntimeDirectory::aDirectoryNotOursAloneIsRefused_data()
{
    QTest::addColumn<int>("mode");
    QTest::addColumn<bool>("foreignOwner");
    QTest::addColumn<bool>("symlink");
    QTest::addColumn<QString>("said");
    QTest::newRow("group readable") << 0750 << false << false << QStringLiteral("mode 750); it must be 0700");
    QTest::newRow("world writable") << 0777 << false << false << QStringLiteral("mode 777); it must be 0700");
    QTest::newRow("another user's") << 0700 << true << false << QStringLiteral("belongs to uid 65534");
    QTest::newRow("a symbolic link") << 0700 << false << true << QStringLiteral("is a symbolic link");
}

void TestRuntimeDirectory::aDirectoryNotOursAloneIsRefused()
{
    QFETCH(int, mode);
    QFETCH(bool, foreignOwner);
    QFETCH(bool, symlink);
    QFETCH(QString, said);
    if (foreignOwner && ::geteuid() != 0)
        QSKIP("giving a directory to another user needs root");
    const QString real = m_root->filePath(QStringLiteral("real"));
    QVERIFY(QDir().mkdir(real));
    QCOMPARE(::chmod(QFile::encodeName(real).constData(), mode_t(mode)), 0);
    if (foreignOwner)
        QCOMPARE(::chown(QFile::encodeName(real).constData(), 65534, 65534), 0);
    QString directory = real;
    if (symlink) {
        directory = m_root->filePath(QStringLiteral("link"));
        QVERIFY(QFile::link(real, directory));
    }
    for (const Status &status : { RuntimeDirectory::ensure(directory), RuntimeDirectory::verify(directory) }) {
        QVERIFY(!status.ok());
        const QString message = status.error().toString();
        QVERIFY2(message.contains(directory) && message.contains(said), qPrintable(message));
    }
}

void TestRuntimeDirectory::aSocketPathTooLongIsRefused()
{
    const QString fits = QLatin1Char('/') + QString(RuntimeDirectory::kMaxSocketPathBytes - 1, QLatin1Char('a'));
    QVERIFY(RuntimeDirectory::checkSocketPath(fits).ok());
    const QString tooLong = fits + QLatin1Char('b');
    const Status refused = RuntimeDirectory::checkSocketPath(tooLong);
    QVERIFY(!refused.ok());
    const QString message = refused.error().toString();
    QVERIFY2(message.contains(tooLong) && message.contains(QStringLiteral("108 bytes"))
                 && message.contains(QStringLiteral("XDG_RUNTIME_DIR")),
             qPrintable(message));
}

QTEST_GUILESS_MAIN(TestRuntimeDirectory)
#include "tst_runtimedirectory.moc"
