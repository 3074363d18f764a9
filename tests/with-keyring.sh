#!/usr/bin/env bash
# Runs a command inside a private D-Bus session bus with a real, unlocked gnome-keyring
# (the Secret Service QtKeychain talks to), so keychain tests never touch the user's own.
# Usage: tests/with-keyring.sh CMD [ARGS...]
set -euo pipefail
if [ "${SANDBOX_KEYRING_READY:-}" = 1 ]; then
    exec "$@"
fi
# Not under /tmp: the engine's runtime directory is in it ($XDG_RUNTIME_DIR below), and a
# tier 2 sandbox shares the host's /tmp, which the default policy makes writable (the
# engine refuses to run a command whose writable paths reach its runtime directory).
home=$(mktemp -d /var/tmp/sandbox-keyring.XXXXXX)
trap 'rm -rf "$home"' EXIT
export SANDBOX_KEYRING_HOME="$home"
# A throwaway keyring's password; tests/keyring-lock.py unlocks it again with this.
export SANDBOX_KEYRING_PASSWORD="test-keyring-password"
dbus-run-session -- bash -c '
    set -euo pipefail
    export HOME="$SANDBOX_KEYRING_HOME" XDG_DATA_HOME="$SANDBOX_KEYRING_HOME/data" \
           XDG_RUNTIME_DIR="$SANDBOX_KEYRING_HOME/run"
    mkdir -p "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR"; chmod 700 "$XDG_RUNTIME_DIR"
    eval "$(printf "%s" "$SANDBOX_KEYRING_PASSWORD" | gnome-keyring-daemon --unlock --components=secrets)"
    # The daemon registers on the bus asynchronously: a client that asks before then makes
    # D-Bus activate a second, locked keyring. Wait until the unlocked one answers; on a
    # loaded machine that can take seconds, and running on without it fails later and
    # obscurely, so a keyring that never answers ends the run here.
    deadline=$((SECONDS + 60))
    until dbus-send --session --print-reply --dest=org.freedesktop.DBus / \
              org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q "boolean true" &&
          dbus-send --session --print-reply --dest=org.freedesktop.secrets /org/freedesktop/secrets \
              org.freedesktop.DBus.Properties.Get string:org.freedesktop.Secret.Service string:Collections \
              2>/dev/null | grep -q "collection/login"; do
        if [ "$SECONDS" -ge "$deadline" ]; then
            echo "with-keyring.sh: the unlocked gnome-keyring did not answer on the session bus within 60 s" >&2
            exit 1
        fi
        sleep 0.05
    done
    export SANDBOX_KEYRING_READY=1
    exec "$@"' bash "$@"
