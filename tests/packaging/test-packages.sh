#!/usr/bin/env bash
# Builds the .deb and .rpm packages from a configured build tree, lints them, installs the
# .deb on this machine and uses it from the installed paths, then purges it and checks
# that nothing but the user's own data is left. Run by test.sh after ctest (the package
# is installed into /usr, never into the build tree the other tests use); it needs root
# and a throwaway machine. The package is purged on exit, whatever happened.
# Usage: tests/packaging/test-packages.sh [build-dir]   (default build/ci)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
build=$(realpath "${1:-build/ci}")
out=$build/package-files
failures=0

step() { echo "-- $*"; }
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}
check() { # check DESCRIPTION COMMAND...
    local what=$1
    shift
    if "$@"; then echo "ok: $what"; else fail "$what"; fi
}

if [ "$(id -u)" -ne 0 ]; then
    echo "test-packages.sh installs a package system-wide: run it as root on a throwaway machine" >&2
    exit 1
fi
if dpkg-query -W -f='${Status}' sandbox-studio 2>/dev/null | grep -q 'ok installed'; then
    echo "sandbox-studio is already installed on this machine; refusing to replace it" >&2
    exit 1
fi

step "cpack (DEB, RPM) from $build"
rm -rf "$out"
cpack --config "$build/CPackConfig.cmake" -G "DEB;RPM" -B "$out" >"$build/cpack.log" 2>&1 || {
    cat "$build/cpack.log" >&2
    exit 1
}
mapfile -t debs < <(ls "$out"/*.deb)
mapfile -t rpms < <(ls "$out"/*.rpm)
main_deb=$(ls "$out"/sandbox-studio_*.deb)
echo "built: $(cd "$out" && ls ./*.deb ./*.rpm | tr '\n' ' ')"

work=$(mktemp -d)
cleanup() {
    local status=$?
    if dpkg-query -W -f='${Status}' sandbox-studio 2>/dev/null | grep -q 'installed'; then
        echo "-- removing the package (exit trap)"
        mapfile -t installed < <(dpkg-query -W -f='${Package}\n' 'sandbox-studio*' 2>/dev/null || true)
        DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq "${installed[@]}" >/dev/null 2>&1 \
            || dpkg --purge "${installed[@]}" || true
    fi
    if [ -n "${studio_pid:-}" ]; then kill "$studio_pid" 2>/dev/null || true; fi
    rm -rf "$work"
    exit $status
}
trap cleanup EXIT

step "package contents"
dpkg-deb -x "$main_deb" "$work/deb"
for path in usr/bin/sandboxctl usr/bin/sandboxctl-full usr/bin/sandboxd usr/bin/sandbox-studio usr/libexec/sandbox-studio/sandbox-init \
    usr/share/applications/dev.sandbox_studio.SandboxStudio.desktop \
    usr/share/metainfo/dev.sandbox_studio.SandboxStudio.metainfo.xml \
    usr/share/icons/hicolor/scalable/apps/sandbox-studio.svg usr/share/icons/hicolor/256x256/apps/sandbox-studio.png \
    usr/lib/systemd/user/sandboxd.service usr/share/sandbox-studio/apparmor/sandbox-studio-init \
    usr/lib/sandbox-studio/libsandbox-launcher-api.so.1 usr/lib/sandbox-studio/libsandbox-keychain.so.1 usr/lib/sandbox-studio/libsandbox-digest.so.1 usr/share/man/man1/sandboxctl.1.gz \
    usr/share/bash-completion/completions/sandboxctl usr/share/zsh/vendor-completions/_sandboxctl \
    usr/share/fish/vendor_completions.d/sandboxctl.fish; do
    check "the .deb holds /$path" test -e "$work/deb/$path"
done
check "the packaged bash completion offers every command" bash -c \
    "source '$work/deb/usr/share/bash-completion/completions/sandboxctl'; COMP_WORDS=(sandboxctl ''); COMP_CWORD=1;
     _sandboxctl; for c in backends describe settings secret activate policy run ps kill events packs status tui; do
     [[ \" \${COMPREPLY[*]} \" == *\" \$c \"* ]] || exit 1; done"
check "the packaged manual lists every command" sh -c \
    "for c in backends describe settings secret activate policy run ps kill events packs status tui completion; do
     zcat '$work/deb/usr/share/man/man1/sandboxctl.1.gz' | grep -q \"^\\.B[RI]* \\\"*\$c\" || exit 1; done"
for binary in usr/bin/sandboxctl usr/bin/sandboxctl-full usr/bin/sandboxd usr/bin/sandbox-studio usr/libexec/sandbox-studio/sandbox-init; do
    check "/$binary is stripped" sh -c "file -L '$work/deb/$binary' | grep -q ', stripped'"
done
depends=$(dpkg-deb -f "$main_deb" Depends)
echo "Depends: $depends"
check "dependencies are computed (Qt and libc named)" sh -c "echo '$depends' | grep -q libqt6 && echo '$depends' | grep -q libc6"
check "the unit starts the installed engine" grep -qx 'ExecStart=/usr/bin/sandboxd' "$work/deb/usr/lib/systemd/user/sandboxd.service"
check "the AppArmor profile attaches to the installed helper and grants userns" sh -c \
    "grep -q '^profile sandbox-studio-init /usr/libexec/sandbox-studio/sandbox-init flags=(unconfined) {' \
     '$work/deb/usr/share/sandbox-studio/apparmor/sandbox-studio-init' \
     && grep -qx '  userns,' '$work/deb/usr/share/sandbox-studio/apparmor/sandbox-studio-init'"
for rpm_file in "${rpms[@]}"; do
    check "$(basename "$rpm_file") is a readable rpm" rpm -qp --nosignature "$rpm_file" >/dev/null
done
main_rpm=$(ls "$out"/sandbox-studio-[0-9]*.rpm)
check "the .rpm holds the helper" sh -c "rpm -qpl --nosignature '$main_rpm' | grep -qx /usr/libexec/sandbox-studio/sandbox-init"
check "the .rpm requires computed libraries" sh -c "rpm -qpR --nosignature '$main_rpm' | grep -q 'libQt6Core.so.6'"
check "the .rpm loads the AppArmor profile after install" sh -c \
    "rpm -qp --scripts --nosignature '$main_rpm' | grep -q 'apparmor-profile install'"

step "validators"
check "desktop-file-validate" desktop-file-validate "$work/deb/usr/share/applications/dev.sandbox_studio.SandboxStudio.desktop"
check "appstreamcli validate" appstreamcli validate --no-net \
    "$work/deb/usr/share/metainfo/dev.sandbox_studio.SandboxStudio.metainfo.xml"
# The package ships its overrides, each with its reason (installer/linux/lintian-overrides).
check "lintian" lintian --fail-on error,warning "${debs[@]}"

step "install $(basename "$main_deb") (and every add-on package)"
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${debs[@]}" >"$work/install.log" 2>&1 \
    || { cat "$work/install.log" >&2; fail "apt-get install"; exit 1; }
mapfile -t files < <(dpkg-query -L $(dpkg-query -W -f='${Package} ' 'sandbox-studio*') | sort -u)

# The user's own data lives in a private home; nothing of the build tree is on PATH.
export HOME=$work/home XDG_CONFIG_HOME=$work/home/.config XDG_DATA_HOME=$work/home/.local/share
export XDG_RUNTIME_DIR=$work/run
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" "$work/workspace"
chmod 700 "$XDG_RUNTIME_DIR"
unset SANDBOX_INIT_PATH
export PATH=/usr/sbin:/usr/bin:/sbin:/bin

step "installed: sandboxctl backends"
backends=$(cd "$work/workspace" && /usr/bin/sandboxctl backends 2>&1) || fail "sandboxctl backends: $backends"
echo "$backends"
check "builtin:auto is listed and usable" sh -c "echo \"\$0\" | grep 'builtin:auto' | grep -qv unavailable" "$backends"
describe=$(/usr/bin/sandboxctl describe builtin:auto 2>&1) || fail "sandboxctl describe: $describe"

step "installed: a sandboxed run"
out_run=$(cd "$work/workspace" && /usr/bin/sandboxctl run -- /bin/sh -c 'echo confined > made-inside; tr "\0" " " </proc/1/cmdline; echo; touch /usr/made-outside' 2>&1) && status=0 || status=$?
echo "$out_run"
check "the command ran and wrote into the workspace" grep -qx confined "$work/workspace/made-inside"
check "the command could not write outside the workspace (status $status)" sh -c "[ $status -ne 0 ] && [ ! -e /usr/made-outside ]"
if echo "$describe" | grep -q 'mount namespace'; then
    check "tier 1 runs under the installed helper" sh -c "echo \"\$0\" | grep -q '^/usr/libexec/sandbox-studio/sandbox-init'" "$out_run"
fi
if [ "$(cat /proc/sys/kernel/apparmor_restrict_unprivileged_userns 2>/dev/null)" = 1 ]; then
    check "AppArmor restricts user namespaces: the profile is loaded" grep -q '^sandbox-studio-init ' \
        /sys/kernel/security/apparmor/profiles
    check "AppArmor restricts user namespaces: auto reached tier 1" sh -c "echo \"\$0\" | grep -q 'mount namespace'" "$describe"
else
    echo "(AppArmor does not restrict user namespaces here: the profile is shipped but not installed)"
    check "no AppArmor profile is put in place where it is not needed" test ! -e /etc/apparmor.d/sandbox-studio-init
fi

step "installed: sandbox-studio starts (offscreen) and quits on SIGTERM"
QT_QPA_PLATFORM=offscreen /usr/bin/sandbox-studio >"$work/studio.log" 2>&1 &
studio_pid=$!
# sandbox-studio hosts the engine: its socket appears once start-up got through.
# sandboxctl below reaches that engine, so it proves the window's engine is serving.
# Polled with a bound (one minute), not timed: it stops at the socket or at an exit.
for _ in $(seq 300); do
    [ -S "$XDG_RUNTIME_DIR/sandbox-studio/engine.sock" ] && break
    kill -0 "$studio_pid" 2>/dev/null || break
    sleep 0.2
done
check "sandbox-studio is running" kill -0 "$studio_pid"
check "sandboxctl reaches Studio's engine" sh -c "/usr/bin/sandboxctl backends | grep -q builtin:auto"
kill -TERM "$studio_pid"
studio_status=0
wait "$studio_pid" || studio_status=$?
studio_pid=
check "sandbox-studio quit cleanly on SIGTERM (status $studio_status)" test "$studio_status" -eq 0
[ "$studio_status" -eq 0 ] || cat "$work/studio.log" >&2

step "installed: the Power Pack package"
pack_dir=/usr/lib/sandbox-studio/packs/power-pack
if [ -d "$root/packs/power" ]; then
    check "sandbox-studio-power-pack is its own package" sh -c "dpkg-query -W sandbox-studio-power-pack >/dev/null"
    check "sandbox-studio does not hold the pack" sh -c "! dpkg-query -L sandbox-studio | grep -q '/packs/power-pack'"
    check "the user installs the packaged pack" /usr/bin/sandboxctl packs install "$pack_dir"
    check "the pack's backend is listed" sh -c "/usr/bin/sandboxctl backends | grep -q 'atom-pack:power-pack:'"
    # The keychain library is opened only when a secret is touched: it must be installed.
    # (The private keyring session has a home of its own; the user's data stays where it is.)
    check "the installed sandboxctl keeps a secret in the OS keychain" "$root/tests/with-keyring.sh" sh -c \
        "export HOME='$HOME' XDG_DATA_HOME='$XDG_DATA_HOME' XDG_RUNTIME_DIR='$XDG_RUNTIME_DIR' &&
         printf 'e2b_package_check\n' | /usr/bin/sandboxctl secret set atom-pack:power-pack:e2b apiKey &&
         /usr/bin/sandboxctl settings get atom-pack:power-pack:e2b | grep -q configured"
fi

step "upgrade over the installed version keeps the user's settings, packs and backend"
check "a setting is changed" /usr/bin/sandboxctl settings set builtin:auto tier=landlock-seccomp
before_settings=$(/usr/bin/sandboxctl settings get builtin:auto 2>&1)
before_backends=$(/usr/bin/sandboxctl backends 2>&1)
state() { (cd "$HOME" && find . -type f ! -path './run/*' -print0 | sort -z | xargs -0 sha256sum); }
before_files=$(state)
# The newer version: the same packages with the next Debian revision.
newer=()
mkdir -p "$work/repack"
for deb in "${debs[@]}"; do
    dir=$work/repack/$(basename "$deb" .deb)
    dpkg-deb -R "$deb" "$dir"
    sed -i 's/0\.1\.0-1/0.1.0-2/g' "$dir/DEBIAN/control"
    dpkg-deb -b --root-owner-group "$dir" "$work/repack/$(basename "$deb" | sed 's/0\.1\.0-1/0.1.0-2/')" >/dev/null
    newer+=("$work/repack/$(basename "$deb" | sed 's/0\.1\.0-1/0.1.0-2/')")
done
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${newer[@]}" >"$work/upgrade.log" 2>&1 \
    || { cat "$work/upgrade.log" >&2; fail "apt-get install (upgrade)"; }
check "the newer version is installed" sh -c "dpkg-query -W -f='\${Version}' sandbox-studio | grep -qx 0.1.0-2"
check "the user's files are unchanged by the upgrade" test "$before_files" = "$(state)"
check "the setting is kept" test "$before_settings" = "$(/usr/bin/sandboxctl settings get builtin:auto 2>&1)"
check "the backends, the active one and the packs are kept" test "$before_backends" = "$(/usr/bin/sandboxctl backends 2>&1)"

step "purge"
mapfile -t installed < <(dpkg-query -W -f='${Package}\n' 'sandbox-studio*')
DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq "${installed[@]}" >"$work/purge.log" 2>&1 \
    || { cat "$work/purge.log" >&2; fail "apt-get purge"; }
left=()
for f in "${files[@]}"; do
    if [ -e "$f" ] && [ ! -d "$f" ]; then left+=("$f"); fi
done
check "no packaged file is left (${left[*]:-none})" test ${#left[@]} -eq 0
check "no AppArmor profile is left" test ! -e /etc/apparmor.d/sandbox-studio-init
check "dpkg knows no sandbox-studio package" sh -c "! dpkg-query -W 'sandbox-studio*' 2>/dev/null | grep -q ."
check "the user's own data is kept" test -f "$work/workspace/made-inside"
check "the user's settings are kept" test -n "$(ls -A "$XDG_CONFIG_HOME" 2>/dev/null)"

if [ $failures -ne 0 ]; then
    echo "test-packages.sh: $failures check(s) failed"
    exit 1
fi
echo "test-packages.sh: all checks passed"
