#include "Terminal.h"

#include "fdio/FdIo.h"

#include <QFile>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

namespace sandbox {

namespace {

// What raw mode replaced, for the signal handler too (which may only read it).
termios g_savedTerminal{};
volatile sig_atomic_t g_rawMode = 0;

// The signals whose default action ends the program without running exit handlers.
constexpr int kEndingSignals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGQUIT, SIGTRAP, SIGSYS };

void restoreAndReraise(int signalNumber)
{
    // Async-signal-safe: tcsetattr is, and the action was reset to the default on entry.
    if (g_rawMode)
        ::tcsetattr(STDIN_FILENO, TCSANOW, &g_savedTerminal);
    ::raise(signalNumber);
}

void restoreAtExit()
{
    Terminal::leaveRawMode();
}

std::optional<QString> readLineFrom(int fd)
{
    QByteArray line;
    char c = 0;
    for (;;) {
        const ssize_t n = ::read(fd, &c, 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return line.isEmpty() ? std::nullopt : std::optional<QString>(QString::fromUtf8(line));
        if (c == '\n')
            return QString::fromUtf8(line);
        line.append(c);
    }
}

} // namespace

bool Terminal::isInteractive()
{
    return ::isatty(STDIN_FILENO) && ::isatty(STDERR_FILENO);
}

std::optional<QString> Terminal::readLine(const QString &prompt)
{
    err(prompt);
    return readLineFrom(STDIN_FILENO);
}

std::optional<QString> Terminal::readSecretInput(const QString &prompt)
{
    if (::isatty(STDIN_FILENO))
        return readSecret(prompt).value_or(QString());
    QFile in;
    if (!in.open(stdin, QIODevice::ReadOnly))
        return std::nullopt;
    QString value = QString::fromUtf8(in.readAll());
    if (value.endsWith(QLatin1Char('\n')))
        value.chop(1);
    if (value.endsWith(QLatin1Char('\r')))
        value.chop(1);
    return value;
}

std::optional<QString> Terminal::readSecret(const QString &prompt)
{
    // Echo goes off before the prompt appears, so nothing typed after seeing it is shown;
    // TCSANOW keeps anything already typed (TCSAFLUSH would silently drop it).
    termios saved{};
    const bool tty = ::tcgetattr(STDIN_FILENO, &saved) == 0;
    if (tty) {
        termios quiet = saved;
        quiet.c_lflag &= ~tcflag_t(ECHO);
        quiet.c_lflag |= ECHONL;
        ::tcsetattr(STDIN_FILENO, TCSANOW, &quiet);
    }
    err(prompt);
    std::optional<QString> value = readLineFrom(STDIN_FILENO);
    if (tty)
        ::tcsetattr(STDIN_FILENO, TCSANOW, &saved);
    return value;
}

bool Terminal::writeAll(int fd, const QByteArray &data)
{
    return fdio::writeAll(fd, data.constData(), std::size_t(data.size()));
}

std::optional<TerminalSize> Terminal::size(int fd)
{
    winsize window{};
    if (!::isatty(fd) || ::ioctl(fd, TIOCGWINSZ, &window) != 0)
        return std::nullopt;
    TerminalSize size;
    // A terminal that does not know its size (0 x 0) gets the usual 24 x 80.
    if (window.ws_row > 0 && window.ws_col > 0) {
        size.rows = window.ws_row;
        size.columns = window.ws_col;
    }
    return size;
}

bool Terminal::enterRawMode()
{
    if (g_rawMode)
        return true;
    termios raw{};
    if (::tcgetattr(STDIN_FILENO, &g_savedTerminal) != 0)
        return false;
    static bool handlersInstalled = false;
    if (!std::exchange(handlersInstalled, true)) {
        std::atexit(restoreAtExit);
        struct sigaction action
        {
        };
        action.sa_handler = restoreAndReraise;
        action.sa_flags = SA_RESETHAND | SA_NODEFER;
        sigemptyset(&action.sa_mask);
        for (const int signalNumber : kEndingSignals) {
            struct sigaction previous
            {
            };
            // A signal someone else handles (or ignores) stays theirs.
            if (::sigaction(signalNumber, nullptr, &previous) == 0 && previous.sa_handler == SIG_DFL)
                ::sigaction(signalNumber, &action, nullptr);
        }
    }
    raw = g_savedTerminal;
    ::cfmakeraw(&raw);
    // TCSANOW: keys typed already stay for the command.
    if (::tcsetattr(STDIN_FILENO, TCSANOW, &raw) != 0)
        return false;
    g_rawMode = 1;
    return true;
}

void Terminal::leaveRawMode()
{
    if (!g_rawMode)
        return;
    g_rawMode = 0;
    ::tcsetattr(STDIN_FILENO, TCSANOW, &g_savedTerminal);
}

void Terminal::out(const QString &text)
{
    writeAll(STDOUT_FILENO, text.toUtf8());
}

void Terminal::err(const QString &text)
{
    writeAll(STDERR_FILENO, text.toUtf8());
}

} // namespace sandbox
