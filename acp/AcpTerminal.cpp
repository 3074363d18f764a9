#include "AcpTerminal.h"

#include "client/Client.h"

#include <QString>

#include <cstring>

namespace sandbox {

AcpTerminal::AcpTerminal(Client &client, const SpawnRequest &request, qint64 outputByteLimit, QObject *parent)
    : QObject(parent)
    , m_process(client.spawn(request))
    , m_limit(outputByteLimit)
{
    connect(m_process.get(), &RemoteProcess::started, this, [this] {
        m_started = true;
        emit started();
    });
    connect(m_process.get(), &RemoteProcess::failedToStart, this, [this](const Error &error) {
        m_exit = ExitStatus{ 127, false, 0, false };
        emit failedToStart(error);
        emit exited();
    });
    connect(m_process.get(), &RemoteProcess::stdoutReady, this, &AcpTerminal::append);
    connect(m_process.get(), &RemoteProcess::stderrReady, this, &AcpTerminal::append);
    connect(m_process.get(), &RemoteProcess::finished, this, [this](const ExitStatus &status) {
        if (m_exit)
            return;
        m_exit = status;
        emit exited();
    });
    connect(&client, &Client::disconnected, this, [this] {
        if (m_exit)
            return;
        m_exit = ExitStatus{ 0, true, 9, false };
        emit exited();
    });
    m_process->closeStdin();
}

AcpTerminal::~AcpTerminal()
{
    if (!m_exit)
        m_process->kill();
}

void AcpTerminal::kill()
{
    if (!m_exit)
        m_process->kill();
}

void AcpTerminal::append(const QByteArray &data)
{
    m_output.append(data);
    if (m_limit < 0 || m_output.size() <= m_limit)
        return;
    qsizetype cut = m_output.size() - m_limit;
    // Never start inside a UTF-8 sequence: skip continuation bytes.
    while (cut < m_output.size() && (quint8(m_output.at(cut)) & 0xC0) == 0x80)
        ++cut;
    m_output.remove(0, cut);
    m_truncated = true;
}

QJsonObject AcpTerminal::exitStatusJson() const
{
    if (!m_exit)
        return {};
    QJsonObject status;
    if (m_exit->signaled) {
        status.insert(QStringLiteral("exitCode"), QJsonValue(QJsonValue::Null));
        const char *abbreviation = sigabbrev_np(m_exit->signal);
        status.insert(QStringLiteral("signal"),
                      abbreviation ? QStringLiteral("SIG") + QString::fromLatin1(abbreviation)
                                   : QString::number(m_exit->signal));
    } else {
        status.insert(QStringLiteral("exitCode"), m_exit->exitCode);
        status.insert(QStringLiteral("signal"), QJsonValue(QJsonValue::Null));
    }
    return status;
}

QJsonObject AcpTerminal::outputResponse() const
{
    QJsonObject response{ { QStringLiteral("output"), QString::fromUtf8(m_output) },
                          { QStringLiteral("truncated"), m_truncated } };
    if (m_exit)
        response.insert(QStringLiteral("exitStatus"), exitStatusJson());
    return response;
}

} // namespace sandbox
