#!/usr/bin/env bash
# Starts the local E2B (local-e2b-server.mjs) on a free loopback port and prints its URL;
# `stop DIR` ends it. DIR holds its pid, log and scratch folder.
#   tests/e2b/local-e2b.sh start DIR KEY   -> prints http://127.0.0.1:PORT
#   tests/e2b/local-e2b.sh stop DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
action=${1:?start or stop}
dir=${2:?folder}
case $action in
start)
    key=${3:?API key}
    mkdir -p "$dir/root"
    node "$here/local-e2b-server.mjs" --key "$key" --root "$dir/root" >"$dir/server.log" 2>&1 &
    echo $! >"$dir/pid"
    for _ in $(seq 1 200); do
        if url=$(grep -o 'http://127.0.0.1:[0-9]*' "$dir/server.log" 2>/dev/null); then
            echo "$url"
            exit 0
        fi
        kill -0 "$(cat "$dir/pid")" 2>/dev/null || break
        sleep 0.05
    done
    echo "local-e2b.sh: the server did not start:" >&2
    cat "$dir/server.log" >&2
    exit 1
    ;;
stop)
    if [ -f "$dir/pid" ]; then
        kill "$(cat "$dir/pid")" 2>/dev/null || true
        rm -f "$dir/pid"
    fi
    ;;
*)
    echo "local-e2b.sh: unknown action $action" >&2
    exit 2
    ;;
esac
