#include "PowerPack.h"

#include "docker/DockerLauncher.h"

namespace sandbox::power {

QList<std::shared_ptr<Launcher>> PowerPack::createLaunchers()
{
    return { std::make_shared<DockerLauncher>() };
}

} // namespace sandbox::power
