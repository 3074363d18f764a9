#!/usr/bin/env bash
# Every C++ source of ours is clang-format clean (.clang-format at the top).
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v clang-format >/dev/null 2>&1; then
    echo "clang-format is not installed (Debian: apt-get install clang-format)" >&2
    exit 1
fi
mapfile -t files < <(git ls-files -- '*.cpp' '*.h' '*.c')
clang-format --dry-run -Werror "${files[@]}"
echo "clang-format: ${#files[@]} files clean"
