#include "EngineObserver.h"

#include <QJsonArray>

namespace sandbox::test {

EngineObserver::EngineObserver(Engine *engine)
{
    connect(
        engine, &Engine::activationEvent, this,
        [this](const ActivationEvent &event) {
            QMutexLocker locker(&m_mutex);
            m_events.append(event);
        },
        Qt::DirectConnection);
    connect(
        engine, &Engine::cleanupWarning, this,
        [this](const CleanupWarning &warning) {
            QMutexLocker locker(&m_mutex);
            m_warnings.append(warning);
        },
        Qt::DirectConnection);
    connect(
        engine, &Engine::activationFinished, this,
        [this](const ActivationResult &result) {
            QMutexLocker locker(&m_mutex);
            m_results.append(result);
        },
        Qt::DirectConnection);
}

QList<ActivationEvent> EngineObserver::events(quint64 activationId) const
{
    QMutexLocker locker(&m_mutex);
    QList<ActivationEvent> list;
    for (const ActivationEvent &event : m_events) {
        if (event.activationId == activationId)
            list.append(event);
    }
    return list;
}

QList<ActivationEvent> EngineObserver::allEvents() const
{
    QMutexLocker locker(&m_mutex);
    return m_events;
}

QList<CleanupWarning> EngineObserver::cleanupWarnings() const
{
    QMutexLocker locker(&m_mutex);
    return m_warnings;
}

QList<ActivationResult> EngineObserver::results() const
{
    QMutexLocker locker(&m_mutex);
    return m_results;
}

QStringList EngineObserver::trace(quint64 activationId) const
{
    QStringList list;
    for (const ActivationEvent &event : events(activationId))
        list.append(activationStepName(event.step) + QLatin1Char(':') + ActivationEvent::stateName(event.state));
    return list;
}

QByteArray EngineObserver::everythingAsJson() const
{
    QMutexLocker locker(&m_mutex);
    QJsonArray all;
    for (const ActivationEvent &event : m_events)
        all.append(event.toJson());
    for (const CleanupWarning &warning : m_warnings)
        all.append(warning.toJson());
    for (const ActivationResult &result : m_results)
        all.append(result.toJson());
    return QJsonDocument(all).toJson();
}

QJsonObject readJson(const QString &path)
{
    return QJsonDocument::fromJson(readFile(path)).object();
}

} // namespace sandbox::test
