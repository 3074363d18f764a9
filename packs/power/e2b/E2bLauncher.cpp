#include "E2bLauncher.h"

#include "E2bProcess.h"
#include "E2bWorkspaceProcess.h"

#include <QtConcurrent/QtConcurrentRun>

namespace sandbox::power {

E2bLauncher::E2bLauncher()
    : m_settingsError{ QStringLiteral("settings"), tr("The E2B backend is not configured."), {} }
    , m_keyListener(std::make_shared<KeyListener>())
{
    m_keyListener->launcher = this;
    // The engine's end is the end of its sandboxes too: the application is still whole when
    // it is about to quit, so the kills can be sent and waited for (within their bound).
    if (QCoreApplication *application = QCoreApplication::instance()) {
        m_quitWatch = std::make_unique<QObject>();
        QObject::connect(
            application, &QCoreApplication::aboutToQuit, m_quitWatch.get(), [this] { killSandboxes(); },
            Qt::DirectConnection);
    }
}

void E2bLauncher::killSandboxes()
{
    std::shared_ptr<E2bSandboxPool> pool;
    {
        QMutexLocker locker(&m_mutex);
        pool = m_pool;
    }
    if (!pool)
        return;
    if (const Status killed = pool->killAll(E2bSandboxPool::killBoundMs); !killed.ok())
        qWarning("e2b: %s", qPrintable(killed.error().message));
}

E2bLauncher::~E2bLauncher()
{
    m_work.clear();
    m_work.waitForDone();
    // The pool's end kills its sandboxes (bounded); commands still holding it keep it.
    m_quitWatch.reset();
    {
        QMutexLocker locker(&m_keyListener->mutex);
        m_keyListener->launcher = nullptr;
    }
    killSandboxes();
}

std::shared_ptr<E2bSandboxPool> E2bLauncher::newPool(const E2bSettings &settings)
{
    // A pool may outlive the launcher (a command still holds it): it reaches the launcher
    // only while there is one.
    return std::make_shared<E2bSandboxPool>(E2bApi(settings), [listener = m_keyListener] {
        QMutexLocker locker(&listener->mutex);
        if (listener->launcher)
            listener->launcher->keyRefused();
    });
}

void E2bLauncher::keyRefused()
{
    {
        QMutexLocker locker(&m_mutex);
        if (m_keyRefused)
            return;
        m_keyRefused = true;
    }
    qWarning("e2b: %s", qPrintable(E2bApi::keyRefused()));
    if (host())
        host()->notifyAvailabilityChanged();
}

BackendDescriptor E2bLauncher::descriptor() const
{
    BackendDescriptor d;
    d.name = tr("E2B");
    d.description = tr("Runs each command in an E2B sandbox, an isolated virtual machine in E2B's cloud, one sandbox "
                       "per activation. Needs an E2B API key and a connection to the service.");
    d.fields = {
        FieldSpec::make(QStringLiteral("apiKey"), FieldSpec::Type::Secret, tr("API key"),
                        tr("Your E2B API key. It is kept in the keychain and sent only to the E2B API."))
            .asRequired(),
        FieldSpec::make(QStringLiteral("template"), FieldSpec::Type::String, tr("Template"),
                        tr("The sandbox template commands run in."), QString::fromLatin1(E2bSettings::baseTemplate)),
        FieldSpec::make(
            QStringLiteral("domain"), FieldSpec::Type::String, tr("Domain"),
            tr("The E2B domain: the API is at api. followed by the domain, and sandboxes are reached under it."),
            QString::fromLatin1(E2bSettings::publicDomain)),
        FieldSpec::make(
            QStringLiteral("apiUrl"), FieldSpec::Type::String, tr("API URL"),
            tr("Empty: https://api. followed by the domain. HTTPS, or plain HTTP to a loopback address only."),
            QString()),
        FieldSpec::make(
            QStringLiteral("sandboxUrl"), FieldSpec::Type::String, tr("Sandbox URL"),
            tr("Empty: for E2B's own domains their one address for every sandbox (sandbox. followed by the "
               "domain), for other domains each sandbox at its own address under the domain (envd, port 49983). "
               "Otherwise one address for every sandbox. The sandbox is always named in a header. HTTPS, or plain "
               "HTTP to a loopback address only."),
            QString()),
        FieldSpec::make(QStringLiteral("timeoutSeconds"), FieldSpec::Type::Number, tr("Sandbox timeout (s)"),
                        tr("How long a sandbox lives after the last command that used it ended; E2B ends it "
                           "then. A command that finds its sandbox ended gets a new one, and says so."),
                        300)
            .withRange(10, 86400),
        FieldSpec::make(QStringLiteral("workspace"), FieldSpec::Type::Select, tr("Workspace"),
                        tr("What a command sees of your workspace."), QStringLiteral("sync"))
            .withOptions({ SelectOption{ QStringLiteral("sync"),
                                         tr("Uploaded before each command, its changes brought back after it") },
                           SelectOption{ QStringLiteral("none"),
                                         tr("Not uploaded: commands run in the sandbox's own home folder") } }),
    };
    d.platforms = { QStringLiteral("linux"), QStringLiteral("macos"), QStringLiteral("windows") };
    d.enforcement = {
        { QStringLiteral("filesystem"),
          tr("Commands run in a remote virtual machine: no file of this computer is reachable from them. With the "
             "workspace set to sync, the workspace folder without the policy's denied paths is uploaded into the "
             "sandbox's copy of it before each command, and the command runs there; after it ends, the regular files "
             "it created or changed are written back, only where the policy lets commands write and never through a "
             "link. No control file of a repository (what makes git run code) comes back: inside a git directory that "
             "exists "
             "here only what git writes during ordinary work (objects, refs, logs, the index, HEAD and the other "
             "state files); no .git entry, nothing through a .git that is not a git directory here, no HEAD outside "
             "one and nothing in a new repository; each such file is listed on the command's error output. A file "
             "that also changed on this computer while the command ran is kept, and the sandbox's "
             "version is written beside it, its name ending in .sandbox-conflict. An execute bit the command set or "
             "cleared comes back the same way. Files the command deleted stay on this computer; links are not brought "
             "back, and each link the command made or changed is listed on its error output. A command that is "
             "killed or times out brings nothing back, and so does one whose copy of the workspace does not come back "
             "whole: its result is then status 255, and its error output says why. "
             "With the workspace set to none, nothing is uploaded and commands start in the sandbox's home folder.") },
        { QStringLiteral("confinement"),
          tr("The sandbox is a virtual machine of E2B's, shared by the activation's commands: they see each other's "
             "processes and files there. Processes a command leaves running in the background may keep running until "
             "the sandbox is killed. A command the sandbox does not end within 5 seconds of its kill is no longer "
             "waited for here, and may go on running there until the sandbox ends. Every sandbox the backend created "
             "is killed when new settings replace it, when the backend is no longer used and when the engine stops "
             "(within 5 seconds); one that could not be killed is named in a warning.") },
        { QStringLiteral("network"),
          tr("Network none: commands run in a sandbox created without internet access. Full: in a second sandbox of "
             "the activation, created with internet access. The sandbox reaches nothing on this computer's local "
             "network.") },
        { QStringLiteral("allowedDomains"),
          tr("Not enforced: under the allowlist network mode this backend refuses to run commands.") },
        { QStringLiteral("hostExecution"),
          tr("There is no channel back to this computer: commands cannot run anything on it.") },
    };
    d.refusals = tr("Only the engine's own refusals (a command refused before it is sent to the sandbox). What the "
                    "remote sandbox refuses is not observed.");
    return d;
}

QFuture<Status> E2bLauncher::configure(const ResolvedSettings &settings)
{
    // The descriptor's defaults for what is not given (the engine gives them all; a direct
    // caller may not): they are written there only.
    ResolvedSettings filled = settings;
    filled.values = settings.values.withDefaults(descriptor());
    Result<E2bSettings> read = E2bSettings::fromResolved(filled);
    // The old settings' sandboxes are killed once the commands still using them end.
    std::shared_ptr<E2bSandboxPool> retired;
    QMutexLocker locker(&m_mutex);
    retired = std::exchange(m_pool, {});
    m_keyRefused = false;
    if (!read.ok()) {
        m_configured = false;
        m_settingsError = read.error();
        locker.unlock();
        return QtFuture::makeReadyFuture(Status(read.error()));
    }
    m_settings = read.value();
    m_configured = true;
    locker.unlock();
    retired.reset();
    return QtFuture::makeReadyFuture(Status());
}

QFuture<Status> E2bLauncher::prepare()
{
    E2bSettings current;
    {
        QMutexLocker locker(&m_mutex);
        if (!m_configured)
            return QtFuture::makeReadyFuture(Status(m_settingsError));
        current = m_settings;
    }
    return QtConcurrent::run(&m_work, [this, current]() -> Status {
        const E2bApi api(current);
        if (const Status checked = api.checkKey(); !checked)
            return checked;
        auto pool = newPool(current);
        // The default policy's network is none: that sandbox is the one the activation keeps.
        Result<E2bSandboxPool::Lease> sandbox = pool->sandboxFor(false);
        if (!sandbox.ok())
            return sandbox.error();
        std::shared_ptr<E2bSandboxPool> previous;
        {
            QMutexLocker locker(&m_mutex);
            previous = std::exchange(m_pool, pool);
            m_keyRefused = false;
        }
        if (previous) {
            if (const Status killed = previous->killAll(); !killed.ok() && host())
                host()->reportActivationNote(killed.error().message);
        }
        return {};
    });
}

QFuture<Availability> E2bLauncher::isAvailable()
{
    E2bSettings current;
    {
        QMutexLocker locker(&m_mutex);
        if (!m_configured)
            return QtFuture::makeReadyFuture(Availability{ false, m_settingsError.message });
        if (m_keyRefused)
            return QtFuture::makeReadyFuture(Availability{ false, E2bApi::keyRefused() });
        current = m_settings;
    }
    return QtConcurrent::run(&m_work, [current]() -> Availability {
        const Status checked = E2bApi(current).checkKey();
        return Availability{ checked.ok(), checked ? QString() : checked.error().message };
    });
}

Result<std::shared_ptr<SandboxProcess>> E2bLauncher::spawn(const SpawnRequest &request, const Policy &policy)
{
    std::shared_ptr<E2bSandboxPool> pool;
    {
        QMutexLocker locker(&m_mutex);
        if (m_keyRefused)
            return Error{ QStringLiteral("apiKey"), E2bApi::keyRefused(), {} };
        pool = m_pool;
    }
    if (!pool)
        return Error{ kind(), tr("The E2B backend is not prepared; activate it first."), {} };
    if (request.argv.isEmpty())
        return Error{ QStringLiteral("argv"), tr("No command was given."), {} };
    if (policy.network == Policy::NetworkMode::Allowlist)
        return Error{ QStringLiteral("policy.network"),
                      tr("The policy allows only some domains, which an E2B sandbox cannot enforce: it has either no "
                         "internet access or all of it. Choose network none or full for this workspace, or another "
                         "backend."),
                      {} };
    const bool internet = policy.network == Policy::NetworkMode::Full;
    if (pool->api().settings().syncWorkspace && !request.cwd.isEmpty()) {
        auto process = std::make_shared<E2bWorkspaceProcess>(pool, internet, request, policy);
        process->start();
        return std::shared_ptr<SandboxProcess>(process);
    }
    auto process = std::make_shared<E2bProcess>(pool, internet, request);
    QObject::connect(process.get(), &E2bProcess::notice, process.get(), &SandboxProcess::stderrReady);
    process->start();
    return std::shared_ptr<SandboxProcess>(process);
}

QFuture<Status> E2bLauncher::disposeIdle()
{
    std::shared_ptr<E2bSandboxPool> pool;
    {
        QMutexLocker locker(&m_mutex);
        pool = m_pool;
    }
    if (!pool)
        return QtFuture::makeReadyFuture(Status());
    return QtConcurrent::run(&m_work, [pool]() -> Status { return pool->killAll(); });
}

} // namespace sandbox::power
