#!/usr/bin/env bash
# Builds the app pages of the examples: each examples/*.src.html is written
# as examples/*.html (gitignored), one self-contained file with its scripts
# bundled and inlined by esbuild, the MCP Apps SDK
# (@modelcontextprotocol/ext-apps) included, so the page loads nothing.
#
# The packages are pinned by scripts/apps/package-lock.json and installed
# with `npm ci` into $MCPDECL_TOOLS_DIR/apps (default .tools/apps), once per
# lock. The browser test uses the same folder (scripts/browser.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS=${MCPDECL_TOOLS_DIR:-$PWD/.tools}
mkdir -p "$TOOLS"
source scripts/npm-ci.sh
npm_ci apps scripts/apps
node scripts/apps/build.mjs "$TOOLS/apps/node_modules" examples
