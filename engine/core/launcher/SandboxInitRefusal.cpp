#include "core/launcher/SandboxInitRefusal.h"

namespace sandbox {

namespace {

QString named(const QString &text)
{
    return text.trimmed().isEmpty() ? SandboxInitRefusal::tr("(unnamed)") : text;
}

} // namespace

std::optional<Refusal> SandboxInitRefusal::fromStatus(const QString &kind, const QString &what)
{
    Refusal refusal;
    refusal.kind = Refusal::Kind::Path;
    refusal.what = named(what);
    if (kind == QLatin1String("host-socket")) {
        refusal.kind = Refusal::Kind::HostSocket;
        refusal.rule = tr("host sockets: a command may connect only to the sockets its sandbox offers it (refused by "
                          "sandbox-init's connect supervisor)");
    } else if (kind == QLatin1String("repository")) {
        refusal.rule = tr("repository protection: the files that make git run code, a new repository, a read-only "
                          "path or a hard-linked file cannot be changed (refused at the write by sandbox-init's "
                          "write gate)");
    } else if (kind == QLatin1String("denied")) {
        // The policy's denied path, a tab, then the path the command wrote.
        refusal.what = named(what.section(QLatin1Char('\t'), 1));
        refusal.rule = tr("filesystem: %1 is denied by the policy, so nothing beneath it may be written (refused "
                          "at the write by sandbox-init's write gate)")
                           .arg(what.section(QLatin1Char('\t'), 0, 0));
    } else if (kind == QLatin1String("path")) {
        refusal.rule = tr("filesystem: only files under the policy's writable paths may change mode or times "
                          "(refused by sandbox-init's metadata supervisor)");
    } else if (kind == QLatin1String("call")) {
        // The call's name, a tab, then the name the calling process gave itself.
        refusal.kind = Refusal::Kind::Syscall;
        refusal.what = named(what.section(QLatin1Char('\t'), 0, 0));
        refusal.rule = tr("seccomp: the policy denies %1 (refused by sandbox-init in %2)")
                           .arg(refusal.what, what.section(QLatin1Char('\t'), 1));
    } else {
        return std::nullopt;
    }
    return refusal;
}

} // namespace sandbox
