#pragma once

#include "ContainerSpec.h"
#include "DockerApi.h"

#include <QCoreApplication>
#include <QHash>
#include <QMutex>

namespace sandbox::power {

// The warm containers of one launcher instance, one per distinct ContainerSpec (in
// practice one per workspace and network mode): created and started on first use, every
// later command is an exec into it. Labelled so they can be told apart from the user's
// own containers. Thread-safe; shared by the launcher and its processes.
class ContainerPool final
{
    Q_DECLARE_TR_FUNCTIONS(ContainerPool)

public:
    static constexpr int requestTimeoutMs = 30000;

    ContainerPool(DockerApi api, QString instanceLabel);
    // What disposeIdle() did not remove (the engine ended first) is removed here.
    ~ContainerPool();

    const DockerApi &api() const { return m_api; }
    // The running container for `spec`, created and started if there is none yet.
    Result<QString> containerFor(const ContainerSpec &spec);
    // Removes every container of this pool (and anything still running in it); those that
    // could not be removed stay listed for the next attempt.
    Status removeAll(int timeoutMs = requestTimeoutMs);

private:
    DockerApi m_api;
    QString m_instanceLabel;
    mutable QMutex m_mutex;
    QHash<QString, QString> m_containers; // spec key -> container id
};

} // namespace sandbox::power
