#pragma once

#include <QString>
#include <QtGlobal>

namespace sandbox {

// Whether the process at the other end of a local socket runs inside a sandbox an engine
// started (defence in depth behind the sandbox closing the path to the socket): such a
// peer could otherwise ask the engine for a spawn with a more permissive policy.
//
// The mark is the process tree, which a sandboxed process cannot leave: every process the
// auto backend confines descends from sandbox-init (tier 1: its pid 1; tier 2: the child
// subreaper every orphan is reparented to). The peer is pinned by the pidfd the kernel
// hands out for the connection (SO_PEERPIDFD) where it exists, so a pid reused while the
// tree is walked cannot pass; a peer that can no longer be examined is treated as
// sandboxed.
class SandboxedPeer final
{
public:
    // `why` names the sandbox-init ancestor (or the failed check) when the answer is true.
    static bool check(qintptr socketDescriptor, qint64 pid, QString *why);
};

} // namespace sandbox
