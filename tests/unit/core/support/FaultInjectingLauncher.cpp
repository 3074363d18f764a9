#include "FaultInjectingLauncher.h"

#include "NeverStartingProcess.h"
#include "UnconfinedProcess.h"

#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

namespace sandbox::test {

FaultPlan::FaultPlan()
{
    fields = { FieldSpec::make(QStringLiteral("label"), FieldSpec::Type::String, QStringLiteral("Label"), {},
                               QStringLiteral("default")),
               FieldSpec::make(QStringLiteral("count"), FieldSpec::Type::Number, QStringLiteral("Count"), {}, 3)
                   .withRange(0, 100) };
}

FaultInjectingLauncher::FaultInjectingLauncher(QString kind, std::shared_ptr<FaultPlan> plan)
    : m_kind(std::move(kind))
    , m_plan(std::move(plan))
{
    QMutexLocker locker(&m_plan->mutex);
    m_instance = ++m_plan->instancesMade;
}

std::function<std::shared_ptr<Launcher>()> FaultInjectingLauncher::factory(const QString &kind,
                                                                           std::shared_ptr<FaultPlan> plan)
{
    return [kind, plan] { return std::make_shared<FaultInjectingLauncher>(kind, plan); };
}

QString FaultInjectingLauncher::kind() const
{
    return m_kind;
}

BackendDescriptor FaultInjectingLauncher::descriptor() const
{
    BackendDescriptor descriptor;
    descriptor.name = QStringLiteral("Fault injecting test launcher (%1)").arg(m_kind);
    descriptor.description = QStringLiteral("Runs host processes; fails where a test tells it to.");
    QMutexLocker locker(&m_plan->mutex);
    descriptor.fields = m_plan->fields;
    descriptor.timeouts = m_plan->timeouts;
    return descriptor;
}

QFuture<Status> FaultInjectingLauncher::hangingCall()
{
    auto promise = std::make_shared<QPromise<Status>>();
    promise->start();
    m_plan->hangingCalls.append(promise);
    return promise->future();
}

QFuture<Status> FaultInjectingLauncher::configure(const ResolvedSettings &settings)
{
    QMutexLocker locker(&m_plan->mutex);
    m_configuredWith = settings;
    m_label = settings.values.values.value(QStringLiteral("label")).toString();
    if (m_plan->hangAt == QLatin1String("configure"))
        return hangingCall();
    if (m_plan->failConfigure)
        return QtFuture::makeReadyFuture(Status(Error{ m_kind, QStringLiteral("injected configure failure"), {} }));
    return QtFuture::makeReadyFuture(Status());
}

QFuture<Status> FaultInjectingLauncher::prepare()
{
    bool ask = false;
    bool malformed = false;
    QString note;
    {
        QMutexLocker locker(&m_plan->mutex);
        m_plan->configured.append(m_configuredWith);
        note = m_plan->prepareNote;
        ask = m_plan->askDuringPrepare;
        malformed = m_plan->askMalformed;
        if (m_plan->hangAt == QLatin1String("prepare")) {
            m_plan->prepareLog.append(m_kind + QLatin1Char(':') + m_label);
            return hangingCall();
        }
    }
    if (!note.isEmpty())
        host()->reportActivationNote(note);
    if (ask) {
        HostInteractionRequest request;
        request.kind = HostInteractionRequest::Kind::Confirm;
        request.title = QStringLiteral("Set up");
        request.message = QStringLiteral("Allow the test launcher to set up?");
        if (malformed) // only a choice has options: the protocol rejects this confirm
            request.options = { SelectOption{ QStringLiteral("yes"), QStringLiteral("Yes") } };
        return host()->ask(request).then([plan = m_plan](const HostInteractionResponse &response) {
            {
                QMutexLocker locker(&plan->mutex);
                plan->answers.append(response);
            }
            return response.accepted
                ? Status()
                : Status(Error{ QStringLiteral("prepare"), QStringLiteral("setup was declined"), {} });
        });
    }
    // Slow work happens off the engine's thread, as a real launcher's would.
    return QtConcurrent::run([plan = m_plan, kind = m_kind, label = m_label]() -> Status {
        int delay = 0;
        bool fail = false;
        {
            QMutexLocker locker(&plan->mutex);
            ++plan->preparesRunning;
            plan->maxPreparesRunning = qMax(plan->maxPreparesRunning, plan->preparesRunning);
            plan->prepareLog.append(kind + QLatin1Char(':') + label);
            delay = plan->prepareDelayMs;
            fail = plan->failPrepare;
        }
        if (delay > 0)
            QThread::msleep(delay);
        QMutexLocker locker(&plan->mutex);
        --plan->preparesRunning;
        if (fail)
            return Error{ kind, QStringLiteral("injected prepare failure"), {} };
        return {};
    });
}

QFuture<Availability> FaultInjectingLauncher::isAvailable()
{
    bool notify = false;
    bool unavailable = false;
    QString wrongSetting;
    {
        QMutexLocker locker(&m_plan->mutex);
        notify = m_plan->notifyWhileProbing;
        unavailable = m_plan->unavailable;
        if (!m_plan->availableWithLabel.isEmpty() && m_label != m_plan->availableWithLabel)
            wrongSetting = QStringLiteral("no runtime at \"%1\"").arg(m_label);
        else if (!m_plan->availableWithSecret.isEmpty()
                 && !m_configuredWith.secrets.contains(m_plan->availableWithSecret))
            wrongSetting = QStringLiteral("not configured: no %1").arg(m_plan->availableWithSecret);
        if (m_plan->hangAt == QLatin1String("probe")) {
            auto promise = std::make_shared<QPromise<Availability>>();
            promise->start();
            m_plan->hangingProbes.append(promise);
            return promise->future();
        }
    }
    if (notify && host())
        host()->notifyAvailabilityChanged();
    if (unavailable)
        return QtFuture::makeReadyFuture(
            Availability{ false, QStringLiteral("injected: the runtime is not reachable") });
    if (!wrongSetting.isEmpty())
        return QtFuture::makeReadyFuture(Availability{ false, wrongSetting });
    return QtFuture::makeReadyFuture(Availability{ true, {} });
}

Result<std::shared_ptr<SandboxProcess>> FaultInjectingLauncher::spawn(const SpawnRequest &request, const Policy &)
{
    const QString tag = m_kind + QLatin1Char('#') + QString::number(m_instance);
    {
        QMutexLocker locker(&m_plan->mutex);
        ++m_plan->spawnCalls;
        if (m_plan->hangAt == QLatin1String("spawn"))
            return std::shared_ptr<SandboxProcess>(std::make_shared<NeverStartingProcess>());
    }
    return std::shared_ptr<SandboxProcess>(std::make_shared<UnconfinedProcess>(
        request, QMap<QString, QString>{ { QStringLiteral("FAULT_LAUNCHER"), tag } }));
}

QFuture<Status> FaultInjectingLauncher::disposeIdle()
{
    QMutexLocker locker(&m_plan->mutex);
    ++m_plan->disposeCalls;
    if (m_plan->hangAt == QLatin1String("dispose"))
        return hangingCall();
    if (m_plan->disposeFailures > 0) {
        --m_plan->disposeFailures;
        return QtFuture::makeReadyFuture(Status(Error{ m_kind, QStringLiteral("injected cleanup failure"), {} }));
    }
    ++m_plan->disposeSuccesses;
    m_plan->disposedInstances.append(m_kind + QLatin1Char('#') + QString::number(m_instance));
    return QtFuture::makeReadyFuture(Status());
}

} // namespace sandbox::test
