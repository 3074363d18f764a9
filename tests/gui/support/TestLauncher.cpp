#include "TestLauncher.h"

#include "UnconfinedProcess.h"

#include <QFileInfo>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

namespace sandbox::test {

namespace {

QFuture<Status> ready(Status status)
{
    return QtFuture::makeReadyFuture(std::move(status));
}

} // namespace

TestLauncher::TestLauncher(QString kind, BackendDescriptor descriptor)
    : TestLauncher(std::move(kind), std::move(descriptor), Behaviour{})
{ }

TestLauncher::TestLauncher(QString kind, BackendDescriptor descriptor, Behaviour behaviour)
    : m_kind(std::move(kind))
    , m_descriptor(std::move(descriptor))
    , m_behaviour(behaviour)
{ }

QFuture<Status> TestLauncher::configure(const ResolvedSettings &settings)
{
    const QString failAt = settings.values.values.value(QStringLiteral("failAt")).toString();
    if (failAt == QLatin1String("configure"))
        return ready(Error{ QStringLiteral("failAt"), QStringLiteral("configure() failed as the test asked"), {} });
    const QJsonValue endpoint = settings.values.values.value(QStringLiteral("endpoint"));
    if (endpoint.isString() && !endpoint.toString().startsWith(QLatin1String("https://")))
        return ready(Error{ QStringLiteral("endpoint"), QStringLiteral("must be an https:// address"), {} });
    QMutexLocker locker(&m_mutex);
    m_settings = settings;
    m_configured = true;
    return ready(Status::success());
}

QFuture<Status> TestLauncher::prepare()
{
    ResolvedSettings settings;
    {
        QMutexLocker locker(&m_mutex);
        settings = m_settings;
    }
    if (settings.values.values.value(QStringLiteral("failAt")).toString() == QLatin1String("prepare"))
        return ready(Error{ QStringLiteral("failAt"), QStringLiteral("prepare() failed as the test asked"), {} });

    if (m_behaviour.asksWhilePreparing && host()) {
        HostInteractionRequest request;
        request.id = QStringLiteral("gui-test-") + QString::number(quintptr(this)) + QLatin1Char('-')
            + QString::number(QDateTime::currentMSecsSinceEpoch());
        const QString kind = settings.values.values.value(QStringLiteral("question")).toString();
        request.kind = kind == QLatin1String("choice") ? HostInteractionRequest::Kind::Choice
            : kind == QLatin1String("text")            ? HostInteractionRequest::Kind::Text
            : kind == QLatin1String("secret")          ? HostInteractionRequest::Kind::Secret
                                                       : HostInteractionRequest::Kind::Confirm;
        request.title = QStringLiteral("Test pack setup");
        request.message = QStringLiteral("May the test pack prepare its runtime?");
        if (request.kind == HostInteractionRequest::Kind::Choice)
            request.options = { { QStringLiteral("small"), QStringLiteral("Small runtime") },
                                { QStringLiteral("large"), QStringLiteral("Large runtime") } };
        return host()->ask(request).then([](const HostInteractionResponse &response) {
            if (!response.accepted)
                return Status(Error{ QStringLiteral("prepare"), QStringLiteral("the user declined the setup"), {} });
            return Status::success();
        });
    }

    const int delayMs = settings.values.values.value(QStringLiteral("prepareMs")).toInt(0);
    if (delayMs > 0) {
        LauncherHost *launcherHost = host();
        return QtConcurrent::run([delayMs, launcherHost] {
            if (launcherHost)
                launcherHost->reportActivationProgress(QStringLiteral("warming up the test runtime"));
            QThread::msleep(ulong(delayMs));
            return Status::success();
        });
    }
    return ready(Status::success());
}

QFuture<Availability> TestLauncher::isAvailable()
{
    QMutexLocker locker(&m_mutex);
    Availability availability{ true, {} };
    if (!m_behaviour.unavailableReason.isEmpty())
        return QtFuture::makeReadyFuture(Availability{ false, m_behaviour.unavailableReason });
    if (!m_behaviour.runtimeSetting.isEmpty()) {
        const QString socket = m_settings.values.values.value(m_behaviour.runtimeSetting).toString();
        if (!m_configured || socket.isEmpty() || !QFileInfo::exists(socket))
            return QtFuture::makeReadyFuture(Availability{
                false, QStringLiteral("No runtime at %1").arg(socket.isEmpty() ? QStringLiteral("(none)") : socket) });
    }
    if (m_configured && m_settings.values.values.value(QStringLiteral("failAt")).toString() == QLatin1String("probe"))
        availability = { false, QStringLiteral("the probe failed as the test asked") };
    for (const FieldSpec &field : m_descriptor.fields) {
        if (field.type == FieldSpec::Type::Secret && field.required && m_configured
            && m_settings.secrets.value(field.id).isEmpty())
            availability = { false, QStringLiteral("%1 is not set").arg(field.label) };
    }
    return QtFuture::makeReadyFuture(availability);
}

Result<std::shared_ptr<SandboxProcess>> TestLauncher::spawn(const SpawnRequest &request, const Policy &policy)
{
    Q_UNUSED(policy);
    if (request.argv.isEmpty())
        return Error{ QStringLiteral("argv"), QStringLiteral("nothing to run"), {} };
    auto process = std::make_shared<UnconfinedProcess>(request, QMap<QString, QString>{}, m_behaviour.startDelayMs);
    if (!m_behaviour.startNotes.isEmpty()) {
        // After started() has been published, as a launcher learns how its sandbox came up.
        SandboxProcess *raw = process.get();
        QObject::connect(raw, &SandboxProcess::started, raw, [raw, notes = m_behaviour.startNotes] {
            for (const QString &note : notes)
                QMetaObject::invokeMethod(
                    raw, [raw, note] { emit raw->noted(note); }, Qt::QueuedConnection);
        });
    }
    return std::shared_ptr<SandboxProcess>(std::move(process));
}

QFuture<Status> TestLauncher::disposeIdle()
{
    QMutexLocker locker(&m_mutex);
    ++m_disposeCalls;
    if (m_behaviour.disposeFailsOnce && m_disposeCalls == 1)
        return ready(Error{ m_kind, QStringLiteral("the runtime was still busy"), {} });
    m_configured = false;
    return ready(Status::success());
}

} // namespace sandbox::test
