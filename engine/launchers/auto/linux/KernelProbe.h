#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

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
    bool fromCache = false; // the answer of an earlier probe of the same kernel and helper

    static KernelProbe run(const QString &initPath);

    // Like run(), but answers from `cacheFile` when it holds the result of a probe taken
    // under the same conditions: the same boot, kernel release, helper file (device,
    // inode, size, modification and change times) and the sysctls that decide whether
    // user namespaces are allowed, and when only this user could have written it (theirs,
    // writable by nobody else). Otherwise probes and stores the result there, owner-only.
    static KernelProbe cachedOrRun(const QString &initPath, const QString &cacheFile);
    // cachedOrRun()'s answer when `cacheFile` holds it; nothing (and no probe) otherwise.
    static std::optional<KernelProbe> cached(const QString &initPath, const QString &cacheFile);

    // The conditions a cached probe must have been taken under, one line each; empty when
    // the helper cannot be examined (then nothing is cached).
    static QByteArray conditions(const QString &initPath);

private:
    static KernelProbe parse(const QByteArray &output, bool appArmorRestrictsUserns);
};

} // namespace sandbox
