#include "SecretTestPack.h"

#include <QFuture>

namespace sandbox::test {

namespace {

class TestLauncher : public Launcher
{
public:
    explicit TestLauncher(QString kind)
        : m_kind(std::move(kind))
    { }

    QString kind() const override { return m_kind; }

    QFuture<Status> configure(const ResolvedSettings &settings) override
    {
        m_settings = settings;
        return QtFuture::makeReadyFuture(Status::success());
    }

    QFuture<Availability> isAvailable() override { return QtFuture::makeReadyFuture(Availability{ true, QString() }); }

    Result<std::shared_ptr<SandboxProcess>> spawn(const SpawnRequest &, const Policy &) override
    {
        return Error{ m_kind, QStringLiteral("this test backend does not run commands"), {} };
    }

    QFuture<Status> disposeIdle() override { return QtFuture::makeReadyFuture(Status::success()); }

protected:
    QString m_kind;
    ResolvedSettings m_settings;
};

class KeyedLauncher final : public TestLauncher
{
public:
    KeyedLauncher()
        : TestLauncher(QStringLiteral("keyed"))
    { }

    BackendDescriptor descriptor() const override
    {
        BackendDescriptor d;
        d.name = QStringLiteral("Keyed test backend");
        d.description = QStringLiteral("Needs an API key before it activates.");
        d.fields = {
            FieldSpec::make(QStringLiteral("region"), FieldSpec::Type::String, QStringLiteral("Region"), {},
                            QStringLiteral("us-east")),
            FieldSpec::make(QStringLiteral("apiKey"), FieldSpec::Type::Secret, QStringLiteral("API key")).asRequired()
        };
        d.platforms = { QStringLiteral("linux") };
        // Every dimension holds: this backend runs no command at all.
        for (const QString &dimension : BackendDescriptor::enforcementDimensions())
            d.enforcement.insert(dimension, QStringLiteral("nothing runs: this test backend runs no commands"));
        return d;
    }

    QFuture<Status> prepare() override
    {
        // The launcher sees the resolved value (only inside the engine) and checks it.
        if (m_settings.secrets.value(QStringLiteral("apiKey")).isEmpty())
            return QtFuture::makeReadyFuture(
                Status(Error{ QStringLiteral("apiKey"), QStringLiteral("an API key is required"), {} }));
        return QtFuture::makeReadyFuture(Status::success());
    }
};

class AskingLauncher final : public TestLauncher
{
public:
    AskingLauncher()
        : TestLauncher(QStringLiteral("asking"))
    { }

    BackendDescriptor descriptor() const override
    {
        BackendDescriptor d;
        d.name = QStringLiteral("Asking test backend");
        d.description = QStringLiteral("Asks to be confirmed while it prepares.");
        d.platforms = { QStringLiteral("linux") };
        // Every dimension holds: this backend runs no command at all.
        for (const QString &dimension : BackendDescriptor::enforcementDimensions())
            d.enforcement.insert(dimension, QStringLiteral("nothing runs: this test backend runs no commands"));
        return d;
    }

    QFuture<Status> prepare() override
    {
        HostInteractionRequest request;
        request.id = QStringLiteral("confirm-setup");
        request.kind = HostInteractionRequest::Kind::Confirm;
        request.title = QStringLiteral("Set up the asking backend?");
        request.message = QStringLiteral("It needs your confirmation once.");
        return host()->ask(request).then([](const HostInteractionResponse &response) {
            if (response.accepted)
                return Status::success();
            return Status(Error{ QStringLiteral("confirm-setup"), QStringLiteral("set-up was not confirmed"), {} });
        });
    }
};

class NamingLauncher final : public TestLauncher
{
public:
    NamingLauncher()
        : TestLauncher(QStringLiteral("naming"))
    { }

    BackendDescriptor descriptor() const override
    {
        BackendDescriptor d;
        d.name = QStringLiteral("Naming test backend");
        d.description = QStringLiteral("Asks for a name while it prepares.");
        d.platforms = { QStringLiteral("linux") };
        for (const QString &dimension : BackendDescriptor::enforcementDimensions())
            d.enforcement.insert(dimension, QStringLiteral("nothing runs: this test backend runs no commands"));
        return d;
    }

    QFuture<Status> prepare() override
    {
        HostInteractionRequest request;
        request.id = QStringLiteral("name-setup");
        request.kind = HostInteractionRequest::Kind::Text;
        request.title = QStringLiteral("Name the naming backend");
        request.message = QStringLiteral("Names start with ok-.");
        request.defaultValue = QStringLiteral("ok-default");
        return host()->ask(request).then([](const HostInteractionResponse &response) {
            if (!response.accepted)
                return Status(Error{ QStringLiteral("name-setup"), QStringLiteral("no name was given"), {} });
            if (!response.value.startsWith(QLatin1String("ok-")))
                return Status(Error{ QStringLiteral("name-setup"),
                                     QStringLiteral("the name \"%1\" does not start with ok-").arg(response.value),
                                     {} });
            return Status::success();
        });
    }
};

// Enforces every dimension but allowed domains: a policy with an allowlist is refused
// for confinement before anything runs.
class PartialLauncher final : public TestLauncher
{
public:
    PartialLauncher()
        : TestLauncher(QStringLiteral("partial"))
    { }

    BackendDescriptor descriptor() const override
    {
        BackendDescriptor d;
        d.name = QStringLiteral("Partial test backend");
        d.description = QStringLiteral("Enforces no allowed-domains list.");
        d.platforms = { QStringLiteral("linux") };
        for (const QString &dimension : BackendDescriptor::enforcementDimensions()) {
            if (dimension != QLatin1String("allowedDomains"))
                d.enforcement.insert(dimension, QStringLiteral("nothing runs: this test backend runs no commands"));
        }
        return d;
    }

    QFuture<Status> prepare() override { return QtFuture::makeReadyFuture(Status::success()); }
};

} // namespace

QList<std::shared_ptr<Launcher>> SecretTestPack::createLaunchers()
{
    return { std::make_shared<KeyedLauncher>(), std::make_shared<AskingLauncher>(), std::make_shared<NamingLauncher>(),
             std::make_shared<PartialLauncher>() };
}

} // namespace sandbox::test
