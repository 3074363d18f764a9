#pragma once

#include "DockerApi.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QString>

#include <memory>

namespace sandbox::power {

// The containers an engine process makes carry its identity (this computer's machine id, the
// user, the pid namespace, the pid and the process's start time), and while the process holds
// a container it says so here. An engine killed mid-command, or whose SSH connection to a
// remote engine died under a command, leaves containers behind that nothing else would remove:
// the next activation on that engine removes every container marked by an engine process of
// the same computer, user and pid namespace that has ended, or that this very process no
// longer holds. Containers of other computers, other users, other pid namespaces (an engine in
// a sandboxed app) and of engine processes that still run are never touched.
class ContainerLeftovers final
{
    Q_DECLARE_TR_FUNCTIONS(ContainerLeftovers)

public:
    // What marks a container: the activation's label and this process's identity.
    static QJsonObject labels(const QString &launcherLabel);

    // While one lives, this process holds (makes, runs) the container `name`: a sweep never
    // removes it. Taken before the container is created, so no sweep can meet it unheld.
    class Hold final
    {
    public:
        explicit Hold(QString name);
        ~Hold();
        Hold(const Hold &) = delete;
        Hold &operator=(const Hold &) = delete;
        const QString &name() const { return m_name; }

    private:
        QString m_name;
    };
    static std::shared_ptr<const Hold> hold(const QString &name) { return std::make_shared<const Hold>(name); }

    struct Swept
    {
        int removed = 0;
        QString problem; // the engine could not be asked, or refused a removal
    };
    // Removes the leftovers on the engine `api` talks to (see above).
    static Swept sweep(const DockerApi &api, int timeoutMs);

    // "<machine id>:<uid>:<pid namespace>:<pid>:<start time>" of this process.
    static QString identity();
    // Whether the engine process named by `identity` (of this computer) still runs.
    static bool stillRuns(const QString &identity);
};

} // namespace sandbox::power
