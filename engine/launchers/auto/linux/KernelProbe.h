#pragma once

#include <QString>

namespace sandbox {

// What this kernel lets a sandbox use, as measured by running `sandbox-init --probe`
// (the same binary, the same steps a spawn takes).
struct KernelProbe
{
    bool ran = false;
    QString failure; // why the probe itself could not run
    int landlockAbi = 0;
    bool namespaces = false; // user + mount + pid + net + ipc + uts + cgroup, mounts work
    QString namespacesError;
    bool seccomp = false;
    QString seccompError;
    // kernel.apparmor_restrict_unprivileged_userns = 1 (Ubuntu 23.10 and later): only
    // programs whose AppArmor profile has a `userns,` rule may create user namespaces.
    bool appArmorRestrictsUserns = false;

    static KernelProbe run(const QString &initPath);
};

} // namespace sandbox
