#!/usr/bin/env bash
# The layering DESIGN.md states, checked on every test run:
#  - engine/ links and includes no QtWidgets; engine/fdio/ no Qt at all;
#  - nothing outside packs/ names a contributed backend's provider (the specification
#    forbids provider-specific branches in core, protocol, daemon settings and Studio);
#  - ui/, tui/ and acp/ reach the engine only through the client API and protocol objects.
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
if grep -rnE '#include "(core|launchers|net)/' ui; then
    report "ui/ must reach the engine through server/Client.h and protocol/ only (lines above)"
fi
if grep -rnE '#include "(core|launchers|net)/' tui; then
    report "tui/ must reach the engine through server/Client.h and protocol/ only (lines above)"
fi
if grep -rnE '#include "(core|launchers|net|common)/' acp; then
    report "acp/ (the ACP bridge) must reach the engine through server/Client.h and protocol/ only (lines above)"
fi
exit $fail
