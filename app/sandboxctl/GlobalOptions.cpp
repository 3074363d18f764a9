#include "GlobalOptions.h"

#include <QCoreApplication>
#include <QDir>

namespace sandbox {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbox::GlobalOptions", text);
}

} // namespace

QList<QCommandLineOption> GlobalOptions::options()
{
    return {
        QCommandLineOption(QStringLiteral("socket"),
                           tr("the engine's socket (default: $XDG_RUNTIME_DIR/sandbox-studio/engine.sock, without "
                              "XDG_RUNTIME_DIR run/engine.sock in the engine's state directory)"),
                           QStringLiteral("PATH")),
        QCommandLineOption(QStringLiteral("embedded"),
                           tr("run the engine in this process (fails if another process runs it)")),
        QCommandLineOption(QStringLiteral("config-dir"),
                           tr("configuration directory of an engine this command hosts (also $SANDBOX_CONFIG_DIR; "
                              "$SANDBOX_STATE_DIR for backend state)"),
                           QStringLiteral("DIR")),
        QCommandLineOption(QStringLiteral("answer"),
                           tr("answer the Host Interaction question KEY (named when it is asked, e.g. "
                              "host-execution) without a prompt (repeatable)"),
                           QStringLiteral("KEY=VALUE")),
    };
}

QString GlobalOptions::take(const QCommandLineParser &parser)
{
    if (parser.isSet(QStringLiteral("embedded")))
        embedded = true;
    for (const char *name : { "socket", "config-dir", "answer" }) {
        const QStringList values = parser.values(QString::fromLatin1(name));
        for (const QString &value : values) {
            if (value.isEmpty())
                return tr("--%1 needs a value").arg(QString::fromLatin1(name));
        }
    }
    if (parser.isSet(QStringLiteral("socket")))
        socket = parser.value(QStringLiteral("socket"));
    if (parser.isSet(QStringLiteral("config-dir")))
        configDirectory = QDir(parser.value(QStringLiteral("config-dir"))).absolutePath();
    const QStringList answerValues = parser.values(QStringLiteral("answer"));
    for (const QString &answer : answerValues) {
        if (!answer.contains(QLatin1Char('=')))
            return tr("--answer expects KEY=VALUE, got \"%1\"").arg(answer);
        answers.insert(answer.section(QLatin1Char('='), 0, 0), answer.section(QLatin1Char('='), 1));
    }
    return {};
}

} // namespace sandbox
