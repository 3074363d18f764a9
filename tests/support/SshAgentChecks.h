#pragma once

#include "OpenSshRig.h"
#include "ProgramRun.h"

#include <QProcess>
#include <QString>
#include <QStringList>

#include <functional>

namespace sandbox::test {

// What the backends' SSH agent tests (Docker, vm) check alike, each running its sandboxed
// shells its own way. A check that fails is a failed QTest check: the caller stops when
// QTest::currentTestFailed().

// What a sandboxed shell runs in a workspace holding listed.pub, unlisted.pub and data:
// lists its agent's keys, signs data with each key (data.sig) and prints "socket=" and its
// SSH_AUTH_SOCK.
QString agentSigningScript();
// Checks that script's output: the listed key is the only one seen and the only one that signs.
void checkListedKeyAloneSigns(const OpenSshRig &rig, const Outcome &ran);

// Makes `project` a repository holding one file, commits it through `run` (a sandboxed shell
// running the script it is given) signed by the listed key, whose public half lies in
// `keyFolder`, and checks that the host's git verifies the commit. `gitOptions`, with a
// trailing blank, go before each git command's own.
void checkSignedCommit(const OpenSshRig &rig, const QString &project, const QString &keyFolder,
                       const QString &gitOptions, const std::function<Outcome(const QString &script)> &run);

// Answers the signature questions as a presenter of the engine at `engineSocket` does
// (Studio, the TUI) while a command signs twice: `start` runs `shell` through sandboxctl
// under a policy that confirms every signature, within `timeoutMs`. Answered no, nothing is
// signed; answered yes, both are; each signature is asked.
void checkConfirmationPerSignature(const QString &engineSocket,
                                   const std::function<void(QProcess &command, const QStringList &shell)> &start,
                                   int timeoutMs);

} // namespace sandbox::test
