#include "E2bProcess.h"

#include "ConnectEnvelope.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QtConcurrent/QtConcurrentRun>

#include <csignal>

namespace sandbox::power {

namespace {

constexpr int terminateGraceMs = 5000;
constexpr const char *servicePath = "/process.Process/";

// Go's names for the signals that end a process ("signal: killed").
int signalNumber(const QString &status)
{
    static const QMap<QString, int> names{
        { QStringLiteral("hangup"), SIGHUP },       { QStringLiteral("interrupt"), SIGINT },
        { QStringLiteral("quit"), SIGQUIT },        { QStringLiteral("aborted"), SIGABRT },
        { QStringLiteral("killed"), SIGKILL },      { QStringLiteral("segmentation fault"), SIGSEGV },
        { QStringLiteral("broken pipe"), SIGPIPE }, { QStringLiteral("terminated"), SIGTERM }
    };
    const QString name = status.mid(int(qstrlen("signal: "))).trimmed();
    return names.value(name, SIGKILL);
}

} // namespace

E2bProcess::E2bProcess(std::shared_ptr<E2bSandboxPool> pool, bool internet, SpawnRequest request)
    : m_pool(std::move(pool))
    , m_internet(internet)
    , m_request(std::move(request))
    , m_network(new QNetworkAccessManager(this))
{
    m_grace.setSingleShot(true);
    connect(&m_grace, &QTimer::timeout, this, &E2bProcess::kill);
    m_killBound.setSingleShot(true);
    connect(&m_killBound, &QTimer::timeout, this, &E2bProcess::killBoundPassed);
    m_refresh.setInterval(qMax(1000, m_pool->api().settings().timeoutSeconds * 1000 / 2));
    connect(&m_refresh, &QTimer::timeout, this, [this] { refreshTimeout(0); });
}

E2bProcess::~E2bProcess()
{
    if (m_stream) {
        if (m_started && !m_ended && m_remotePid > 0) {
            // Nothing of the command outlives its handle: a last kill, not waited for.
            QNetworkRequest request = envdRequest(QStringLiteral("SendSignal"), "application/json");
            const QJsonObject body{ { QStringLiteral("process"),
                                      QJsonObject{ { QStringLiteral("pid"), m_remotePid } } },
                                    { QStringLiteral("signal"), QStringLiteral("SIGNAL_SIGKILL") } };
            m_network->post(request, QJsonDocument(body).toJson(QJsonDocument::Compact));
        }
        m_stream->abort();
    }
}

QJsonObject E2bProcess::remoteEnvironment(const QMap<QString, QString> &env)
{
    static const QStringList hostOnly{ QStringLiteral("PATH"),
                                       QStringLiteral("HOME"),
                                       QStringLiteral("USER"),
                                       QStringLiteral("LOGNAME"),
                                       QStringLiteral("SHELL"),
                                       QStringLiteral("PWD"),
                                       QStringLiteral("OLDPWD"),
                                       QStringLiteral("TMPDIR"),
                                       QStringLiteral("DISPLAY"),
                                       QStringLiteral("WAYLAND_DISPLAY"),
                                       QStringLiteral("DBUS_SESSION_BUS_ADDRESS"),
                                       QStringLiteral("SSH_AUTH_SOCK"),
                                       QStringLiteral("MAIL") };
    QJsonObject envs;
    for (auto it = env.cbegin(); it != env.cend(); ++it) {
        if (hostOnly.contains(it.key()) || it.key().startsWith(QLatin1String("XDG_")))
            continue;
        envs.insert(it.key(), it.value());
    }
    return envs;
}

bool E2bProcess::isRunning() const
{
    QMutexLocker locker(&m_mutex);
    return m_running;
}

ExitStatus E2bProcess::exitStatus() const
{
    QMutexLocker locker(&m_mutex);
    return m_exit;
}

void E2bProcess::start()
{
    {
        QMutexLocker locker(&m_mutex);
        m_running = true;
    }
    std::shared_ptr<E2bSandboxPool> pool = m_pool;
    const bool internet = m_internet;
    QtConcurrent::run([pool, internet] {
        return pool->sandboxFor(internet);
    }).then(this, [this](const Result<E2bSandboxPool::Lease> &lease) { leased(lease); });
}

void E2bProcess::leased(const Result<E2bSandboxPool::Lease> &lease)
{
    if (m_ended)
        return;
    if (m_killed)
        return finish(ExitStatus{ 0, true, SIGKILL, false });
    if (!lease.ok())
        return fail(lease.error());
    if (!lease.value().notice.isEmpty())
        emit notice(lease.value().notice.toUtf8());
    begin(lease.value().sandbox);
}

bool E2bProcess::needsBasicAuth(const QString &envdVersion)
{
    // envd before 0.4.0 has no default user: the SDK names "user" in a Basic header.
    const QStringList parts = envdVersion.split(QLatin1Char('.'));
    if (envdVersion.isEmpty() || parts.size() < 2)
        return false;
    const int major = parts.at(0).toInt();
    const int minor = parts.at(1).toInt();
    return major == 0 && minor < 4;
}

QNetworkRequest E2bProcess::envdHttpRequest(const E2bSettings &settings, const E2bSandbox &sandbox, const QString &path,
                                            const QByteArray &contentType)
{
    QUrl url = settings.envdUrl(sandbox.id, sandbox.domain);
    QString base = url.path();
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    const qsizetype query = path.indexOf(QLatin1Char('?'));
    url.setPath(base + path.left(query));
    if (query >= 0)
        url.setQuery(path.mid(query + 1));
    QNetworkRequest request(url);
    if (!contentType.isEmpty())
        request.setHeader(QNetworkRequest::ContentTypeHeader, contentType);
    request.setRawHeader("E2b-Sandbox-Id", sandbox.id.toLatin1());
    request.setRawHeader("E2b-Sandbox-Port", QByteArray::number(E2bSettings::envdPort));
    if (!sandbox.envdAccessToken.isEmpty())
        request.setRawHeader("X-Access-Token", sandbox.envdAccessToken.toUtf8());
    if (needsBasicAuth(sandbox.envdVersion))
        request.setRawHeader("Authorization", "Basic " + QByteArrayLiteral("user:").toBase64());
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    return request;
}

QNetworkRequest E2bProcess::envdRequest(const QString &method, const QByteArray &contentType) const
{
    QNetworkRequest request
        = envdHttpRequest(m_pool->api().settings(), m_sandbox, QLatin1String(servicePath) + method, contentType);
    request.setRawHeader("Connect-Protocol-Version", "1");
    return request;
}

void E2bProcess::begin(const E2bSandbox &sandbox)
{
    m_sandbox = sandbox;
    QJsonObject process{ { QStringLiteral("cmd"), m_request.argv.value(0) },
                         { QStringLiteral("args"), QJsonArray::fromStringList(m_request.argv.mid(1)) },
                         { QStringLiteral("envs"), remoteEnvironment(m_request.env) } };
    if (!m_remoteCwd.isEmpty())
        process.insert(QStringLiteral("cwd"), m_remoteCwd);
    const QJsonObject body{ { QStringLiteral("process"), process }, { QStringLiteral("stdin"), true } };
    QNetworkRequest request = envdRequest(QStringLiteral("Start"), "application/connect+json");
    request.setRawHeader("Keepalive-Ping-Interval", QByteArray::number(keepaliveSeconds));
    // A command with a timeout has it as the call's deadline too, later than the engine's
    // own and its kill's bound: envd ends it even when the kill does not reach the sandbox.
    if (m_request.timeoutMs > 0)
        request.setRawHeader("Connect-Timeout-Ms", QByteArray::number(m_request.timeoutMs + 3 * killBoundMs));
    // A stream that stays silent past a few keepalives is lost.
    request.setTransferTimeout(keepaliveSeconds * 3 * 1000);
    m_stream = m_network->post(request, ConnectEnvelope::encode(QJsonDocument(body).toJson(QJsonDocument::Compact)));
    connect(m_stream, &QNetworkReply::readyRead, this, &E2bProcess::streamRead);
    connect(m_stream, &QNetworkReply::finished, this, &E2bProcess::streamFinished);
    // A sandbox refreshed in the last half of its timeout lives long enough to start this.
    refreshTimeout(m_pool->api().settings().timeoutSeconds * 1000 / 2);
    m_refresh.start();
}

void E2bProcess::refreshTimeout(int whenOlderThanMs)
{
    std::shared_ptr<E2bSandboxPool> pool = m_pool;
    const QString id = m_sandbox.id;
    // A failure is told with the next command (and logged); a refused key makes the
    // backend unavailable.
    [[maybe_unused]] QFuture<void> refreshed
        = QtConcurrent::run([pool, id, whenOlderThanMs] { pool->keepAlive(id, whenOlderThanMs); });
}

void E2bProcess::streamRead()
{
    if (!m_stream)
        return;
    const int status = m_stream->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status != 200)
        return; // the error body is read when the reply finishes
    m_pending.append(m_stream->readAll());
    bool broken = false;
    const QList<ConnectEnvelope> envelopes = ConnectEnvelope::take(m_pending, &broken);
    for (const ConnectEnvelope &envelope : envelopes) {
        if (m_ended)
            return;
        if (envelope.endOfStream()) {
            handleEndOfStream(envelope.message);
            return;
        }
        const QJsonObject response = QJsonDocument::fromJson(envelope.message).object();
        handleEvent(response.value(QStringLiteral("event")).toObject());
    }
    if (broken)
        lose(tr("envd sent a stream that is not Connect's framing"));
}

void E2bProcess::handleEvent(const QJsonObject &event)
{
    if (event.contains(QStringLiteral("start"))) {
        m_remotePid = qint64(event.value(QStringLiteral("start")).toObject().value(QStringLiteral("pid")).toDouble());
        m_started = true;
        emit started();
        if (!m_stdinBeforeStart.isEmpty())
            writeStdin(std::exchange(m_stdinBeforeStart, {}));
        if (m_closeBeforeStart)
            closeStdin();
        if (!m_signalBeforeStart.isEmpty())
            sendSignal(std::exchange(m_signalBeforeStart, {}));
    } else if (event.contains(QStringLiteral("data"))) {
        const QJsonObject data = event.value(QStringLiteral("data")).toObject();
        if (data.contains(QStringLiteral("stdout")))
            emit stdoutReady(QByteArray::fromBase64(data.value(QStringLiteral("stdout")).toString().toLatin1()));
        if (data.contains(QStringLiteral("stderr")))
            emit stderrReady(QByteArray::fromBase64(data.value(QStringLiteral("stderr")).toString().toLatin1()));
    } else if (event.contains(QStringLiteral("end"))) {
        const QJsonObject end = event.value(QStringLiteral("end")).toObject();
        const QString status = end.value(QStringLiteral("status")).toString();
        m_haveEnd = true;
        if (status.startsWith(QLatin1String("signal: "))) {
            m_endStatus = ExitStatus{ 0, true, signalNumber(status), false };
        } else {
            m_endStatus = ExitStatus{ end.value(QStringLiteral("exitCode")).toInt(0), false, 0, false };
        }
    }
    // keepalive: nothing to do; its arrival resets the stream's silence deadline.
}

void E2bProcess::handleEndOfStream(const QByteArray &message)
{
    const QJsonObject error = QJsonDocument::fromJson(message).object().value(QStringLiteral("error")).toObject();
    if (!error.isEmpty()) {
        const QString why = tr("envd refused the command (%1): %2")
                                .arg(error.value(QStringLiteral("code")).toString(),
                                     error.value(QStringLiteral("message")).toString());
        if (!m_started)
            return fail(Error{ m_request.argv.value(0), why, {} });
        return lose(why);
    }
    if (m_haveEnd)
        return finish(m_endStatus);
    lose(tr("envd ended the stream without the command's end"));
}

void E2bProcess::streamFinished()
{
    if (m_ended || !m_stream)
        return;
    const int status = m_stream->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status == 200) {
        streamRead();
        if (m_ended)
            return;
    }
    QString why;
    if (status == 0) {
        why = tr("the sandbox stopped answering: %1").arg(m_stream->errorString());
    } else if (status != 200) {
        const QJsonObject body = QJsonDocument::fromJson(m_stream->readAll()).object();
        const QString message = body.value(QStringLiteral("message")).toString();
        why = tr("envd answered HTTP status %1%2")
                  .arg(status)
                  .arg(message.isEmpty() ? QString() : QStringLiteral(": ") + message);
    } else if (m_haveEnd) {
        return finish(m_endStatus);
    } else {
        why = tr("the stream ended without the command's end");
    }
    if (!m_started && !m_replaced && !m_killed && (status == 502 || status == 404)) {
        // E2B's proxy answers so for a sandbox that is not there: it may have ended.
        m_replaced = true;
        m_stream->disconnect(this);
        m_stream->deleteLater();
        m_stream = nullptr;
        m_refresh.stop();
        std::shared_ptr<E2bSandboxPool> pool = m_pool;
        const bool internet = m_internet;
        const QString gone = m_sandbox.id;
        QtConcurrent::run([pool, internet, gone] {
            return pool->replaceGone(internet, gone);
        }).then(this, [this, why](const Result<E2bSandboxPool::Lease> &lease) {
            if (!lease.ok() && !m_ended)
                return fail(
                    Error{ m_request.argv.value(0),
                           tr("The E2B sandbox did not start the command: %1 (%2)").arg(why, lease.error().message),
                           {} });
            leased(lease);
        });
        return;
    }
    if (!m_started)
        return fail(Error{ m_request.argv.value(0), tr("The E2B sandbox did not start the command: %1").arg(why), {} });
    lose(why);
}

void E2bProcess::call(const QString &method, const QJsonObject &body)
{
    m_calls.append({ method, body });
    if (!m_callReply)
        sendNextCall();
}

void E2bProcess::sendNextCall()
{
    if (m_calls.isEmpty() || m_ended)
        return;
    const auto [method, body] = m_calls.takeFirst();
    QNetworkRequest request = envdRequest(method, "application/json");
    request.setTransferTimeout(E2bApi::requestTimeoutMs);
    request.setRawHeader("Connect-Timeout-Ms", QByteArray::number(E2bApi::requestTimeoutMs));
    m_callReply = m_network->post(request, QJsonDocument(body).toJson(QJsonDocument::Compact));
    connect(m_callReply, &QNetworkReply::finished, this, [this, reply = m_callReply] {
        reply->deleteLater();
        m_callReply = nullptr;
        sendNextCall();
    });
}

void E2bProcess::writeStdin(const QByteArray &data)
{
    if (m_ended || data.isEmpty())
        return;
    if (!m_started) {
        m_stdinBeforeStart.append(data);
        return;
    }
    call(QStringLiteral("SendInput"),
         QJsonObject{ { QStringLiteral("process"), QJsonObject{ { QStringLiteral("pid"), m_remotePid } } },
                      { QStringLiteral("input"),
                        QJsonObject{ { QStringLiteral("stdin"), QString::fromLatin1(data.toBase64()) } } } });
}

void E2bProcess::closeStdin()
{
    if (m_ended)
        return;
    if (!m_started) {
        m_closeBeforeStart = true;
        return;
    }
    call(QStringLiteral("CloseStdin"),
         QJsonObject{ { QStringLiteral("process"), QJsonObject{ { QStringLiteral("pid"), m_remotePid } } } });
}

void E2bProcess::sendSignal(const QString &name)
{
    if (!m_started) {
        m_signalBeforeStart = name;
        return;
    }
    // Signals go ahead of queued input: they are sent at once on their own connection.
    QNetworkRequest request = envdRequest(QStringLiteral("SendSignal"), "application/json");
    request.setTransferTimeout(killBoundMs);
    request.setRawHeader("Connect-Timeout-Ms", QByteArray::number(killBoundMs));
    const QJsonObject body{ { QStringLiteral("process"), QJsonObject{ { QStringLiteral("pid"), m_remotePid } } },
                            { QStringLiteral("signal"), name } };
    QNetworkReply *reply = m_network->post(request, QJsonDocument(body).toJson(QJsonDocument::Compact));
    connect(reply, &QNetworkReply::finished, reply, &QObject::deleteLater);
}

void E2bProcess::terminate()
{
    if (m_ended || m_killed)
        return;
    sendSignal(QStringLiteral("SIGNAL_SIGTERM"));
    if (!m_grace.isActive())
        m_grace.start(terminateGraceMs);
}

void E2bProcess::kill()
{
    if (m_ended)
        return;
    m_killed = true;
    if (!m_sandbox.id.isEmpty())
        sendSignal(QStringLiteral("SIGNAL_SIGKILL"));
    if (!m_killBound.isActive())
        m_killBound.start(killBoundMs);
}

void E2bProcess::killBoundPassed()
{
    if (m_ended)
        return;
    emit stderrReady(tr("sandbox: the E2B sandbox did not end the command within %1 s of the kill; it is no longer "
                        "waited for here, and may go on running in the sandbox until the sandbox ends\n")
                         .arg(killBoundMs / 1000)
                         .toUtf8());
    finish(ExitStatus{ 0, true, SIGKILL, false });
}

void E2bProcess::lose(const QString &why)
{
    emit stderrReady(tr("sandbox: the E2B command was lost: %1\n").arg(why).toUtf8());
    finish(ExitStatus{ 255, false, 0, false });
}

void E2bProcess::fail(const Error &error)
{
    if (m_ended)
        return;
    m_ended = true;
    m_refresh.stop();
    m_grace.stop();
    m_killBound.stop();
    {
        QMutexLocker locker(&m_mutex);
        m_running = false;
    }
    if (m_stream)
        m_stream->abort();
    emit failedToStart(error);
}

void E2bProcess::finish(const ExitStatus &status)
{
    if (m_ended)
        return;
    m_ended = true;
    m_refresh.stop();
    m_grace.stop();
    m_killBound.stop();
    if (m_keepAliveAtEnd && !m_sandbox.id.isEmpty())
        refreshTimeout(0);
    {
        QMutexLocker locker(&m_mutex);
        m_exit = status;
        m_running = false;
    }
    if (m_stream) {
        m_stream->disconnect(this);
        m_stream->abort();
    }
    emit finished(status);
}

} // namespace sandbox::power
