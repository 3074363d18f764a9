#include "HostProcess.h"

#include <QProcessEnvironment>

#include <csignal>

namespace sandbox::test {

HostProcess::HostProcess(const SpawnRequest &request, QObject *parent)
    : SandboxProcess(parent)
    , m_request(request)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (auto it = request.env.cbegin(); it != request.env.cend(); ++it)
        env.insert(it.key(), it.value());
    m_process.setProcessEnvironment(env);
    m_process.setWorkingDirectory(request.cwd);
    m_process.setProgram(request.argv.value(0));
    m_process.setArguments(request.argv.mid(1));

    connect(&m_process, &QProcess::started, this, &SandboxProcess::started);
    connect(&m_process, &QProcess::readyReadStandardOutput, this,
            [this] { emit stdoutReady(m_process.readAllStandardOutput()); });
    connect(&m_process, &QProcess::readyReadStandardError, this,
            [this] { emit stderrReady(m_process.readAllStandardError()); });
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            emit failedToStart(Error{ m_request.argv.value(0), m_process.errorString(), {} });
    });
    connect(&m_process, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        m_exit.signaled = status == QProcess::CrashExit;
        m_exit.exitCode = m_exit.signaled ? 0 : code;
        m_exit.signal = m_exit.signaled ? SIGKILL : 0;
        m_finished = true;
        emit finished(m_exit);
    });
}

HostProcess::~HostProcess()
{
    if (m_process.state() != QProcess::NotRunning) {
        m_process.kill();
        m_process.waitForFinished(2000);
    }
}

void HostProcess::start()
{
    m_process.start();
}

qint64 HostProcess::pid() const
{
    return m_process.processId();
}

bool HostProcess::isRunning() const
{
    return m_process.state() != QProcess::NotRunning;
}

ExitStatus HostProcess::exitStatus() const
{
    return m_exit;
}

void HostProcess::writeStdin(const QByteArray &data)
{
    m_process.write(data);
}

void HostProcess::closeStdin()
{
    m_process.closeWriteChannel();
}

void HostProcess::terminate()
{
    m_process.terminate();
}

void HostProcess::kill()
{
    m_process.kill();
}

} // namespace sandbox::test
