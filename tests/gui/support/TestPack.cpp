#include "TestPack.h"

#include "TestLauncher.h"

namespace sandbox::test {

namespace {

FieldSpec field(const QString &id, FieldSpec::Type type, const QString &label, const QString &description = {})
{
    FieldSpec spec;
    spec.id = id;
    spec.type = type;
    spec.label = label;
    spec.description = description;
    return spec;
}

BackendDescriptor descriptor(const QString &name, const QString &description, QList<FieldSpec> fields = {})
{
    BackendDescriptor d;
    d.name = name;
    d.description = description;
    d.fields = std::move(fields);
    d.platforms = { QStringLiteral("linux") };
    // No claims: these launchers run plain host processes and enforce nothing, so the
    // harness runs them under a policy that restricts nothing.
    return d;
}

QList<FieldSpec> everyField()
{
    FieldSpec project = field(QStringLiteral("project"), FieldSpec::Type::String, QStringLiteral("Project"),
                              QStringLiteral("The project the sandboxes belong to."));
    project.required = true;
    FieldSpec endpoint = field(QStringLiteral("endpoint"), FieldSpec::Type::String, QStringLiteral("Endpoint"),
                               QStringLiteral("Where the service listens."));
    endpoint.defaultValue = QStringLiteral("https://sandbox.test");
    FieldSpec workers = field(QStringLiteral("workers"), FieldSpec::Type::Number, QStringLiteral("Workers"),
                              QStringLiteral("Parallel sandboxes."));
    workers.defaultValue = 4;
    workers.min = 1;
    workers.max = 16;
    FieldSpec ratio = field(QStringLiteral("ratio"), FieldSpec::Type::Number, QStringLiteral("CPU share"),
                            QStringLiteral("Share of one CPU per sandbox."));
    ratio.defaultValue = 0.5;
    ratio.min = 0.1;
    ratio.max = 1;
    FieldSpec verbose = field(QStringLiteral("verbose"), FieldSpec::Type::Boolean, QStringLiteral("Verbose logging"),
                              QStringLiteral("Log every request."));
    verbose.defaultValue = false;
    FieldSpec region = field(QStringLiteral("region"), FieldSpec::Type::Select, QStringLiteral("Region"),
                             QStringLiteral("Where the sandboxes run."));
    region.options = { { QStringLiteral("eu"), QStringLiteral("Europe") },
                       { QStringLiteral("us"), QStringLiteral("United States") },
                       { QStringLiteral("ap"), QStringLiteral("Asia Pacific") } };
    region.defaultValue = QStringLiteral("eu");
    FieldSpec apiKey = field(QStringLiteral("apiKey"), FieldSpec::Type::Secret, QStringLiteral("API key"),
                             QStringLiteral("Kept in the system keychain."));
    apiKey.required = true;
    return { project, endpoint, workers, ratio, verbose, region, apiKey };
}

} // namespace

QList<std::shared_ptr<Launcher>> TestPack::createLaunchers()
{
    FieldSpec prepareMs
        = field(QStringLiteral("prepareMs"), FieldSpec::Type::Number, QStringLiteral("Preparation time (ms)"));
    prepareMs.defaultValue = 2500;
    prepareMs.min = 0;
    prepareMs.max = 60000;

    FieldSpec failAt = field(QStringLiteral("failAt"), FieldSpec::Type::Select, QStringLiteral("Fail at"));
    failAt.options = { { QStringLiteral("configure"), QStringLiteral("Configure") },
                       { QStringLiteral("prepare"), QStringLiteral("Prepare") },
                       { QStringLiteral("probe"), QStringLiteral("Probe") } };
    failAt.defaultValue = QStringLiteral("prepare");

    FieldSpec question = field(QStringLiteral("question"), FieldSpec::Type::Select, QStringLiteral("Question"));
    question.options = { { QStringLiteral("confirm"), QStringLiteral("Confirm") },
                         { QStringLiteral("choice"), QStringLiteral("Choice") },
                         { QStringLiteral("text"), QStringLiteral("Text") },
                         { QStringLiteral("secret"), QStringLiteral("Secret") } };
    question.defaultValue = QStringLiteral("confirm");

    // A backend that cannot run here, described as fully as a real one (long claims, a
    // byte-size setting); its launcher's reason starts with its raw ref, as some do.
    BackendDescriptor remote = descriptor(QStringLiteral("Remote runtime"),
                                          QStringLiteral("Runs each command in a runtime service on this machine."));
    remote.enforcement = {
        { QStringLiteral("filesystem"),
          QStringLiteral("The workspace is bind-mounted read-write into the runtime; the rest of the host's files "
                         "are not visible, and the runtime's own root filesystem is mounted read-only.") },
        { QStringLiteral("confinement"),
          QStringLiteral("Separate process, user and IPC namespaces; every capability dropped; no new privileges; "
                         "a seccomp filter refuses kernel keyrings, ptrace and mounting.") },
        { QStringLiteral("network"),
          QStringLiteral("No network interface but loopback unless the policy allows it; then only through the "
                         "engine's filtering proxy.") },
        { QStringLiteral("allowedDomains"),
          QStringLiteral("Enforced by the engine's filtering proxy, which resolves each name itself and refuses "
                         "private and loopback addresses.") },
        { QStringLiteral("hostExecution"),
          QStringLiteral("Host sockets (session bus, service manager, container engine) are not mounted.") },
    };
    FieldSpec memory = field(QStringLiteral("memory"), FieldSpec::Type::Number, QStringLiteral("Memory limit"),
                             QStringLiteral("How much memory each command may use."));
    memory.unit = FieldSpec::Unit::Bytes;
    memory.defaultValue = 4294967296.0;
    memory.min = 67108864;
    memory.max = 68719476736.0;
    remote.fields = { memory };
    FieldSpec socket = field(QStringLiteral("socket"), FieldSpec::Type::String, QStringLiteral("Socket"),
                             QStringLiteral("The runtime's socket."));
    socket.defaultValue = QString();

    return {
        std::make_shared<TestLauncher>(QStringLiteral("every-field"),
                                       descriptor(QStringLiteral("Every field"),
                                                  QStringLiteral("A backend whose settings use every field type."),
                                                  everyField())),
        std::make_shared<TestLauncher>(
            QStringLiteral("plain"), descriptor(QStringLiteral("Plain"), QStringLiteral("Runs host processes.")),
            TestLauncher::Behaviour{ false,
                                     false,
                                     {},
                                     { QStringLiteral("host runtime reused from the last command"),
                                       QStringLiteral("working directory attached (2 ms)") },
                                     {} }),
        std::make_shared<TestLauncher>(
            QStringLiteral("slow"),
            descriptor(QStringLiteral("Slow start"), QStringLiteral("Takes a while to prepare."), { prepareMs })),
        std::make_shared<TestLauncher>(
            QStringLiteral("failing"),
            descriptor(QStringLiteral("Failing"), QStringLiteral("Fails at the step it is told to."), { failAt })),
        std::make_shared<TestLauncher>(QStringLiteral("leaky"),
                                       descriptor(QStringLiteral("Leaky"), QStringLiteral("Its first cleanup fails.")),
                                       TestLauncher::Behaviour{ true, false, {}, {}, {}, 300 }),
        std::make_shared<TestLauncher>(
            QStringLiteral("interactive"),
            descriptor(QStringLiteral("Interactive"), QStringLiteral("Asks a question while preparing."), { question }),
            TestLauncher::Behaviour{ false, true, {}, {}, {} }),
        std::make_shared<TestLauncher>(
            QStringLiteral("runtime"),
            descriptor(QStringLiteral("Runtime"),
                       QStringLiteral("Reaches its runtime at the socket its settings name."), { socket }),
            TestLauncher::Behaviour{ false, false, {}, {}, QStringLiteral("socket") }),
        std::make_shared<TestLauncher>(
            QStringLiteral("remote"), remote,
            TestLauncher::Behaviour{ false,
                                     false,
                                     ref(QStringLiteral("remote")).toString()
                                         + QStringLiteral(": the runtime service is not running. Start it with "
                                                          "“systemctl --user start gui-test-runtime”."),
                                     {},
                                     {} }),
    };
}

} // namespace sandbox::test
