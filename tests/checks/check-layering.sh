#!/usr/bin/env bash
# The layering DESIGN.md states, checked on every test run:
#  - engine/ links and includes no QtWidgets; engine/fdio/ no Qt at all;
#  - nothing outside packs/ names a contributed backend's provider (the specification
#    forbids provider-specific branches in core, protocol, daemon settings and Studio);
#  - ui/, tui/ and acp/ reach the engine only through the client API (client/) and protocol
#    objects;
#  - app/ wires: app/common/ builds and hosts the engine (core/, server/, client/, protocol/ and
#    launchers/Builtins.h); the programs (app/sandboxctl, sandboxd, studio, acp) reach it
#    through the client API (client/Client.h), protocol objects, app/common and fdio/, plus
#    the hosted engine's core/Engine.h; sandboxctl's run front (app/sandboxctl/front) is
#    plain C++ and uses only fdio/, client/ProtocolNames.h and the plain C++ of
#    launchers/auto/linux/handoff/.
set -euo pipefail
cd "$(dirname "$0")/../.."
fail=0
report() { echo "layering: $*" >&2; fail=1; }

if grep -rnE '#include <(QtWidgets/)?Q(Widget|Application|MainWindow|Dialog|PushButton)\b|Qt6::Widgets' engine; then
    report "engine/ must not use QtWidgets (lines above)"
fi
if grep -rnE '#include <Q|Qt6::' engine/fdio; then
    report "engine/fdio/ is plain C++ (the static guest helpers link it): no Qt (lines above)"
fi
if grep -rniE 'docker|podman|e2b' engine ui tui app acp; then
    report "only packs/ may name a contributed backend's provider (lines above)"
fi
if grep -rnE '#include "(core|launchers|net|server)/' ui; then
    report "ui/ must reach the engine through client/ and protocol/ only (lines above)"
fi
if grep -rnE '#include "(core|launchers|net|server)/' tui; then
    report "tui/ must reach the engine through client/ and protocol/ only (lines above)"
fi
if grep -rnE '#include "(core|launchers|net|server|common)/' acp; then
    report "acp/ (the ACP bridge) must reach the engine through client/ and protocol/ only (lines above)"
fi

# app/: every include of an engine folder that its part of app/ may not use.
engine_include='#include "(core|launchers|net|server|client|protocol|fdio)/'
handoff_plain='launchers/auto/linux/handoff/(InitConfigFormat|InitHandoff|PlanRecord|RecordedEntry|Sha256)\.h'
if grep -rnE "$engine_include" app/common \
    | grep -vE '#include "(core/([a-z]+/)?[A-Za-z]+\.h|(server|client)/[A-Za-z]+\.h|protocol/[A-Za-z]+\.h|launchers/Builtins\.h)"'; then
    report "app/common/ hosts the engine through core/, server/, protocol/ and launchers/Builtins.h only (lines above)"
fi
# The one exception: sandboxctl makes the recorder of builtin:auto's plans, which only it can
# (it knows the run's --policy), and gives it to the engine it hosts (EngineConnection.cpp,
# RunCommand.cpp; main.cpp captures the process's start for it).
if grep -rnE "$engine_include" app --exclude-dir=common --exclude-dir=front \
    | grep -vE '#include "(client/Client\.h|client/ProtocolNames\.h|protocol/[A-Za-z]+\.h|fdio/[A-Za-z]+\.h|core/Engine\.h)"' \
    | grep -vE '^app/sandboxctl/(main|RunCommand|EngineConnection)\.cpp:[0-9]+:#include "launchers/auto/linux/handoff/PlanRecorder\.h"$'; then
    report "app/ programs reach the engine through client/Client.h, protocol/, fdio/ and the hosted core/Engine.h only (lines above)"
fi
if grep -rnE '#include <Q|Qt6::' app/sandboxctl/front; then
    report "app/sandboxctl/front/ (the run front) is plain C++: no Qt (lines above)"
fi
if grep -rnE "$engine_include" app/sandboxctl/front \
    | grep -vE "#include \"(fdio/[A-Za-z]+\\.h|client/ProtocolNames\\.h|$handoff_plain)\""; then
    report "app/sandboxctl/front/ uses only fdio/, client/ProtocolNames.h and the plain C++ of launchers/auto/linux/handoff/ (lines above)"
fi
handoff=engine/launchers/auto/linux/handoff
if grep -nE '#include <Q' $handoff/{InitConfigFormat,InitHandoff,PlanRecord,RecordedEntry,Sha256}.{h,cpp}; then
    report "$handoff/: what sandbox-init and the run front compile in is plain C++ (lines above)"
fi
exit $fail
