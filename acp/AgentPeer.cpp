#include "AgentPeer.h"

#include "JsonRpcLine.h"
#include "client/Client.h"

#include <QProcessEnvironment>

#include <unistd.h>

namespace sandbox {

AgentPeer::AgentPeer(QObject *parent)
    : QObject(parent)
    , m_lines(JsonRpcLine::maxLineBytes)
{ }

AgentPeer::~AgentPeer()
{
    kill();
    if (m_hostProcess && m_hostProcess->state() != QProcess::NotRunning)
        m_hostProcess->waitForFinished(5000);
}

void AgentPeer::startOnHost(const QStringList &argv)
{
    m_hostProcess = std::make_unique<QProcess>();
    m_hostProcess->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    connect(m_hostProcess.get(), &QProcess::readyReadStandardOutput, this,
            [this] { receive(m_hostProcess->readAllStandardOutput()); });
    connect(m_hostProcess.get(), &QProcess::errorOccurred, this,
            [this, program = argv.constFirst()](QProcess::ProcessError error) {
                if (error == QProcess::FailedToStart)
                    end(127,
                        tr("cannot start the agent program \"%1\": %2").arg(program, m_hostProcess->errorString()));
            });
    connect(m_hostProcess.get(), &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        receive(m_hostProcess->readAllStandardOutput());
        end(status == QProcess::CrashExit ? 128 + 9 : code, QString());
    });
    m_running = true;
    m_hostProcess->start(argv.constFirst(), argv.mid(1));
}

void AgentPeer::startConfined(Client &client, const QStringList &argv, const QString &workspace)
{
    SpawnRequest request;
    request.argv = argv;
    request.cwd = workspace;
    request.workspace = workspace;
    const QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const QString &name : environment.keys())
        request.env.insert(name, environment.value(name));
    m_confined = client.spawn(request);
    connect(m_confined.get(), &RemoteProcess::stdoutReady, this, &AgentPeer::receive);
    connect(m_confined.get(), &RemoteProcess::stderrReady, this, [](const QByteArray &data) {
        qsizetype written = 0;
        while (written < data.size()) {
            const ssize_t n = ::write(STDERR_FILENO, data.constData() + written, size_t(data.size() - written));
            if (n <= 0)
                return;
            written += n;
        }
    });
    connect(m_confined.get(), &RemoteProcess::failedToStart, this,
            [this, program = argv.constFirst()](const Error &error) {
                end(127, tr("cannot start the agent program \"%1\" in the sandbox: %2").arg(program, error.toString()));
            });
    connect(m_confined.get(), &RemoteProcess::finished, this,
            [this](const ExitStatus &status) { end(status.shellStatus(), QString()); });
    connect(&client, &Client::disconnected, this, [this](const QString &reason) { end(128 + 9, reason); });
    m_running = true;
}

void AgentPeer::write(const QByteArray &line)
{
    if (!m_running)
        return;
    if (m_hostProcess)
        m_hostProcess->write(line);
    else if (m_confined)
        m_confined->writeStdin(line);
}

void AgentPeer::closeInput()
{
    if (!m_running)
        return;
    if (m_hostProcess)
        m_hostProcess->closeWriteChannel();
    else if (m_confined)
        m_confined->closeStdin();
}

void AgentPeer::kill()
{
    if (!m_running)
        return;
    if (m_hostProcess)
        m_hostProcess->kill();
    else if (m_confined)
        m_confined->kill();
}

void AgentPeer::receive(const QByteArray &data)
{
    for (const LineBuffer::Line &line : m_lines.append(data)) {
        if (!line.overlong && line.bytes.trimmed().isEmpty())
            continue;
        emit lineReceived(line.bytes, line.overlong);
    }
}

void AgentPeer::end(int status, const QString &reason)
{
    if (m_ended)
        return;
    m_ended = true;
    m_running = false;
    const QByteArray rest = m_lines.takeRest();
    if (!rest.trimmed().isEmpty())
        emit lineReceived(rest, false);
    emit finished(status, reason);
}

} // namespace sandbox
