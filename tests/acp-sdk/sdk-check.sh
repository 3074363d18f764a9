#!/usr/bin/env bash
# sandbox-acp checked from both sides with the official ACP SDK (npm package
# @agentclientprotocol/sdk, the version package-lock.json pins, installed by this script into
# MODULES, a folder of the build): an editor built on the SDK's client drives sandbox-acp, and
# the agent behind it is built on the SDK's agent side.
#   tests/acp-sdk/sdk-check.sh MODULES SANDBOX_ACP
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
modules=${1:?folder for the SDK}
bridge=${2:?the sandbox-acp program}
mkdir -p "$modules"
if ! cmp -s "$here/package-lock.json" "$modules/package-lock.json" || [ ! -d "$modules/node_modules/@agentclientprotocol/sdk" ]; then
    cp "$here/package.json" "$here/package-lock.json" "$modules/"
    (cd "$modules" && npm ci --no-audit --no-fund --no-update-notifier --loglevel=error >/dev/null)
fi
exec node "$here/sdk-editor.mjs" "$modules" "$bridge"
