#include "LauncherCommand.h"

#include <QEventLoop>
#include <QTimer>

namespace sandbox::bench {

bool spawnAndWait(Launcher &launcher, const SpawnRequest &request, const Policy &policy,
                  const std::function<void(const QByteArray &)> &onOutput, QString *why)
{
    Result<std::shared_ptr<SandboxProcess>> spawned = launcher.spawn(request, policy);
    if (!spawned.ok()) {
        if (why)
            *why = spawned.error().message;
        return false;
    }
    QEventLoop loop;
    bool ok = false;
    QString failed = QStringLiteral("it did not end within a minute");
    QByteArray err;
    if (onOutput)
        QObject::connect(spawned.value().get(), &SandboxProcess::stdoutReady, &loop, onOutput);
    QObject::connect(spawned.value().get(), &SandboxProcess::stderrReady, &loop,
                     [&err](const QByteArray &data) { err += data; });
    QObject::connect(spawned.value().get(), &SandboxProcess::finished, &loop, [&](const ExitStatus &status) {
        ok = !status.signaled && status.exitCode == 0;
        failed = status.signaled ? QStringLiteral("it ended by a signal")
                                 : QStringLiteral("it exited with status %1").arg(status.exitCode);
        loop.quit();
    });
    QObject::connect(spawned.value().get(), &SandboxProcess::failedToStart, &loop, [&](const Error &error) {
        failed = QStringLiteral("it did not start: ") + error.message;
        loop.quit();
    });
    QTimer::singleShot(60000, &loop, &QEventLoop::quit);
    loop.exec();
    if (!ok && why)
        *why = err.isEmpty() ? failed : failed + QStringLiteral(": ") + QString::fromUtf8(err).trimmed();
    return ok;
}

} // namespace sandbox::bench
