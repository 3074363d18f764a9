#include "LauncherCommand.h"

#include <QEventLoop>
#include <QTimer>

namespace sandbox::bench {

bool spawnAndWait(Launcher &launcher, const SpawnRequest &request, const Policy &policy)
{
    Result<std::shared_ptr<SandboxProcess>> spawned = launcher.spawn(request, policy);
    if (!spawned.ok())
        return false;
    QEventLoop loop;
    bool ok = false;
    QObject::connect(spawned.value().get(), &SandboxProcess::finished, &loop, [&](const ExitStatus &status) {
        ok = !status.signaled && status.exitCode == 0;
        loop.quit();
    });
    QObject::connect(spawned.value().get(), &SandboxProcess::failedToStart, &loop, [&] { loop.quit(); });
    QTimer::singleShot(60000, &loop, &QEventLoop::quit);
    loop.exec();
    return ok;
}

} // namespace sandbox::bench
