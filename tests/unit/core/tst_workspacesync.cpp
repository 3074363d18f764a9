// The workspace round trip every remote backend shares (engine/core/workspace/WorkspaceSync): what is
// uploaded (never a denied path), what comes back (the conflict rule, the repository rules,
// the policy's writable paths), an archive cut off or too large, and the progress of a
// large upload. The "remote" side is a folder this test unpacks into and archives with the
// system's tar, as a remote backend's own tar would.
#include "core/workspace/WorkspaceSync.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace sandbox;

namespace {

// A transfer into a folder on this computer, through tar as a remote copy would get it.
class FolderTransfer final : public WorkspaceTransfer
{
public:
    explicit FolderTransfer(QString folder)
        : m_folder(std::move(folder))
    { }

    void send(const QString &archive, Progress progress, Done done) override
    {
        m_tar = std::make_unique<QProcess>();
        QObject::connect(m_tar.get(), &QProcess::finished, m_tar.get(), [this, done] {
            done(m_tar->exitCode() == 0 ? QString() : QString::fromUtf8(m_tar->readAllStandardError()));
        });
        m_tar->start(
            QStringLiteral("tar"),
            { QStringLiteral("-x"), QStringLiteral("-f"), QStringLiteral("-"), QStringLiteral("-C"), m_folder });
        QFile file(archive);
        if (!file.open(QIODevice::ReadOnly))
            return done(file.errorString());
        qint64 sent = 0;
        while (!file.atEnd()) {
            const QByteArray chunk = file.read(1024 * 1024);
            m_tar->write(chunk);
            sent += chunk.size();
            progress(sent);
        }
        m_tar->closeWriteChannel();
    }

    void fetch(Sink sink, Done done) override
    {
        m_tar = std::make_unique<QProcess>();
        auto stopped = std::make_shared<bool>(false);
        auto written = std::make_shared<qint64>(0);
        QObject::connect(m_tar.get(), &QProcess::readyReadStandardOutput, m_tar.get(), [=, this] {
            QByteArray chunk = m_tar->readAllStandardOutput();
            if (*stopped)
                return;
            if (cutOff > 0 && *written + chunk.size() > cutOff)
                chunk.truncate(cutOff - *written);
            *written += chunk.size();
            if (!sink(chunk)) {
                *stopped = true;
                m_tar->kill();
            }
        });
        QObject::connect(m_tar.get(), &QProcess::finished, m_tar.get(), [this, done, stopped] {
            done(*stopped || m_tar->exitCode() != 0 ? QStringLiteral("tar ended with status %1").arg(m_tar->exitCode())
                                                    : QString());
        });
        m_tar->start(QStringLiteral("tar"),
                     { QStringLiteral("-c"), QStringLiteral("-f"), QStringLiteral("-"), QStringLiteral("-C"), m_folder,
                       QStringLiteral(".") });
    }

    qint64 cutOff = 0; // the archive coming back ends after this many bytes

private:
    QString m_folder;
    std::unique_ptr<QProcess> m_tar;
};

bool write(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(data) == data.size();
}

QByteArray read(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
}

} // namespace

class TestWorkspaceSync final : public QObject
{
    Q_OBJECT

private:
    Policy policyFor(const QString &root) const
    {
        Policy policy = Policy::defaults();
        policy.writable = { root };
        policy.denied = { root + QStringLiteral("/secret") };
        policy.readOnly = { root + QStringLiteral("/docs") };
        return policy;
    }

    QByteArray notes(const QSignalSpy &spy) const
    {
        QByteArray all;
        for (const QList<QVariant> &arguments : spy)
            all += arguments.at(0).toByteArray();
        return all;
    }

private slots:
    void roundTripWithConflictAndRefusals()
    {
        QTemporaryDir host;
        QTemporaryDir remote;
        const QString root = host.path();
        QVERIFY(write(root + QStringLiteral("/a.txt"), "host\n"));
        QVERIFY(write(root + QStringLiteral("/b.txt"), "host b\n"));
        QVERIFY(write(root + QStringLiteral("/docs/readme"), "read only\n"));
        QVERIFY(write(root + QStringLiteral("/secret/key"), "never uploaded\n"));
        QVERIFY(write(root + QStringLiteral("/.git/HEAD"), "ref: refs/heads/main\n"));
        QVERIFY(QDir().mkpath(root + QStringLiteral("/.git/objects")));
        QVERIFY(QDir().mkpath(root + QStringLiteral("/.git/hooks")));

        FolderTransfer transfer(remote.path());
        WorkspaceSync sync(root, policyFor(root), transfer, QStringLiteral("the test folder"));
        QSignalSpy uploaded(&sync, &WorkspaceSync::uploaded);
        QSignalSpy failed(&sync, &WorkspaceSync::uploadFailed);
        QSignalSpy note(&sync, &WorkspaceSync::note);
        QSignalSpy back(&sync, &WorkspaceSync::broughtBack);
        sync.upload();
        QTRY_COMPARE(uploaded.count() + failed.count(), 1);
        QCOMPARE(failed.count(), 0);
        QCOMPARE(read(remote.filePath(QStringLiteral("a.txt"))), QByteArray("host\n"));
        QVERIFY(!QFileInfo::exists(remote.filePath(QStringLiteral("secret"))));

        // The "command": changes in the copy, while the host changes b.txt meanwhile.
        QVERIFY(write(remote.filePath(QStringLiteral("a.txt")), "remote\n"));
        QVERIFY(write(remote.filePath(QStringLiteral("b.txt")), "remote b\n"));
        QVERIFY(write(remote.filePath(QStringLiteral("new/c.txt")), "new\n"));
        QVERIFY(write(remote.filePath(QStringLiteral("docs/readme")), "changed\n"));
        QVERIFY(write(remote.filePath(QStringLiteral("secret/planted")), "planted\n"));
        QVERIFY(write(remote.filePath(QStringLiteral(".git/hooks/pre-commit")), "#!/bin/sh\n"));
        QVERIFY(write(remote.filePath(QStringLiteral(".git/config")), "[core]\n\tfsmonitor = evil\n"));
        QVERIFY(write(root + QStringLiteral("/b.txt"), "edited on the host meanwhile\n"));

        sync.bringBack(ExitStatus{ 3, false, 0, false });
        QTRY_COMPARE(back.count(), 1);
        QCOMPARE(back.at(0).at(0).value<ExitStatus>().exitCode, 3);
        QCOMPARE(read(root + QStringLiteral("/a.txt")), QByteArray("remote\n"));
        QCOMPARE(read(root + QStringLiteral("/new/c.txt")), QByteArray("new\n"));
        QCOMPARE(read(root + QStringLiteral("/b.txt")), QByteArray("edited on the host meanwhile\n"));
        QCOMPARE(read(root + QStringLiteral("/b.txt.sandbox-conflict")), QByteArray("remote b\n"));
        QCOMPARE(read(root + QStringLiteral("/docs/readme")), QByteArray("read only\n"));
        QVERIFY(!QFileInfo::exists(root + QStringLiteral("/secret/planted")));
        QVERIFY(!QFileInfo::exists(root + QStringLiteral("/.git/hooks/pre-commit")));
        QVERIFY(!QFileInfo::exists(root + QStringLiteral("/.git/config")));
        const QByteArray said = notes(note);
        QVERIFY2(said.contains("sandbox: b.txt changed on this computer while the command ran; the sandbox's version "
                               "is b.txt.sandbox-conflict\n"),
                 said.constData());
        QVERIFY2(said.contains("sandbox: not brought back: .git/hooks/pre-commit"), said.constData());
        QVERIFY2(said.contains("sandbox: not brought back: .git/config"), said.constData());
        QVERIFY2(said.contains("sandbox: not brought back: docs/readme (the policy does not let commands write it)"),
                 said.constData());
        QVERIFY2(!said.contains("secret"), said.constData());
    }

    void cutOffArchiveChangesNothing()
    {
        QTemporaryDir host;
        QTemporaryDir remote;
        const QString root = host.path();
        QVERIFY(write(root + QStringLiteral("/a.txt"), "host\n"));
        FolderTransfer transfer(remote.path());
        WorkspaceSync sync(root, policyFor(root), transfer, QStringLiteral("the test folder"));
        QSignalSpy uploaded(&sync, &WorkspaceSync::uploaded);
        QSignalSpy note(&sync, &WorkspaceSync::note);
        QSignalSpy back(&sync, &WorkspaceSync::broughtBack);
        sync.upload();
        QTRY_COMPARE(uploaded.count(), 1);
        QVERIFY(write(remote.filePath(QStringLiteral("a.txt")), "remote\n"));
        QVERIFY(write(remote.filePath(QStringLiteral("z.txt")), QByteArray(4096, 'z')));
        transfer.cutOff = 1536; // inside the archive's members, before its end blocks
        sync.bringBack(ExitStatus{});
        QTRY_COMPARE(back.count(), 1);
        QCOMPARE(back.at(0).at(0).value<ExitStatus>().exitCode, 255);
        QCOMPARE(read(root + QStringLiteral("/a.txt")), QByteArray("host\n"));
        const QByteArray said = notes(note);
        QVERIFY2(said.contains("sandbox: the command exited with status 0, but nothing of the workspace was brought "
                               "back from the test folder"),
                 said.constData());
    }

    void largeUploadReportsProgress()
    {
        QTemporaryDir host;
        QTemporaryDir remote;
        const QString root = host.path();
        QVERIFY(write(root + QStringLiteral("/big.bin"), QByteArray(WorkspaceSync::progressBytes + 1024, 'b')));
        QVERIFY(write(root + QStringLiteral("/secret/big.bin"), QByteArray(WorkspaceSync::progressBytes, 's')));
        FolderTransfer transfer(remote.path());
        WorkspaceSync sync(root, policyFor(root), transfer, QStringLiteral("the test folder"));
        QSignalSpy uploaded(&sync, &WorkspaceSync::uploaded);
        QSignalSpy note(&sync, &WorkspaceSync::note);
        sync.upload();
        QTRY_COMPARE(uploaded.count(), 1);
        // Four quarters, the denied folder's 16 MB not among them.
        QCOMPARE(note.count(), 4);
        QVERIFY2(notes(note).contains("sandbox: workspace upload to the test folder: 16 of 16 MB\n"),
                 notes(note).constData());
    }
};

QTEST_GUILESS_MAIN(TestWorkspaceSync)

#include "tst_workspacesync.moc"
