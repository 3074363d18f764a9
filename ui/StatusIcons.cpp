#include "StatusIcons.h"

// Q_INIT_RESOURCE must be used outside any namespace.
static void initStudioResources()
{
    Q_INIT_RESOURCE(studio);
}

namespace sandbox {

QIcon StatusIcons::load(const QString &name)
{
    // The resources live in a static library: register them before the first use.
    static const bool initialized = [] {
        initStudioResources();
        return true;
    }();
    Q_UNUSED(initialized);
    return QIcon(QStringLiteral(":/icons/") + name + QStringLiteral(".png"));
}

QIcon StatusIcons::application()
{
    return load(QStringLiteral("sandbox-studio"));
}

QIcon StatusIcons::step(StepState state)
{
    switch (state) {
    case StepState::Pending:
        return load(QStringLiteral("step-pending"));
    case StepState::Running:
        return load(QStringLiteral("step-running"));
    case StepState::Succeeded:
        return load(QStringLiteral("step-succeeded"));
    case StepState::Failed:
        return load(QStringLiteral("step-failed"));
    case StepState::Skipped:
        return load(QStringLiteral("step-skipped"));
    case StepState::Warning:
        return load(QStringLiteral("step-warning"));
    }
    return {};
}

QIcon StatusIcons::backend(BackendState state)
{
    switch (state) {
    case BackendState::Active:
        return load(QStringLiteral("backend-active"));
    case BackendState::Available:
        return load(QStringLiteral("backend-available"));
    case BackendState::Unavailable:
        return load(QStringLiteral("backend-unavailable"));
    }
    return {};
}

QIcon StatusIcons::reveal(bool shown)
{
    return load(shown ? QStringLiteral("eye-closed") : QStringLiteral("eye-open"));
}

QIcon StatusIcons::warning()
{
    return load(QStringLiteral("step-warning"));
}

QIcon StatusIcons::information()
{
    return load(QStringLiteral("information"));
}

} // namespace sandbox
