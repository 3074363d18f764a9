#include "ManifestTestPack.h"

#include <QFuture>

namespace sandbox::test {

namespace {

class NamedLauncher final : public Launcher
{
public:
    NamedLauncher(QString kind, QString name)
        : m_kind(std::move(kind))
        , m_name(std::move(name))
    { }

    QString kind() const override { return m_kind; }
    BackendDescriptor descriptor() const override
    {
        BackendDescriptor d;
        d.name = m_name;
        d.description = QStringLiteral("A backend of the manifest test pack.");
        d.fields = { FieldSpec::make(QStringLiteral("label"), FieldSpec::Type::String, QStringLiteral("Label")) };
        d.platforms = { QStringLiteral("linux") };
        d.enforcement.insert(QStringLiteral("confinement"), QStringLiteral("Nothing: this backend runs no commands."));
        return d;
    }
    QFuture<Status> configure(const ResolvedSettings &) override { return QtFuture::makeReadyFuture(Status()); }
    QFuture<Status> prepare() override { return QtFuture::makeReadyFuture(Status()); }
    QFuture<Availability> isAvailable() override { return QtFuture::makeReadyFuture(Availability{ true, {} }); }
    Result<std::shared_ptr<SandboxProcess>> spawn(const SpawnRequest &, const Policy &) override
    {
        return Error{ m_kind, QStringLiteral("this test backend does not run commands"), {} };
    }
    QFuture<Status> disposeIdle() override { return QtFuture::makeReadyFuture(Status()); }

private:
    QString m_kind;
    QString m_name;
};

} // namespace

QList<std::shared_ptr<Launcher>> ManifestTestPack::createLaunchers()
{
    return { std::make_shared<NamedLauncher>(QStringLiteral("alpha"), QStringLiteral("Alpha")),
             std::make_shared<NamedLauncher>(QStringLiteral("vm"), QStringLiteral("A pack's own vm")),
             std::make_shared<NamedLauncher>(QStringLiteral("marked"), QStringLiteral("<b>Bold</b> backend")) };
}

} // namespace sandbox::test
