#pragma once

#include "protocol/SpawnRequest.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace sandbox {

// The terminal a person answers on: prompts (written to stderr, so stdout stays the
// command's output) and input without echo for secrets.
class Terminal final
{
public:
    // True when a person can answer: stdin and stderr are terminals.
    static bool isInteractive();
    static std::optional<QString> readLine(const QString &prompt);
    static std::optional<QString> readSecret(const QString &prompt);
    // A secret value as `secret set` and `credential set` take it: typed without echo after
    // `prompt` when stdin is a terminal, otherwise all of stdin without its final line break.
    // Nothing when stdin cannot be read.
    static std::optional<QString> readSecretInput(const QString &prompt);

    // Writes all of `data` to a file descriptor (retrying short writes).
    static bool writeAll(int fd, const QByteArray &data);
    static void out(const QString &text); // stdout, UTF-8
    static void err(const QString &text); // stderr, UTF-8

    // The size of the terminal on `fd`; nothing when it is not a terminal.
    static std::optional<TerminalSize> size(int fd);
    // Raw mode for the terminal on stdin, as a command given a terminal of its own needs it
    // (every key, Ctrl-C and Ctrl-Z included, reaches the command as bytes). The settings
    // before it come back with leaveRawMode(), at the program's exit, or when a signal that
    // ends the program arrives (a crash included). False when stdin is not a terminal.
    static bool enterRawMode();
    static void leaveRawMode();
};

} // namespace sandbox
