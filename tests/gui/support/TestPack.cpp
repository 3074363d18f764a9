#include "TestPack.h"

#include "TestLauncher.h"

namespace sandbox::test {

namespace {

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
    return {
        FieldSpec::make(QStringLiteral("project"), FieldSpec::Type::String, QStringLiteral("Project"),
                        QStringLiteral("The project the sandboxes belong to."))
            .asRequired(),
        FieldSpec::make(QStringLiteral("endpoint"), FieldSpec::Type::String, QStringLiteral("Endpoint"),
                        QStringLiteral("Where the service listens."), QStringLiteral("https://sandbox.test")),
        FieldSpec::make(QStringLiteral("workers"), FieldSpec::Type::Number, QStringLiteral("Workers"),
                        QStringLiteral("Parallel sandboxes."), 4)
            .withRange(1, 16),
        FieldSpec::make(QStringLiteral("ratio"), FieldSpec::Type::Number, QStringLiteral("CPU share"),
                        QStringLiteral("Share of one CPU per sandbox."), 0.5)
            .withRange(0.1, 1),
        FieldSpec::make(QStringLiteral("verbose"), FieldSpec::Type::Boolean, QStringLiteral("Verbose logging"),
                        QStringLiteral("Log every request."), false),
        FieldSpec::make(QStringLiteral("region"), FieldSpec::Type::Select, QStringLiteral("Region"),
                        QStringLiteral("Where the sandboxes run."), QStringLiteral("eu"))
            .withOptions({ { QStringLiteral("eu"), QStringLiteral("Europe") },
                           { QStringLiteral("us"), QStringLiteral("United States") },
                           { QStringLiteral("ap"), QStringLiteral("Asia Pacific") } }),
        FieldSpec::make(QStringLiteral("apiKey"), FieldSpec::Type::Secret, QStringLiteral("API key"),
                        QStringLiteral("Kept in the system keychain."))
            .asRequired(),
    };
}

} // namespace

QList<std::shared_ptr<Launcher>> TestPack::createLaunchers()
{
    const FieldSpec prepareMs = FieldSpec::make(QStringLiteral("prepareMs"), FieldSpec::Type::Number,
                                                QStringLiteral("Preparation time (ms)"), {}, 2500)
                                    .withRange(0, 60000);
    const FieldSpec failAt = FieldSpec::make(QStringLiteral("failAt"), FieldSpec::Type::Select,
                                             QStringLiteral("Fail at"), {}, QStringLiteral("prepare"))
                                 .withOptions({ { QStringLiteral("configure"), QStringLiteral("Configure") },
                                                { QStringLiteral("prepare"), QStringLiteral("Prepare") },
                                                { QStringLiteral("probe"), QStringLiteral("Probe") } });
    const FieldSpec question = FieldSpec::make(QStringLiteral("question"), FieldSpec::Type::Select,
                                               QStringLiteral("Question"), {}, QStringLiteral("confirm"))
                                   .withOptions({ { QStringLiteral("confirm"), QStringLiteral("Confirm") },
                                                  { QStringLiteral("choice"), QStringLiteral("Choice") },
                                                  { QStringLiteral("text"), QStringLiteral("Text") },
                                                  { QStringLiteral("secret"), QStringLiteral("Secret") } });

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
    remote.fields = { FieldSpec::make(QStringLiteral("memory"), FieldSpec::Type::Number, QStringLiteral("Memory limit"),
                                      QStringLiteral("How much memory each command may use."), 4294967296.0)
                          .withRange(67108864, 68719476736.0)
                          .asByteSize() };
    const FieldSpec socket
        = FieldSpec::make(QStringLiteral("socket"), FieldSpec::Type::String, QStringLiteral("Socket"),
                          QStringLiteral("The runtime's socket."), QString());

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
