#include "core/launcher/SandboxProcess.h"

#include <QTimer>

namespace sandbox {

// Out of line, so the class's vtable and type information live in the launcher API library.
SandboxProcess::~SandboxProcess() = default;

void SandboxProcess::deliverSignal(ProcessSignal)
{
    terminate();
}

void SandboxProcess::resizeTerminal(const TerminalSize &) { }

void SandboxProcess::releaseLater(std::shared_ptr<SandboxProcess> process)
{
    if (process)
        QTimer::singleShot(0, [process = std::move(process)] {});
}

} // namespace sandbox
