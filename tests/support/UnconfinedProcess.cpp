#include "UnconfinedProcess.h"

#include <QProcessEnvironment>
#include <QTimer>

#include <utility>

namespace sandbox::test {

UnconfinedProcess::UnconfinedProcess(const SpawnRequest &request, const QMap<QString, QString> &extraEnv,
                                     int startDelayMs)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (auto it = request.env.begin(); it != request.env.end(); ++it)
        environment.insert(it.key(), it.value());
    for (auto it = extraEnv.begin(); it != extraEnv.end(); ++it)
        environment.insert(it.key(), it.value());
    m_process.setProcessEnvironment(environment);
    m_process.setWorkingDirectory(request.cwd);
    m_process.setProgram(request.argv.first());
    m_process.setArguments(request.argv.mid(1));

    connect(&m_process, &QProcess::started, this, &SandboxProcess::started);
    connect(&m_process, &QProcess::readyReadStandardOutput, this,
            [this] { emit stdoutReady(m_process.readAllStandardOutput()); });
    connect(&m_process, &QProcess::readyReadStandardError, this,
            [this] { emit stderrReady(m_process.readAllStandardError()); });
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart && !m_finished) {
            m_finished = true;
            m_exit = ExitStatus{ 127, false, 0, false };
            emit failedToStart(Error{ m_process.program(), m_process.errorString(), {} });
        }
    });
    connect(&m_process, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        if (m_finished)
            return;
        const QByteArray out = m_process.readAllStandardOutput();
        if (!out.isEmpty())
            emit stdoutReady(out);
        const QByteArray err = m_process.readAllStandardError();
        if (!err.isEmpty())
            emit stderrReady(err);
        m_finished = true;
        if (status == QProcess::CrashExit)
            m_exit = ExitStatus{ 0, true, m_lastSignal, false };
        else
            m_exit = ExitStatus{ code, false, 0, false };
        emit finished(m_exit);
    });
    if (startDelayMs <= 0) {
        m_process.start();
        return;
    }
    m_startPending = true;
    QTimer::singleShot(startDelayMs, this, [this] {
        if (!std::exchange(m_startPending, false))
            return;
        m_process.start();
    });
}

void UnconfinedProcess::endBeforeStart(int signal)
{
    // Ended while its start was still pending: it ends as a killed sandbox does.
    m_startPending = false;
    m_finished = true;
    m_exit = ExitStatus{ 0, true, signal, false };
    emit finished(m_exit);
}

UnconfinedProcess::~UnconfinedProcess()
{
    // No signal of a half-destroyed object reaches anyone.
    m_process.disconnect(this);
    if (m_process.state() != QProcess::NotRunning) {
        m_process.kill();
        m_process.waitForFinished(5000);
    }
}

qint64 UnconfinedProcess::pid() const
{
    return m_process.processId();
}

bool UnconfinedProcess::isRunning() const
{
    return !m_finished;
}

ExitStatus UnconfinedProcess::exitStatus() const
{
    return m_exit;
}

void UnconfinedProcess::writeStdin(const QByteArray &data)
{
    m_process.write(data);
}

void UnconfinedProcess::closeStdin()
{
    m_process.closeWriteChannel();
}

void UnconfinedProcess::terminate()
{
    m_lastSignal = 15;
    if (m_startPending)
        return endBeforeStart(15);
    m_process.terminate();
}

void UnconfinedProcess::kill()
{
    m_lastSignal = 9;
    if (m_startPending)
        return endBeforeStart(9);
    m_process.kill();
}

} // namespace sandbox::test
