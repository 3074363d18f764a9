// `sandboxctl tui` in a real terminal: tmux runs it in a pseudo-terminal, keys go in with
// send-keys and the screen comes back with capture-pane, exactly as a user sees it.
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

class TestTui final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void showsBackendsAndActivatesWithProgress();
    void switchesViewsAndFitsAResizedTerminal();
    void quitsCleanlyOnTermination();

private:
    QString tmux(const QStringList &args);
    QString screen()
    {
        return tmux({ QStringLiteral("capture-pane"), QStringLiteral("-p"), QStringLiteral("-t"), m_pane });
    }
    void keys(const QStringList &keys);
    QString exitStatus();
    QString tuiPid();

    std::unique_ptr<QTemporaryDir> m_root;
    QString m_server;
    QString m_pane = QStringLiteral("tui:0.0");
};

QString TestTui::tmux(const QStringList &args)
{
    QProcess process;
    process.start(QStringLiteral("tmux"), QStringList{ QStringLiteral("-L"), m_server } + args);
    if (!process.waitForFinished(20000))
        return {};
    return QString::fromUtf8(process.readAllStandardOutput());
}

void TestTui::keys(const QStringList &keys)
{
    tmux(QStringList{ QStringLiteral("send-keys"), QStringLiteral("-t"), m_pane } + keys);
}

// How sandboxctl ended, as the shell around it saw it: tmux may mark a pane dead before it
// has collected the exit status, so the status is written by that shell instead.
QString TestTui::exitStatus()
{
    QFile file(m_root->filePath(QStringLiteral("exit-status")));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).trimmed();
}

// The pid of sandboxctl itself: the only child of the shell that runs it in the pane.
QString TestTui::tuiPid()
{
    const QString shell = tmux({ QStringLiteral("display-message"), QStringLiteral("-p"), QStringLiteral("-t"), m_pane,
                                 QStringLiteral("#{pane_pid}") })
                              .trimmed();
    QFile children(QStringLiteral("/proc/%1/task/%1/children").arg(shell));
    if (shell.isEmpty() || !children.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(children.readAll()).trimmed();
}

void TestTui::init()
{
    m_root = std::make_unique<QTemporaryDir>();
    QVERIFY(m_root->isValid());
    QVERIFY(QDir(m_root->path()).mkpath(QStringLiteral("run")));
    QVERIFY(QFile::setPermissions(m_root->filePath(QStringLiteral("run")),
                                  QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
    // A tmux server of its own for every test function: the previous one may still be going
    // away after kill-server, and a new session must never land on it.
    static int serial = 0;
    m_server = QStringLiteral("sandbox-tui-test-%1-%2").arg(QCoreApplication::applicationPid()).arg(++serial);
    const QString command
        = QStringLiteral(
              "exec sh -c 'env SANDBOX_CONFIG_DIR=\"$1/config\" SANDBOX_STATE_DIR=\"$1/state\" TERM=xterm \"$2\" "
              "--embedded --socket \"$1/run/engine.sock\" tui; echo $? > \"$1/exit-status\"' sh '%1' '%2'")
              .arg(m_root->path(), QCoreApplication::applicationDirPath() + QStringLiteral("/sandboxctl"));
    tmux({ QStringLiteral("new-session"), QStringLiteral("-d"), QStringLiteral("-s"), QStringLiteral("tui"),
           QStringLiteral("-x"), QStringLiteral("120"), QStringLiteral("-y"), QStringLiteral("40"),
           QStringLiteral("sleep 3600") });
    tmux({ QStringLiteral("set-option"), QStringLiteral("-t"), QStringLiteral("tui"), QStringLiteral("remain-on-exit"),
           QStringLiteral("on") });
    tmux({ QStringLiteral("respawn-pane"), QStringLiteral("-k"), QStringLiteral("-t"), m_pane, command });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("BACKENDS")), 30000);
}

void TestTui::cleanup()
{
    if (QTest::currentTestFailed())
        qWarning().noquote() << "screen:\n" << screen();
    tmux({ QStringLiteral("kill-server") });
    m_root.reset();
}

void TestTui::showsBackendsAndActivatesWithProgress()
{
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("builtin:auto")), 30000);
    QVERIFY(screen().contains(QStringLiteral("builtin:vm")));
    QVERIFY(screen().contains(QStringLiteral("unavailable")));

    // The unavailable VM backend: the steps run, the failure is shown, auto stays active.
    keys({ QStringLiteral("Down"), QStringLiteral("Enter") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("activating builtin:vm failed")), 60000);
    QVERIFY(screen().contains(QStringLiteral("validate")));
    QVERIFY(screen().contains(QStringLiteral("failed")));
    QVERIFY(screen().contains(QStringLiteral("* builtin:auto")));

    keys({ QStringLiteral("Up"), QStringLiteral("Enter") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("builtin:auto is active")), 60000);
    const QString shown = screen();
    for (const QString &step : { QStringLiteral("validate"), QStringLiteral("prepare"), QStringLiteral("probe"),
                                 QStringLiteral("swap"), QStringLiteral("persist"), QStringLiteral("cleanup") })
        QVERIFY2(shown.contains(step), qPrintable(step));

    keys({ QStringLiteral("q") });
    QTRY_COMPARE_WITH_TIMEOUT(exitStatus(), QStringLiteral("0"), 30000);
}

void TestTui::switchesViewsAndFitsAResizedTerminal()
{
    keys({ QStringLiteral("p") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("host execution:  deny")), 30000);
    QVERIFY(screen().contains(QStringLiteral("~/.ssh")));
    keys({ QStringLiteral("r") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("PROCESSES")), 30000);

    tmux({ QStringLiteral("resize-window"), QStringLiteral("-t"), QStringLiteral("tui"), QStringLiteral("-x"),
           QStringLiteral("50"), QStringLiteral("-y"), QStringLiteral("15") });
    keys({ QStringLiteral("b") });
    QTRY_VERIFY_WITH_TIMEOUT(screen().contains(QStringLiteral("BACKENDS")), 30000);
    const QStringList rows = screen().split(QLatin1Char('\n'));
    for (const QString &row : rows)
        QVERIFY2(row.size() <= 50, qPrintable(row));
    // A row cut at the width, never wrapped onto the next.
    QVERIFY(!screen().contains(QStringLiteral("\nis build yet")));
}

void TestTui::quitsCleanlyOnTermination()
{
    const QString pid = tuiPid();
    QVERIFY(!pid.isEmpty() && !pid.contains(QLatin1Char(' ')));
    QProcess::execute(QStringLiteral("kill"), { QStringLiteral("-TERM"), pid });
    QTRY_COMPARE_WITH_TIMEOUT(exitStatus(), QString::number(128 + 15), 30000);
}

QTEST_GUILESS_MAIN(TestTui)
#include "tst_tui.moc"
