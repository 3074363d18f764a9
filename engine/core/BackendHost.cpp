#include "BackendHost.h"

#include "HostInteractionBroker.h"

#include <QDir>
#include <QFile>

namespace sandbox {

BackendHost::BackendHost(BackendRef ref, QString stateDirectory, HostInteractionBroker *broker,
                         std::function<void(const BackendRef &)> availabilityChanged)
    : m_ref(std::move(ref))
    , m_stateDirectory(std::move(stateDirectory))
    , m_broker(broker)
    , m_availabilityChanged(std::move(availabilityChanged))
{ }

QString BackendHost::stateDirectory() const
{
    if (QDir().mkpath(m_stateDirectory))
        QFile::setPermissions(m_stateDirectory,
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    return m_stateDirectory;
}

QFuture<HostInteractionResponse> BackendHost::ask(const HostInteractionRequest &request)
{
    HostInteractionRequest tagged = request;
    tagged.ref = m_ref;
    tagged.hasRef = true;
    return m_broker->ask(tagged);
}

void BackendHost::notifyAvailabilityChanged()
{
    m_generation.fetchAndAddOrdered(1);
    if (m_availabilityChanged)
        m_availabilityChanged(m_ref);
}

} // namespace sandbox
