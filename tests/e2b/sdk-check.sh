#!/usr/bin/env bash
# The local E2B checked with the official JavaScript SDK (npm package e2b, installed by
# this script into MODULES, a folder of the build): tests/e2b/sdk-check.sh MODULES
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
modules=${1:?folder for the SDK}
sdk_version=2.51.0
mkdir -p "$modules"
if [ "$(node -p "try{require('$modules/node_modules/e2b/package.json').version}catch(e){''}")" != "$sdk_version" ]; then
    (cd "$modules" && { [ -f package.json ] || echo '{"private":true}' >package.json; } &&
        npm install --no-audit --no-fund --loglevel=error "e2b@$sdk_version" >/dev/null)
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/local-e2b.XXXXXX")
trap '"$here/local-e2b.sh" stop "$dir"; rm -rf "$dir"' EXIT
key="e2b_local_$RANDOM$RANDOM"
url=$("$here/local-e2b.sh" start "$dir" "$key")
E2B_API_URL=$url E2B_SANDBOX_URL=$url E2B_API_KEY=$key node "$here/sdk-check.mjs" "$modules"
