#pragma once

#include "DaemonRig.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <memory>

class QProcess;

namespace sandbox::test {

// What the tst_daemon_* suites share: per test function a DaemonRig under /var/tmp (not
// under /tmp: tier 2 shares the host's /tmp, which the default policy makes writable, and
// refuses to run anything while the engine's directories are within reach), its daemon
// under the profile "d" with the test pack on the pack path, and sandboxctl run under a
// profile: "d" talks to that daemon, any other name has a configuration and socket of its
// own in the rig.
class DaemonFixture
{
protected:
    explicit DaemonFixture(const QString &packPath);

    // For the suite's init() and cleanup().
    void setUp();
    void tearDown();

    // The test's environment with profile `name`'s configuration and state and the test pack.
    QProcessEnvironment environment(const QString &name) const;
    void startDaemon();
    Outcome ctl(const QStringList &args, const QByteArray &input = {}, const QString &profile = QStringLiteral("d"),
                int timeoutMs = 60000);
    std::unique_ptr<QProcess> startCtl(const QStringList &args, const QString &program = QStringLiteral("sandboxctl"));
    QJsonArray processes();
    // The stored policy with `network` replaced, written to work/NAME; returns its path.
    QString policyWithNetwork(const QString &name, const QJsonObject &network);
    // Rows for a test that runs a command both ways sandboxctl can: the run front and the
    // full program.
    static void programRows();

    DaemonRig m_rig;

private:
    QString m_packPath;
};

// Never kill(0, ...): a process that already ended has id 0, and that would be our group.
void killHard(const QProcess &process);
bool pidAlive(qint64 pid);
// The engine lists a command as soon as it is spawned, with pid 0 until it has started.
bool everyPidKnown(const QJsonArray &list);

} // namespace sandbox::test
