#!/usr/bin/env bash
# Runs CMD on a private Xvfb display that has a real X11 system tray (trayer, an XEmbed
# tray host from Debian), so QSystemTrayIcon finds a tray as it would on a desktop.
# Usage: tests/gui/run-with-tray-host.sh [--tray-later] CMD [ARGS...]
# --tray-later: no tray host at the start; CMD starts one itself with the command line in
# SANDBOX_TRAY_HOST_COMMAND (as a tray host that starts after the applications of a login).
# Needs: xvfb, trayer, x11-utils (xwininfo).
set -euo pipefail
tray_later=
if [ "${1:-}" = "--tray-later" ]; then
    tray_later=1
    shift
fi
if [ $# -lt 1 ]; then
    echo "usage: $0 [--tray-later] CMD [ARGS...]" >&2
    exit 2
fi
for tool in Xvfb trayer xwininfo; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "$0: $tool is missing (Debian: apt-get install xvfb trayer x11-utils)" >&2
        exit 1
    fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/sandbox-tray.XXXXXX")
xvfb_pid=
tray_pid=
cleanup() {
    [ -n "$tray_pid" ] && kill "$tray_pid" 2>/dev/null || true
    [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# -displayfd: the server picks a free display number and writes it once it is ready.
# -noreset: without it the server resets when its last client leaves (the readiness probe
# below), and a client connecting during that reset is refused ("cannot open display").
Xvfb -displayfd 3 -noreset -screen 0 1600x1000x24 -nolisten tcp 3>"$work/display" 2>"$work/xvfb.log" &
xvfb_pid=$!
# Ready when the number is written out whole and the server answers a client.
ready=
for _ in $(seq 1 150); do
    if grep -q '^[0-9][0-9]*$' "$work/display" 2>/dev/null; then
        export DISPLAY=":$(head -n1 "$work/display")"
        if xwininfo -root >/dev/null 2>&1; then
            ready=1
            break
        fi
    fi
    sleep 0.1
done
if [ -z "$ready" ]; then
    echo "$0: Xvfb did not start:" >&2
    cat "$work/xvfb.log" >&2
    exit 1
fi

tray_command="trayer --edge top --align right --widthtype request --height 28 --SetDockType true --transparent false"
if [ -n "$tray_later" ]; then
    export QT_QPA_PLATFORM=xcb
    export SANDBOX_TRAY_HOST_COMMAND="$tray_command"
    "$@"
    exit
fi

start_tray() {
    $tray_command >"$work/trayer.log" 2>&1 &
    tray_pid=$!
}
# trayer claims _NET_SYSTEM_TRAY_S0 before it maps its panel window; the test itself
# also waits until Qt sees the tray. A tray host that could not start is started once more
# before the run is given up, with its log.
start_tray
attempts=1
tray_ready=
for _ in $(seq 1 100); do
    if xwininfo -root -tree 2>/dev/null | grep -q '"panel"'; then
        tray_ready=1
        break
    fi
    if ! kill -0 "$tray_pid" 2>/dev/null; then
        if [ "$attempts" -ge 2 ]; then
            echo "$0: trayer exited:" >&2
            cat "$work/trayer.log" >&2
            exit 1
        fi
        attempts=$((attempts + 1))
        start_tray
    fi
    sleep 0.1
done
if [ -z "$tray_ready" ]; then
    echo "$0: trayer did not map its panel:" >&2
    cat "$work/trayer.log" >&2
    exit 1
fi

export QT_QPA_PLATFORM=xcb
"$@"
