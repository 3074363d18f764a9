#pragma once

#include "protocol/ActivationEvent.h"

#include <QIcon>

namespace sandbox {

// The icons Studio draws its states with (shipped in resources/icons).
class StatusIcons final
{
public:
    enum class StepState { Pending, Running, Succeeded, Failed, Skipped, Warning };
    enum class BackendState { Active, Available, Unavailable };

    static QIcon application();
    static QIcon step(StepState state);
    static QIcon backend(BackendState state);
    static QIcon reveal(bool shown);
    static QIcon warning();
    static QIcon information();

private:
    static QIcon load(const QString &name);
};

} // namespace sandbox
