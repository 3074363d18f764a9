#include "E2bLauncher.h"

#include "E2bProcess.h"
#include "E2bWorkspaceProcess.h"

#include <QtConcurrent/QtConcurrentRun>

namespace sandbox::power {

namespace {

FieldSpec field(const QString &id, FieldSpec::Type type, const QString &label, const QString &description)
{
    FieldSpec spec;
    spec.id = id;
    spec.type = type;
    spec.label = label;
    spec.description = description;
    return spec;
}

} // namespace

E2bLauncher::E2bLauncher()
    : m_settingsError{ QStringLiteral("settings"), tr("The E2B backend is not configured."), {} }
{ }

E2bLauncher::~E2bLauncher() = default;

BackendDescriptor E2bLauncher::descriptor() const
{
    BackendDescriptor d;
    d.name = tr("E2B");
    d.description = tr("Runs each command in an E2B sandbox, an isolated virtual machine in E2B's cloud, one sandbox "
                       "per activation. Needs an E2B API key and a connection to the service.");
    FieldSpec key = field(QStringLiteral("apiKey"), FieldSpec::Type::Secret, tr("API key"),
                          tr("Your E2B API key. It is kept in the keychain and sent only to the E2B API."));
    key.required = true;
    FieldSpec templateId = field(QStringLiteral("template"), FieldSpec::Type::String, tr("Template"),
                                 tr("The sandbox template commands run in."));
    templateId.defaultValue = QStringLiteral("base");
    FieldSpec domain
        = field(QStringLiteral("domain"), FieldSpec::Type::String, tr("Domain"),
                tr("The E2B domain: the API is at api. followed by the domain, and sandboxes are reached under it."));
    domain.defaultValue = QString::fromLatin1(E2bSettings::publicDomain);
    FieldSpec apiUrl
        = field(QStringLiteral("apiUrl"), FieldSpec::Type::String, tr("API URL"),
                tr("Empty: https://api. followed by the domain. HTTPS, or plain HTTP to a loopback address only."));
    apiUrl.defaultValue = QString();
    FieldSpec sandboxUrl
        = field(QStringLiteral("sandboxUrl"), FieldSpec::Type::String, tr("Sandbox URL"),
                tr("Empty: each sandbox at its own address under the domain (envd, port 49983). Otherwise one address "
                   "for every sandbox, "
                   "which names the sandbox in a header. HTTPS, or plain HTTP to a loopback address only."));
    sandboxUrl.defaultValue = QString();
    FieldSpec timeout = field(QStringLiteral("timeoutSeconds"), FieldSpec::Type::Number, tr("Sandbox timeout (s)"),
                              tr("How long a sandbox lives after its last use; every command extends it."));
    timeout.defaultValue = 300;
    timeout.min = 10;
    timeout.max = 86400;
    FieldSpec workspace = field(QStringLiteral("workspace"), FieldSpec::Type::Select, tr("Workspace"),
                                tr("What a command sees of your workspace."));
    workspace.options
        = { SelectOption{ QStringLiteral("sync"),
                          tr("Uploaded before each command, its changes brought back after it") },
            SelectOption{ QStringLiteral("none"), tr("Not uploaded: commands run in the sandbox's own home folder") } };
    workspace.defaultValue = QStringLiteral("sync");
    d.fields = { key, templateId, domain, apiUrl, sandboxUrl, timeout, workspace };
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
             "version is written beside it, its name ending in .sandbox-conflict. Files the command deleted stay on "
             "this "
             "computer, links are not brought back, and a command that is killed or times out brings nothing back. "
             "With the workspace set to none, nothing is uploaded and commands start in the sandbox's home folder.") },
        { QStringLiteral("confinement"),
          tr("The sandbox is a virtual machine of E2B's, shared by the activation's commands: they see each other's "
             "processes and files there. Processes a command leaves running in the background may keep running until "
             "the sandbox is killed.") },
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
    Result<E2bSettings> read = E2bSettings::fromResolved(settings);
    QMutexLocker locker(&m_mutex);
    m_pool.reset();
    if (!read.ok()) {
        m_configured = false;
        m_settingsError = read.error();
        return QtFuture::makeReadyFuture(Status(read.error()));
    }
    m_settings = read.value();
    m_configured = true;
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
    return QtConcurrent::run([this, current]() -> Status {
        const E2bApi api(current);
        if (const Status checked = api.checkKey(); !checked)
            return checked;
        auto pool = std::make_shared<E2bSandboxPool>(api);
        // The default policy's network is none: that sandbox is the one the activation keeps.
        Result<E2bSandbox> sandbox = pool->sandboxFor(false);
        if (!sandbox.ok())
            return sandbox.error();
        std::shared_ptr<E2bSandboxPool> previous;
        {
            QMutexLocker locker(&m_mutex);
            previous = std::exchange(m_pool, pool);
        }
        if (previous)
            previous->killAll();
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
        current = m_settings;
    }
    return QtConcurrent::run([current]() -> Availability {
        const Status checked = E2bApi(current).checkKey();
        return Availability{ checked.ok(), checked ? QString() : checked.error().message };
    });
}

Result<std::shared_ptr<SandboxProcess>> E2bLauncher::spawn(const SpawnRequest &request, const Policy &policy)
{
    std::shared_ptr<E2bSandboxPool> pool;
    {
        QMutexLocker locker(&m_mutex);
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
    return QtConcurrent::run([pool]() -> Status { return pool->killAll(); });
}

} // namespace sandbox::power
