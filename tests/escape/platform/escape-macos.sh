#!/usr/bin/env bash
# The escape suite's cases that apply to macOS, through `sandboxctl run` under builtin:auto
# with the default policy: each tries to break a promise of the policy and passes only when
# it is kept; two controls show that ordinary work still runs. Exits 1 when any case fails.
# Usage: tests/escape/platform/escape-macos.sh PATH/TO/sandboxctl
set -uo pipefail
ctl=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
failures=0
pass() { echo "ok   - $1"; }
fail() { echo "FAIL - $1: $2"; failures=$((failures + 1)); }

work=$(mktemp -d "${TMPDIR:-/tmp}/sandbox-escape.XXXXXX")
config=$(mktemp -d "${TMPDIR:-/tmp}/sandbox-escape-config.XXXXXX")
export SANDBOX_CONFIG_DIR=$config/config SANDBOX_STATE_DIR=$config/state
probe=$HOME/.ssh/sandbox-escape-probe
outside=$HOME/sandbox-escape-outside-$$
secret="escape-secret-$RANDOM$RANDOM"
mkdir -p "$HOME/.ssh"
printf '%s' "$secret" > "$probe"
trap 'rm -rf "$work" "$config" "$outside"; rm -f "$probe"' EXIT
cd "$work" && git init -q . || exit 1

"$ctl" activate builtin:auto || { echo "FAIL - builtin:auto did not activate"; exit 1; }
"$ctl" describe builtin:auto

out=$("$ctl" run -- /bin/echo hello 2>&1)
[ "$out" = hello ] && pass "a command runs and its output comes back" || fail "a command runs" "$out"

"$ctl" run -- /bin/sh -c 'echo inside > inside.txt'
[ "$(cat inside.txt 2>/dev/null)" = inside ] && pass "the workspace is writable" \
    || fail "the workspace is writable" "inside.txt was not written"

out=$("$ctl" run -- /bin/cat "$probe" 2>&1)
case "$out" in *"$secret"*) fail "a denied file stays unreadable" "its content came back" ;;
    *) pass "a denied file stays unreadable" ;; esac

"$ctl" run -- /bin/sh -c "echo x > '$outside'" >/dev/null 2>&1
[ -e "$outside" ] && fail "nothing is written outside the writable paths" "$outside exists" \
    || pass "nothing is written outside the writable paths"

"$ctl" run -- /bin/sh -c 'echo "#!/bin/sh" > .git/hooks/pre-commit' >/dev/null 2>&1
[ -e .git/hooks/pre-commit ] && fail "no git hook can be planted" ".git/hooks/pre-commit exists" \
    || pass "no git hook can be planted"

before=$(cat .git/config)
"$ctl" run -- /bin/sh -c 'printf "[core]\n\tfsmonitor = touch pwned\n" >> .git/config' >/dev/null 2>&1
[ "$(cat .git/config)" = "$before" ] && pass ".git/config stays unchanged" \
    || fail ".git/config stays unchanged" "it was changed"

if "$ctl" run -- /usr/bin/curl -sS -m 10 -o /dev/null https://example.com >/dev/null 2>&1; then
    fail "network none: no connection leaves" "curl reached https://example.com"
else
    pass "network none: no connection leaves"
fi

echo "$failures case(s) failed"
[ "$failures" -eq 0 ]
