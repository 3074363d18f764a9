#!/usr/bin/env bash
# Builds every libFuzzer target with clang in build/fuzz (only the fuzz targets) and runs
# each for a bounded time, one per core at a time, then prints executions and crashes
# per fuzzer.
# Usage: tests/fuzz/run-fuzzers.sh [SECONDS_EACH]   (default 20)
# Exits non-zero when any fuzzer crashed, leaked, timed out or broke a protocol contract;
# the failing inputs are kept in build/fuzz/artifacts/<fuzzer>/.
set -euo pipefail

seconds=${1:-20}
if ! [[ $seconds =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: $0 [SECONDS_EACH]  (a positive whole number of seconds)" >&2
    exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$root/build/fuzz

for tool in clang clang++; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "$tool is not installed (Debian: apt-get install clang libclang-rt-14-dev)" >&2
        exit 1
    fi
done

mkdir -p "$build"
echo "-- configuring $build (clang, sanitizers, fuzzers only)"
cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DSANDBOX_BUILD_GUI=OFF -DSANDBOX_BUILD_TESTS=ON -DSANDBOX_BUILD_FUZZERS=ON \
    -DSANDBOX_WERROR=ON >"$build.configure.log" 2>&1 || {
    cat "$build.configure.log" >&2
    exit 1
}
echo "-- building the fuzz targets"
cmake --build "$build" --target sandbox_fuzzers -j "$(nproc 2>/dev/null || echo 2)"

list=$build/fuzzers.txt
if [ ! -s "$list" ]; then
    echo "no fuzzers registered ($list is empty)" >&2
    exit 1
fi

# Qt and the sanitizers: report everything, stop at the first problem.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# One fuzzer per core at a time; each writes its result row next to its log.
run_one() {
    local name=$1 binary=$2 seeds=$3 dict=$4
    local work=$build/corpus/$name # grows while fuzzing; the seed corpus stays read only
    local artifacts=$build/artifacts/$name
    local log=$build/logs/$name.log
    mkdir -p "$work" "$artifacts" "$(dirname "$log")"
    rm -f "$artifacts"/crash-* "$artifacts"/leak-* "$artifacts"/timeout-* "$artifacts"/oom-* "$log.result"
    local args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536
                -print_final_stats=1 -artifact_prefix="$artifacts/")
    [ -n "$dict" ] && args+=(-dict="$dict")
    local corpora=("$work")
    [ -n "$seeds" ] && [ -d "$seeds" ] && corpora+=("$seeds")
    local rc=0
    "$binary" "${args[@]}" "${corpora[@]}" >"$log" 2>&1 || rc=$?
    local execs
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    if [ -z "$execs" ]; then
        # A crash ends the run before the final stats; the last progress line has the count.
        execs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#' || true)
    fi
    local crashes
    crashes=$(find "$artifacts" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
    if [ "$rc" -ne 0 ] && [ "$crashes" -eq 0 ]; then
        crashes=1 # failed without leaving an input (e.g. at startup): still a failure
    fi
    local corpus
    corpus=$(find "$work" -type f | wc -l)
    echo "$name|${execs:-0}|$corpus|$crashes|$rc" >"$log.result"
}

parallel=$(nproc 2>/dev/null || echo 2)
names=()
while IFS='|' read -r name binary seeds dict; do
    [ -n "$name" ] || continue
    names+=("$name")
    while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do
        wait -n || true
    done
    echo "-- $name: ${seconds}s"
    run_one "$name" "$binary" "$seeds" "$dict" &
done <"$list"
wait

status=0
results=()
for name in "${names[@]}"; do
    log=$build/logs/$name.log
    if ! IFS='|' read -r _ execs corpus crashes rc <"$log.result"; then
        execs=0 corpus=0 crashes=1 rc=?
    fi
    results+=("$name|$execs|$corpus|$crashes")
    if [ "$crashes" -ne 0 ]; then
        status=1
        echo "   $name FAILED (exit $rc): see $log and $build/artifacts/$name/" >&2
        grep -m 20 -E 'ERROR:|runtime error|contract broken|SUMMARY' "$log" >&2 || true
    fi
done

echo
printf '%-20s %8s %14s %12s %10s\n' fuzzer seconds executions corpus crashes
for row in "${results[@]}"; do
    IFS='|' read -r name execs corpus crashes <<<"$row"
    printf '%-20s %8s %14s %12s %10s\n' "$name" "$seconds" "$execs" "$corpus" "$crashes"
done
exit $status
