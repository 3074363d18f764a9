#pragma once

#include "ProgramRun.h"

#include <QByteArray>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

class QProcess;
class QTemporaryDir;

namespace sandbox::test {

// A private sandboxd for a test: a folder of its own holding the daemon's configuration
// (config/), state (state/), socket (run/engine.sock) and the commands' workspace (work/);
// the daemon started there, and sandboxctl run against it from the workspace.
class DaemonRig final
{
public:
    DaemonRig();
    ~DaemonRig();
    DaemonRig(const DaemonRig &) = delete;
    DaemonRig &operator=(const DaemonRig &) = delete;

    // Makes a fresh folder from `pathTemplate` (QTemporaryDir's template; empty: its default
    // under TMPDIR) with an empty work/ in it, after destroy() and with an empty log. False
    // when it cannot be made.
    bool create(const QString &pathTemplate = {});
    // Stops the daemon and removes the folder.
    void destroy();

    QString path() const;
    QString filePath(const QString &name) const;
    QString workspace() const;
    QString socket() const;

    // The test's own environment with the daemon's configuration and state in this folder,
    // under `profile` when one is given (PROFILE/config, PROFILE/state), and the packs as
    // `packPath` says: the only pack folder when set, else none but those installed.
    QProcessEnvironment environment(const QString &profile = {}, const QString &packPath = {}) const;

    // Starts sandboxd on socket() with exactly `environment` and waits until it serves;
    // reports a failure through QTest otherwise. With `logOutput` the log holds its standard
    // output too.
    void start(const QProcessEnvironment &environment, bool logOutput = false);
    void start();
    // Asks the daemon to end, and kills it when it does not (ProgramRun's stopGracefully).
    void stop();
    // The daemon's process; null before start() and after stop().
    QProcess *daemon() const;
    // What the daemons started here wrote (see start()), oldest first.
    QByteArray &log();
    const QByteArray &log() const;
    void clearLog();

    // The environment sandboxctl runs in here when a call names none; the test's own until set.
    void setCtlEnvironment(const QProcessEnvironment &environment);

    // `sandboxctl --socket socket() ARGS` in the workspace, given `input`, bounded by
    // `timeoutMs`; in `environment` when given.
    Outcome ctl(const QStringList &args, const QByteArray &input = {}, int timeoutMs = 60000,
                const std::optional<QProcessEnvironment> &environment = std::nullopt) const;
    // `program --socket socket() ARGS` (sandboxctl unless named) in the workspace, started and
    // left running.
    std::unique_ptr<QProcess> startCtl(const QStringList &args,
                                       const QString &program = QStringLiteral("sandboxctl")) const;

private:
    std::unique_ptr<QTemporaryDir> m_root;
    std::unique_ptr<QProcess> m_daemon;
    QByteArray m_log;
    std::optional<QProcessEnvironment> m_ctlEnvironment;
};

// The Docker-compatible runtime the Docker tests run on (Podman's service, started by test.sh
// or tests/integration/podman-runtime.sh): its socket and the image the commands run in.
struct DockerRuntime
{
    QString socket;
    QString image;
};

// The runtime the environment names (SANDBOX_TEST_DOCKER_SOCKET, SANDBOX_TEST_DOCKER_IMAGE);
// nothing when it names none.
std::optional<DockerRuntime> dockerRuntime();

// Installs the Power Pack from `packDir` into the rig's daemon, points its Docker backend at
// `runtime` (with `image` instead of the runtime's own when given) and activates it, each
// step given two minutes; reports a failure through QTest.
void activateDocker(const DaemonRig &rig, const QString &packDir, const DockerRuntime &runtime,
                    const QString &image = {});

} // namespace sandbox::test

// In a test function: sets `runtime` (a DockerRuntime) from the environment, or, without a
// runtime, skips the test (fails it when SANDBOX_REQUIRE_DOCKER says one must be there).
#define SANDBOX_DOCKER_RUNTIME_OR_SKIP(runtime)                                                                        \
    do {                                                                                                               \
        const std::optional<sandbox::test::DockerRuntime> named = sandbox::test::dockerRuntime();                      \
        if (!named) {                                                                                                  \
            if (qEnvironmentVariableIntValue("SANDBOX_REQUIRE_DOCKER"))                                                \
                QFAIL("SANDBOX_TEST_DOCKER_SOCKET and SANDBOX_TEST_DOCKER_IMAGE are not set: test.sh starts the "      \
                      "runtime");                                                                                      \
            QSKIP("No Docker-compatible runtime: run through test.sh, or tests/integration/podman-runtime.sh start "   \
                  "DIR");                                                                                              \
        }                                                                                                              \
        runtime = *named;                                                                                              \
    } while (false)
