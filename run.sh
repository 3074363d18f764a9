#!/usr/bin/env bash
# Installs what is missing, builds, and starts Sandbox Studio. With no display it says
# so and runs a short sandboxed demo through sandboxctl instead.
set -euo pipefail
cd "$(dirname "$0")"

installer/install-deps.sh build

export CCACHE_DIR=${CCACHE_DIR:-$PWD/build/.ccache}
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc 2>/dev/null || echo 2)"
bin=$PWD/build/release/bin

if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
    exec "$bin/sandbox-studio" "$@"
fi

echo "No display found (neither DISPLAY nor WAYLAND_DISPLAY is set): running a sandboxed demo through sandboxctl instead."
echo
demo=$(mktemp -d "${TMPDIR:-/tmp}/sandbox-demo.XXXXXX")
trap 'rm -rf "$demo"' EXIT
cd "$demo"
ctl=("$bin/sandboxctl")

run() {
    printf '$ sandboxctl'
    for arg in "$@"; do
        case $arg in *[[:space:]]*) printf " '%s'" "$arg" ;; *) printf ' %s' "$arg" ;; esac
    done
    echo
    "${ctl[@]}" "$@" 2>&1 || echo "(exit status $?)"
    echo
}

run backends
run status
run policy show
run run -- sh -c 'echo "hello from the sandbox: uid $(id -u), workspace $PWD"; echo notes > notes.txt; ls -l notes.txt'
run run -- sh -c 'ls ~/.ssh 2>&1; cat ~/.aws/credentials 2>&1 | head -n 1'
run run -- sh -c 'touch /etc/sandbox-demo 2>/dev/null || echo "writing outside the workspace was refused"'
run run -- sh -c 'echo "processes visible: $(ls /proc | grep -c "^[0-9]")"'
run run -- bash -c '(echo > /dev/tcp/1.1.1.1/443) 2>/dev/null || echo "the network is off"'
run run --timeout 1 -- sleep 5
