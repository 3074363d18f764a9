#include "EngineThread.h"

#include "LocalServer.h"
#include "ProtocolServer.h"
#include "client/Client.h"
#include "client/InProcessTransport.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEventLoop>
#include <QTimer>

namespace sandbox {

namespace {

// How long stop() lets killed processes take to report their end before the engine goes.
constexpr int processEndGraceMs = 2000;

} // namespace

EngineThread::EngineThread(Options options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
{
    qRegisterMetaType<sandbox::Error>();
    m_thread.setObjectName(QStringLiteral("sandbox-engine"));
    m_context = new QObject;
    m_context->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_context, &QObject::deleteLater);
}

EngineThread::~EngineThread()
{
    stop();
}

void EngineThread::start()
{
    if (m_thread.isRunning() || m_stopped)
        return;
    m_thread.start();
    QMetaObject::invokeMethod(m_context, [this] { setUpOnEngineThread(); });
}

void EngineThread::setUpOnEngineThread()
{
    m_engine = std::make_unique<Engine>(
        m_options.completeEngineOptions ? m_options.completeEngineOptions(m_options.engine) : m_options.engine);
    if (m_options.setUp)
        m_options.setUp(*m_engine);
    m_server = std::make_unique<ProtocolServer>(*m_engine);
    if (!m_options.socketPath.isEmpty()) {
        m_localServer = std::make_unique<LocalServer>(*m_server);
        if (const Status listening = m_localServer->listen(m_options.socketPath); !listening.ok()) {
            m_localServer.reset();
            const Error error = listening.error();
            QMetaObject::invokeMethod(this, [this, error] { emit failed(error); });
            return;
        }
    }
    // Restoring runs the activation transaction; clients see its events like any other.
    // Spawns wait for it, so a command sent at start-up runs in the restored backend.
    m_restored = m_engine->restore();
    m_server->holdSpawnsUntil(m_restored);
    QMetaObject::invokeMethod(this, [this] {
        m_ready = true;
        emit ready();
    });
}

std::unique_ptr<Client> EngineThread::createClient()
{
    auto [clientEnd, serverEnd] = InProcessTransport::createPair();
    serverEnd->moveToThread(&m_thread);
    InProcessTransport *served = serverEnd.release();
    QMetaObject::invokeMethod(m_context, [this, served] {
        std::unique_ptr<Transport> transport(served);
        if (m_server)
            m_server->addConnection(std::move(transport));
    });
    return std::make_unique<Client>(std::move(clientEnd));
}

void EngineThread::tearDownOnEngineThread()
{
    if (m_server) {
        m_server->killAllProcesses();
        // Killed processes report their end through this thread's events.
        const auto anyRunning = [this] {
            for (const ProcessInfo &info : m_engine->processes()) {
                if (info.running)
                    return true;
            }
            return false;
        };
        if (anyRunning()) {
            QEventLoop loop;
            QTimer poll;
            const QDeadlineTimer deadline(processEndGraceMs);
            connect(&poll, &QTimer::timeout, &loop, [&] {
                if (!anyRunning() || deadline.hasExpired())
                    loop.quit();
            });
            poll.start(20);
            loop.exec();
        }
    }
    if (m_localServer)
        m_localServer->close();
    m_localServer.reset();
    m_server.reset();
    m_engine.reset();
    m_thread.quit();
}

void EngineThread::stop()
{
    if (m_stopped)
        return;
    m_stopped = true;
    m_ready = false;
    if (!m_thread.isRunning())
        return;
    // This thread keeps delivering its events until the engine thread has ended.
    QEventLoop loop;
    connect(&m_thread, &QThread::finished, &loop, &QEventLoop::quit);
    QMetaObject::invokeMethod(m_context, [this] { tearDownOnEngineThread(); });
    if (!m_thread.isFinished())
        loop.exec();
    m_thread.wait();
}

} // namespace sandbox
