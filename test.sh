#!/usr/bin/env bash
# Installs what is missing, builds with warnings as errors, and runs every test:
# unit, integration, escape, GUI (offscreen and under Xvfb with a real tray host),
# the .deb/.rpm packages (built, linted, installed, used, purged), the fuzzers for a
# bounded time, and the benchmark (which prints, never fails on time).
# Environment: SANDBOX_FUZZ_SECONDS (default 12 per fuzzer), SANDBOX_SKIP_FUZZ=1,
#              SANDBOX_SKIP_BENCH=1, SANDBOX_SKIP_PACKAGES=1, CTEST_ARGS (extra ctest arguments).
set -euo pipefail
cd "$(dirname "$0")"
root=$PWD

started=$SECONDS
# Each phase's heading says when it began, so a slow phase shows in any log.
phase() { echo "== $1 (at $((SECONDS - started)) s)"; }

installer/install-deps.sh test

export CCACHE_DIR=${CCACHE_DIR:-$root/build/.ccache}
jobs=$(nproc 2>/dev/null || echo 2)

phase configure
cmake --preset ci >/dev/null
phase build
cmake --build --preset ci -j "$jobs"

phase tests
status=0
# The Docker backend's runtime: Podman's Docker-compatible service on a private socket,
# storage and configuration, with a locally imported image; stopped when this script ends.
podman_dir=$(mktemp -d "${TMPDIR:-/tmp}/sandbox-podman.XXXXXX")
trap 'tests/integration/podman-runtime.sh stop "$podman_dir" || true' EXIT
export SANDBOX_REQUIRE_DOCKER=1 # the Docker tests fail rather than skip without it
export SANDBOX_REQUIRE_WINE=1 # so do sandbox-init.exe's tests without mingw-w64 or Wine
if runtime=$(tests/integration/podman-runtime.sh start "$podman_dir"); then
    export $runtime
else
    echo "test.sh: the Podman runtime did not start; the Docker tests will fail"
fi
# One test per core at a time (the ones that boot QEMU or use the Podman service
# take turns: RESOURCE_LOCK). Each keychain test starts its own private D-Bus session with
# an unlocked gnome-keyring (tests/with-keyring.sh, KEYRING in cmake/Testing.cmake), so
# tests running at once never share secrets; without a session address no other test can
# reach the user's own keychain.
ctest_log=build/ci/ctest-summary.log
env -u DBUS_SESSION_BUS_ADDRESS ctest --test-dir build/ci --output-on-failure --label-exclude bench \
    --timeout 600 -j "$jobs" ${CTEST_ARGS:-} 2>&1 | tee "$ctest_log" || true
if ! grep -q '^100% tests passed' "$ctest_log"; then
    status=1
fi

# After ctest, so installing the package into /usr cannot disturb the tests that run from
# the build tree; the script purges the package on exit, whatever happened.
if [ "${SANDBOX_SKIP_PACKAGES:-0}" != 1 ]; then
    phase "packages (build, lint, install, use, purge)"
    tests/packaging/test-packages.sh build/ci || status=1
fi

if [ "${SANDBOX_SKIP_FUZZ:-0}" != 1 ] && [ -x tests/fuzz/run-fuzzers.sh ]; then
    phase "fuzzers (${SANDBOX_FUZZ_SECONDS:-12}s each)"
    tests/fuzz/run-fuzzers.sh "${SANDBOX_FUZZ_SECONDS:-12}" || status=1
fi

if [ "${SANDBOX_SKIP_BENCH:-0}" != 1 ]; then
    phase "benchmarks (figures only)"
    build/ci/bin/bench_spawn || echo "(the benchmark could not run: status $?)"
    build/ci/bin/bench_filework || echo "(the file-work benchmark could not run: status $?)"
    build/ci/bin/bench_sandboxctl || echo "(the sandboxctl benchmark could not run: status $?)"
    build/ci/bin/bench_docker || echo "(the Docker benchmark could not run: status $?)"
    build/ci/bin/bench_docker_remote || echo "(the remote Docker benchmark could not run: status $?)"
    build/ci/bin/bench_credentials || echo "(the credential injection benchmark could not run: status $?)"
    build/ci/bin/bench_sshagent || echo "(the SSH agent benchmark could not run: status $?)"
    if [ -x build/ci/bin/bench_vm ]; then
        build/ci/bin/bench_vm || echo "(the VM benchmark could not run: status $?)"
    fi
    build/ci/bin/bench_e2b || echo "(the E2B benchmark could not run: status $?)"
fi

phase summary
grep -E '^[0-9]+% tests passed' "$ctest_log" || echo "ctest did not finish"
if [ $status -ne 0 ]; then
    echo "test.sh: FAILED (see above)"
fi
exit $status
