#include "Terminal.h"

#include <cerrno>
#include <cstdio>
#include <termios.h>
#include <unistd.h>

namespace sandbox {

namespace {

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
    qsizetype done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.constData() + done, size_t(data.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += n;
    }
    return true;
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
