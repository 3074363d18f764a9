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

    return {
        std::make_shared<TestLauncher>(QStringLiteral("every-field"),
                                       descriptor(QStringLiteral("Every field"),
                                                  QStringLiteral("A backend whose settings use every field type."),
                                                  everyField())),
        std::make_shared<TestLauncher>(QStringLiteral("plain"),
                                       descriptor(QStringLiteral("Plain"), QStringLiteral("Runs host processes."))),
        std::make_shared<TestLauncher>(
            QStringLiteral("slow"),
            descriptor(QStringLiteral("Slow start"), QStringLiteral("Takes a while to prepare."), { prepareMs })),
        std::make_shared<TestLauncher>(
            QStringLiteral("failing"),
            descriptor(QStringLiteral("Failing"), QStringLiteral("Fails at the step it is told to."), { failAt })),
        std::make_shared<TestLauncher>(QStringLiteral("leaky"),
                                       descriptor(QStringLiteral("Leaky"), QStringLiteral("Its first cleanup fails.")),
                                       TestLauncher::Behaviour{ true, false }),
        std::make_shared<TestLauncher>(
            QStringLiteral("interactive"),
            descriptor(QStringLiteral("Interactive"), QStringLiteral("Asks a question while preparing."), { question }),
            TestLauncher::Behaviour{ false, true }),
    };
}

} // namespace sandbox::test
