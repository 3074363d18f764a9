#include "ProgramProcess.h"

#include <csignal>

namespace sandbox {

ProgramProcess::ProgramProcess(QString program, QStringList arguments, QProcessEnvironment environment,
                               QString workingDirectory, QString where, Ended ended, QObject *parent)
    : SandboxProcess(parent)
    , m_program(std::move(program))
    , m_arguments(std::move(arguments))
    , m_where(std::move(where))
    , m_ended(std::move(ended))
{
    m_process.setProcessEnvironment(environment);
    m_process.setWorkingDirectory(workingDirectory);
    m_killTimer.setSingleShot(true);
    connect(&m_killTimer, &QTimer::timeout, this, &ProgramProcess::kill);
    connect(&m_process, &QProcess::started, this, [this] {
        m_started = true;
        emit started();
    });
    connect(&m_process, &QProcess::readyReadStandardOutput, this,
            [this] { emit stdoutReady(m_process.readAllStandardOutput()); });
    connect(&m_process, &QProcess::readyReadStandardError, this,
            [this] { emit stderrReady(m_process.readAllStandardError()); });
    connect(&m_process, &QProcess::finished, this, &ProgramProcess::onFinished);
    connect(&m_process, &QProcess::errorOccurred, this, &ProgramProcess::onError);
}

ProgramProcess::~ProgramProcess()
{
    if (m_process.state() != QProcess::NotRunning) {
        m_process.kill();
        m_process.waitForFinished(5000);
    }
    if (!m_done && m_ended)
        m_ended(m_exit);
}

void ProgramProcess::start()
{
    QMetaObject::invokeMethod(
        this, [this] { m_process.start(m_program, m_arguments); }, Qt::QueuedConnection);
}

qint64 ProgramProcess::pid() const
{
    return m_process.processId();
}

bool ProgramProcess::isRunning() const
{
    return m_process.state() != QProcess::NotRunning;
}

void ProgramProcess::writeStdin(const QByteArray &data)
{
    m_process.write(data);
}

void ProgramProcess::closeStdin()
{
    m_process.closeWriteChannel();
}

void ProgramProcess::terminate()
{
    if (!isRunning())
        return;
    m_signalSent = SIGTERM;
    m_process.terminate();
    m_killTimer.start(kTerminateGraceMs);
}

void ProgramProcess::kill()
{
    if (!isRunning())
        return;
    m_signalSent = SIGKILL;
    m_process.kill();
}

void ProgramProcess::onFinished(int exitCode, QProcess::ExitStatus status)
{
    m_killTimer.stop();
    if (const QByteArray out = m_process.readAllStandardOutput(); !out.isEmpty())
        emit stdoutReady(out);
    if (const QByteArray err = m_process.readAllStandardError(); !err.isEmpty())
        emit stderrReady(err);
    ExitStatus exit;
    if (status == QProcess::CrashExit) {
        // QProcess does not say which signal; the one sent here, if any, ended it.
        exit.signaled = true;
        exit.signal = m_signalSent ? m_signalSent : SIGKILL;
    } else {
        exit.exitCode = exitCode;
    }
    end(exit, m_ended ? m_ended(exit) : std::nullopt);
}

void ProgramProcess::onError(QProcess::ProcessError error)
{
    if (error != QProcess::FailedToStart || m_done)
        return;
    ExitStatus exit;
    exit.exitCode = 127;
    if (m_ended)
        m_ended(exit);
    end(exit, Error{ m_where, tr("cannot start %1: %2").arg(m_program, m_process.errorString()), {} });
}

void ProgramProcess::end(const ExitStatus &status, std::optional<Error> error)
{
    if (m_done)
        return;
    m_done = true;
    m_exit = status;
    if (error && !m_started) {
        emit failedToStart(*error);
        return;
    }
    if (error)
        emit stderrReady(error->message.toUtf8() + '\n');
    emit finished(m_exit);
}

} // namespace sandbox
