#pragma once

#include <QByteArray>
#include <QString>

namespace sandbox::test {

// The whole content of the file at `path`; empty when it cannot be read.
QByteArray readFile(const QString &path);

// Writes `content` as the whole file at `path`, making the folders on the way; true when all
// of it was written.
bool writeFile(const QString &path, const QByteArray &content);

// The path of a program built beside the running test binary (sandboxd, sandboxctl, ...).
QString binary(const QString &name);

} // namespace sandbox::test
