#!/usr/bin/env bash
# Installs, reproducibly (npm ci from the committed lock file), the official
# MCP "everything" server that the mcp backend's tests call as a remote:
#
#   .tools/mcp-everything  @modelcontextprotocol/server-everything 2026.8.31,
#                          which serves over stdio and Streamable HTTP
#
# The Go tests (adapters/mcp) find it there (or under MCPDECL_TOOLS_DIR) and
# skip, naming this script, when it is missing; under CI they fail instead.
# The folder is reinstalled only when its package.json or package-lock.json
# changed.
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS=${MCPDECL_TOOLS_DIR:-$PWD/.tools}
mkdir -p "$TOOLS"

source scripts/npm-ci.sh

npm_ci mcp-everything testdata/mcp-everything
echo "MCP everything server installed in $TOOLS/mcp-everything"
