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

run() { echo "\$ sandboxctl $*"; "${ctl[@]}" "$@" || echo "(exit status $?)"; echo; }

run backends
run status
run policy show
run run -- sh -c 'echo "hello from $(uname -n), I am uid $(id -u)"; echo notes > notes.txt; ls -l'
run run -- sh -c 'cat ~/.ssh/id_rsa ~/.ssh/config 2>&1 | head -n 2; ls ~/.ssh 2>&1 | head -n 1'
run run -- sh -c 'echo x > /etc/sandbox-demo 2>&1 || echo "writing /etc refused"'
run run -- sh -c 'exec 3<>/dev/tcp/127.0.0.1/22 2>&1 || echo "network refused"' 
run run --timeout 1 -- sleep 5
