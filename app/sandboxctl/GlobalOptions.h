#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>
#include <QMap>
#include <QString>

namespace sandbox {

// The options every sandboxctl command accepts (before or after the command name): which
// engine to reach or host, and answers to Host Interaction questions.
struct GlobalOptions
{
    QString socket;
    bool embedded = false;
    QString configDirectory;
    QMap<QString, QString> answers;

    static QList<QCommandLineOption> options();
    // Takes the global options `parser` found; an error message when one is malformed.
    QString take(const QCommandLineParser &parser);
};

} // namespace sandbox
