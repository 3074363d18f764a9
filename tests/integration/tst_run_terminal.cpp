// `sandboxctl run -t` in a real pseudo-terminal, as a user at a terminal runs it: the command
// gets a terminal of its own, sized as the user's, resized with it, Ctrl-C typed there
// reaches it through its line discipline, the user's terminal is raw while it runs and
// restored after; without a terminal, -t is refused. Each with the engine embedded and
// through sandboxd, in both tiers of builtin:auto. The escape rows try to inject input into
// a terminal from inside and to reach the user's.
#include "ProgramRun.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <memory>
#include <poll.h>
#include <pty.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

using sandbox::test::binary;

namespace {

// A program run on a new pseudo-terminal whose other side the test holds: the test types
// into it and reads what the program shows, as a terminal emulator does. The test keeps
// the program's side open too, so the terminal's settings can be read after it ended.
class TerminalRun final
{
public:
    TerminalRun() = default;
    TerminalRun(const TerminalRun &) = delete;
    TerminalRun &operator=(const TerminalRun &) = delete;
    ~TerminalRun()
    {
        if (m_pid > 0 && m_status == -1) {
            ::kill(m_pid, SIGKILL);
            ::waitpid(m_pid, nullptr, 0);
        }
        if (m_master >= 0)
            ::close(m_master);
        if (m_terminal >= 0)
            ::close(m_terminal);
    }

    // The terminal, rows x columns, before anything runs on it.
    bool open(int rows, int columns)
    {
        winsize size{};
        size.ws_row = static_cast<unsigned short>(rows);
        size.ws_col = static_cast<unsigned short>(columns);
        if (::openpty(&m_master, &m_terminal, nullptr, nullptr, &size) != 0)
            return false;
        return ::tcgetattr(m_terminal, &m_initial) == 0;
    }

    bool start(const QString &program, const QStringList &args, const QString &cwd,
               const QProcessEnvironment &environment)
    {
        QList<QByteArray> argv{ QFile::encodeName(program) };
        for (const QString &arg : args)
            argv.append(arg.toUtf8());
        QList<QByteArray> envp;
        for (const QString &entry : environment.toStringList())
            envp.append(entry.toUtf8());
        const QByteArray directory = QFile::encodeName(cwd);
        std::vector<char *> argPointers;
        for (QByteArray &arg : argv)
            argPointers.push_back(arg.data());
        argPointers.push_back(nullptr);
        std::vector<char *> envPointers;
        for (QByteArray &entry : envp)
            envPointers.push_back(entry.data());
        envPointers.push_back(nullptr);
        m_pid = ::fork();
        if (m_pid == 0) {
            ::setsid();
            ::ioctl(m_terminal, TIOCSCTTY, 0);
            ::dup2(m_terminal, 0);
            ::dup2(m_terminal, 1);
            ::dup2(m_terminal, 2);
            if (::chdir(directory.constData()) != 0)
                ::_exit(120);
            ::execve(argPointers[0], argPointers.data(), envPointers.data());
            ::_exit(121);
        }
        return m_pid > 0;
    }

    // Waits (a minute at most) until the program has shown `text`.
    bool waitFor(const QByteArray &text)
    {
        QDeadlineTimer deadline(60000);
        while (!m_shown.contains(text)) {
            pollfd fd{ m_master, POLLIN, 0 };
            const int ready = ::poll(&fd, 1, int(deadline.remainingTime()));
            if (ready < 0 && errno == EINTR)
                continue;
            if (ready <= 0 || !readSome())
                return false;
        }
        return true;
    }

    void type(const QByteArray &keys)
    {
        QVERIFY(::write(m_master, keys.constData(), size_t(keys.size())) == keys.size());
    }

    // The window is now rows x columns: the program gets SIGWINCH, as from a terminal emulator.
    void resize(int rows, int columns)
    {
        winsize size{};
        size.ws_row = static_cast<unsigned short>(rows);
        size.ws_col = static_cast<unsigned short>(columns);
        QCOMPARE(::ioctl(m_master, TIOCSWINSZ, &size), 0);
    }

    pid_t pid() const { return m_pid; }
    // The signal that ended the program (after finish()), 0 when it exited.
    int endingSignal() const { return m_status >= 1000 ? m_status - 1000 : 0; }

    // The program's exit status once it has ended (a minute at most), everything it showed
    // read; -1 when it did not end or was killed.
    int finish()
    {
        QDeadlineTimer deadline(60000);
        while (m_status == -1 && !deadline.hasExpired()) {
            int status = 0;
            if (::waitpid(m_pid, &status, WNOHANG) == m_pid) {
                m_status = WIFEXITED(status) ? WEXITSTATUS(status) : 1000 + WTERMSIG(status);
                break;
            }
            // What it shows keeps coming until it ends; an end is not an event on the terminal.
            pollfd fd{ m_master, POLLIN, 0 };
            if (::poll(&fd, 1, 50) > 0)
                readSome();
        }
        while (readSome()) { }
        return m_status >= 1000 ? -1 : m_status;
    }

    // The user's terminal settings now.
    termios settings() const
    {
        termios now{};
        ::tcgetattr(m_terminal, &now);
        return now;
    }
    const termios &initialSettings() const { return m_initial; }
    QByteArray shown() const { return m_shown; }
    QByteArray terminalName() const { return QByteArray(::ttyname(m_terminal)); }
    // The user's terminal as a file: "device of its file system:device number".
    QString identity() const
    {
        struct stat st
        {
        };
        ::fstat(m_terminal, &st);
        return QStringLiteral("%1:%2").arg(quint64(st.st_dev)).arg(quint64(st.st_rdev));
    }
    // Input typed into the user's terminal that no one has read.
    int pendingInput() const
    {
        int pending = -1;
        ::ioctl(m_terminal, FIONREAD, &pending);
        return pending;
    }

private:
    bool readSome()
    {
        const int flags = ::fcntl(m_master, F_GETFL);
        ::fcntl(m_master, F_SETFL, flags | O_NONBLOCK);
        char buffer[4096];
        const ssize_t n = ::read(m_master, buffer, sizeof buffer);
        ::fcntl(m_master, F_SETFL, flags);
        if (n <= 0)
            return false;
        m_shown.append(buffer, n);
        return true;
    }

    int m_master = -1;
    int m_terminal = -1;
    pid_t m_pid = -1;
    int m_status = -1;
    termios m_initial{};
    QByteArray m_shown;
};

bool sameTerminalMode(const termios &a, const termios &b)
{
    return a.c_iflag == b.c_iflag && a.c_oflag == b.c_oflag && a.c_lflag == b.c_lflag && a.c_cflag == b.c_cflag;
}

} // namespace

class TestRunTerminal final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void commandHasATerminalOfItsOwn_data() { engineRows(); }
    void commandHasATerminalOfItsOwn();
    void resizedWindowResizesTheCommandsTerminal_data() { engineRows(); }
    void resizedWindowResizesTheCommandsTerminal();
    void ctrlCIsTypedIntoTheCommandsTerminal_data() { engineRows(); }
    void ctrlCIsTypedIntoTheCommandsTerminal();
    void endingSignalsRestoreTheTerminal_data() { engineRows(); }
    void endingSignalsRestoreTheTerminal();
    void withoutATerminalNothingRuns_data() { engineRows(); }
    void withoutATerminalNothingRuns();
    void escapeTerminalInjectionIsRefused_data() { engineRows(); }
    void escapeTerminalInjectionIsRefused();

private:
    void engineRows();
    // Starts sandboxd when the row asks for it.
    void startEngineOfRow();
    QProcessEnvironment environment() const;
    QStringList run(const QStringList &command) const
    {
        return QStringList{ QStringLiteral("run"), QStringLiteral("-t"), QStringLiteral("--") } + command;
    }

    std::unique_ptr<QTemporaryDir> m_root;
    QString m_work;
    QString m_report;
    QProcess m_daemon;
    QByteArray m_daemonLog;
};

void TestRunTerminal::engineRows()
{
    QTest::addColumn<bool>("daemon");
    QTest::addColumn<QString>("tier");
    for (const QString &tier : { QStringLiteral("strongest"), QStringLiteral("landlock-seccomp") }) {
        QTest::newRow(qPrintable(QStringLiteral("embedded, ") + tier)) << false << tier;
        QTest::newRow(qPrintable(QStringLiteral("sandboxd, ") + tier)) << true << tier;
    }
}

void TestRunTerminal::init()
{
    // Not under /tmp: tier 2 refuses a command whose writable paths (/tmp) reach the engine's
    // directories.
    m_root = std::make_unique<QTemporaryDir>(QStringLiteral("/var/tmp/run-terminal-XXXXXX"));
    QVERIFY(m_root->isValid());
    for (const char *directory : { "run", "config", "state", "home", "work" })
        QVERIFY(QDir(m_root->path()).mkpath(QString::fromLatin1(directory)));
    QVERIFY(QFile::setPermissions(m_root->filePath(QStringLiteral("run")),
                                  QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
    m_work = m_root->filePath(QStringLiteral("work"));
    m_report = m_root->filePath(QStringLiteral("run-paths"));
    startEngineOfRow();
}

void TestRunTerminal::cleanup()
{
    if (QTest::currentTestFailed() && !m_daemonLog.isEmpty())
        qWarning().noquote() << "sandboxd:\n" << m_daemonLog;
    sandbox::test::stopGracefully(m_daemon);
    m_daemonLog.clear();
    m_root.reset();
}

QProcessEnvironment TestRunTerminal::environment() const
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_root->filePath(QStringLiteral("run")));
    environment.insert(QStringLiteral("SANDBOX_CONFIG_DIR"), m_root->filePath(QStringLiteral("config")));
    environment.insert(QStringLiteral("SANDBOX_STATE_DIR"), m_root->filePath(QStringLiteral("state")));
    environment.insert(QStringLiteral("HOME"), m_root->filePath(QStringLiteral("home")));
    environment.insert(QStringLiteral("SANDBOXCTL_RUN_PATH_REPORT"), m_report);
    environment.insert(QStringLiteral("TERM"), QStringLiteral("xterm"));
    return environment;
}

void TestRunTerminal::startEngineOfRow()
{
    QFETCH(bool, daemon);
    QFETCH(QString, tier);
    const QString sandboxctl = binary(QStringLiteral("sandboxctl"));
    QCOMPARE(sandbox::test::runProgram(sandboxctl,
                                       { QStringLiteral("settings"), QStringLiteral("set"),
                                         QStringLiteral("builtin:auto"), QStringLiteral("tier=") + tier },
                                       m_work, {}, 60000, environment())
                 .exitCode,
             0);
    QCOMPARE(sandbox::test::runProgram(sandboxctl, { QStringLiteral("activate"), QStringLiteral("builtin:auto") },
                                       m_work, {}, 60000, environment())
                 .exitCode,
             0);
    if (!daemon)
        return;
    sandbox::test::startSandboxd(m_daemon, environment(),
                                 m_root->filePath(QStringLiteral("run/sandbox-studio/engine.sock")), m_daemonLog);
}

// isatty on its three streams, `tty` names its terminal, `stty size` is the user's window;
// the user's terminal is raw while it runs and as before once it ended; the status is the
// command's. A -t run is never the run front's (it relays no terminal).
void TestRunTerminal::commandHasATerminalOfItsOwn()
{
    TerminalRun terminal;
    QVERIFY(terminal.open(31, 97));
    QVERIFY(terminal.start(binary(QStringLiteral("sandboxctl")),
                           run({ QStringLiteral("sh"), QStringLiteral("-c"),
                                 QStringLiteral("test -t 0 && test -t 1 && test -t 2 && echo all-terminals; "
                                                "echo name=$(tty); echo size=$(stty size); echo ready; read line; "
                                                "echo typed=$line; exit 7") }),
                           m_work, environment()));
    QVERIFY2(terminal.waitFor("ready"), terminal.shown().constData());
    QVERIFY2(!(terminal.settings().c_lflag & (ICANON | ECHO | ISIG)), "the user's terminal is not raw");
    terminal.type("hello\r");
    QVERIFY2(terminal.waitFor("typed=hello"), terminal.shown().constData());
    QCOMPARE(terminal.finish(), 7);
    const QByteArray shown = terminal.shown();
    QVERIFY2(shown.contains("all-terminals"), shown.constData());
    QVERIFY2(shown.contains("name=/dev/pts/"), shown.constData());
    QVERIFY2(shown.contains("size=31 97"), shown.constData());
    QVERIFY2(sameTerminalMode(terminal.settings(), terminal.initialSettings()), "the user's terminal stayed raw");
    QFile report(m_report);
    QVERIFY(report.open(QIODevice::ReadOnly));
    QVERIFY2(report.readAll().startsWith("full"), "a -t run went another way than the full program");
}

void TestRunTerminal::resizedWindowResizesTheCommandsTerminal()
{
    TerminalRun terminal;
    QVERIFY(terminal.open(24, 80));
    QVERIFY(terminal.start(binary(QStringLiteral("sandboxctl")),
                           run({ QStringLiteral("sh"), QStringLiteral("-c"),
                                 QStringLiteral("trap 'echo resized=$(stty size); exit 0' WINCH; echo ready; "
                                                "while :; do sleep 1; done") }),
                           m_work, environment()));
    QVERIFY2(terminal.waitFor("ready"), terminal.shown().constData());
    terminal.resize(42, 133);
    QVERIFY2(terminal.waitFor("resized=42 133"), terminal.shown().constData());
    QCOMPARE(terminal.finish(), 0);
    QVERIFY(sameTerminalMode(terminal.settings(), terminal.initialSettings()));
}

// Ctrl-C is a key like any other for sandboxctl: the command's own terminal turns it into
// SIGINT for the command (130).
void TestRunTerminal::ctrlCIsTypedIntoTheCommandsTerminal()
{
    TerminalRun terminal;
    QVERIFY(terminal.open(24, 80));
    QVERIFY(terminal.start(
        binary(QStringLiteral("sandboxctl")),
        run({ QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo ready; exec sleep 300") }), m_work,
        environment()));
    QVERIFY2(terminal.waitFor("ready"), terminal.shown().constData());
    terminal.type("\x03");
    QCOMPARE(terminal.finish(), 130);
    QVERIFY(sameTerminalMode(terminal.settings(), terminal.initialSettings()));
}

// sandboxctl ended by a signal while the command runs: SIGTERM is passed on (143, as the
// command ends), a crash signal ends sandboxctl itself; the user's terminal is as before
// either way.
void TestRunTerminal::endingSignalsRestoreTheTerminal()
{
    for (const int signalNumber : { SIGTERM, SIGSEGV, SIGQUIT }) {
        TerminalRun terminal;
        QVERIFY(terminal.open(24, 80));
        QVERIFY(terminal.start(
            binary(QStringLiteral("sandboxctl")),
            run({ QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo ready; exec sleep 300") }), m_work,
            environment()));
        QVERIFY2(terminal.waitFor("ready"), terminal.shown().constData());
        QVERIFY(!(terminal.settings().c_lflag & ICANON));
        QCOMPARE(::kill(terminal.pid(), signalNumber), 0);
        const int status = terminal.finish();
        if (signalNumber == SIGTERM)
            QCOMPARE(status, 128 + SIGTERM);
        else
            QCOMPARE(terminal.endingSignal(), signalNumber);
        QVERIFY2(sameTerminalMode(terminal.settings(), terminal.initialSettings()),
                 qPrintable(QStringLiteral("still raw after signal %1").arg(signalNumber)));
    }
}

// As podman refuses -t when "the input device is not a TTY": nothing runs, status 125.
void TestRunTerminal::withoutATerminalNothingRuns()
{
    const QString marker = QDir(m_work).filePath(QStringLiteral("ran"));
    const sandbox::test::Outcome outcome
        = sandbox::test::runProgram(binary(QStringLiteral("sandboxctl")), run({ QStringLiteral("touch"), marker }),
                                    m_work, {}, 60000, environment());
    QCOMPARE(outcome.exitCode, 125);
    QVERIFY2(outcome.err.contains("-t: the input is not a terminal"), outcome.err.constData());
    QVERIFY(!QFile::exists(marker));
}

// From inside: TIOCSTI (type into a terminal's input) and TIOCLINUX are refused on the
// command's own terminal, through fd 0 and through /dev/tty, so nothing is typed anywhere;
// /dev/tty, opened for writing (which sandbox-init's write gate does for the command), is
// the command's own terminal, never the user's; the user's terminal cannot be opened by its
// name. Without -t the command has no terminal at all: /dev/tty does not open.
void TestRunTerminal::escapeTerminalInjectionIsRefused()
{
    const QString probe
        = QStringLiteral("import fcntl, os, struct, sys, termios\n"
                         "def identity(fd):\n"
                         "    st = os.fstat(fd)\n"
                         "    return '%d:%d' % (st.st_dev, st.st_rdev)\n"
                         "def attempt(name, fd, request, arg):\n"
                         "    try:\n"
                         "        fcntl.ioctl(fd, request, arg)\n"
                         "        print(name, 'done')\n"
                         "    except OSError as error:\n"
                         "        print(name, 'refused', error.errno)\n"
                         "try:\n"
                         "    tty = os.open('/dev/tty', os.O_RDWR)\n"
                         // TIOCGSID answers only on the caller's own controlling terminal.
                         "    try:\n"
                         "        session = fcntl.ioctl(tty, getattr(termios, 'TIOCGSID', 0x5429), b'\\0' * 4)\n"
                         "        own = struct.unpack('i', session)[0] == os.getsid(0)\n"
                         "    except OSError:\n"
                         "        own = False\n"
                         "    print('devtty', 'own' if own else 'other')\n"
                         "    attempt('sti-devtty', tty, termios.TIOCSTI, b'x')\n"
                         "except OSError as error:\n"
                         "    print('devtty unopened', error.errno)\n"
                         "if os.isatty(0):\n"
                         "    attempt('sti-stdin', 0, termios.TIOCSTI, b'x')\n"
                         "    attempt('linux-stdin', 0, 0x541C, b'\\x0b')\n"
                         "try:\n"
                         "    user = os.open(sys.argv[1], os.O_WRONLY | os.O_NOCTTY)\n"
                         "    print('user-terminal', 'reached' if identity(user) == sys.argv[2] else 'not reached')\n"
                         "except OSError as error:\n"
                         "    print('user-terminal refused', error.errno)\n"
                         "print('probe-done')\n");
    for (const bool withTerminal : { true, false }) {
        TerminalRun probed;
        QVERIFY(probed.open(24, 80));
        const QStringList command{ QStringLiteral("/usr/bin/python3"), QStringLiteral("-c"), probe,
                                   QString::fromUtf8(probed.terminalName()), probed.identity() };
        QVERIFY(probed.start(binary(QStringLiteral("sandboxctl")),
                             withTerminal ? run(command)
                                          : QStringList{ QStringLiteral("run"), QStringLiteral("--") } + command,
                             m_work, environment()));
        QVERIFY2(probed.waitFor("probe-done"), probed.shown().constData());
        QCOMPARE(probed.finish(), 0);
        const QByteArray shown = probed.shown();
        const QList<const char *> expected = withTerminal
            ? QList<const char *>{ "devtty own", "sti-devtty refused", "sti-stdin refused", "linux-stdin refused" }
            : QList<const char *>{ "devtty unopened" };
        for (const char *line : expected)
            QVERIFY2(shown.contains(line), QByteArray(QByteArray(line) + "\n" + shown).constData());
        for (const char *line :
             { "sti-devtty done", "sti-stdin done", "linux-stdin done", "devtty user", "user-terminal reached" })
            QVERIFY2(!shown.contains(line), QByteArray(QByteArray(line) + "\n" + shown).constData());
        // Nothing was typed into the user's terminal.
        QCOMPARE(probed.pendingInput(), 0);
    }
}

QTEST_GUILESS_MAIN(TestRunTerminal)
#include "tst_run_terminal.moc"
