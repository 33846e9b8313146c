#!/usr/bin/env bash
# Installs the MCP Apps extension's JSON schema for the tests that check
# the _meta.ui objects the server sends: the npm package
# @modelcontextprotocol/ext-apps ships it as dist/src/generated/schema.json
# ($defs McpUiToolMeta, McpUiResourceMeta, ...). The package is pinned by
# testdata/ext-apps/npm/package-lock.json and installed with npm ci into
# $MCPDECL_TOOLS_DIR/ext-apps (default .tools/ext-apps), once per lock;
# its peer dependencies (the SDK, React) are not needed for the schema and
# are not installed. Prints the schema's path.
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS=${MCPDECL_TOOLS_DIR:-$PWD/.tools}
SRC=testdata/ext-apps/npm
DST=$TOOLS/ext-apps
source scripts/npm-ci.sh
npm_ci ext-apps "$SRC" --ignore-scripts --legacy-peer-deps
echo "$DST/node_modules/@modelcontextprotocol/ext-apps/dist/src/generated/schema.json"
