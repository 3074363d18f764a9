#include "PowerPack.h"

#include "docker/DockerLauncher.h"
#include "e2b/E2bLauncher.h"

namespace sandbox::power {

QList<std::shared_ptr<Launcher>> PowerPack::createLaunchers()
{
    return { std::make_shared<DockerLauncher>(), std::make_shared<E2bLauncher>() };
}

} // namespace sandbox::power
