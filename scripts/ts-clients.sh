#!/usr/bin/env bash
# Installs, reproducibly (npm ci from the committed lock file), the real
# TypeScript MCP clients of scripts/clients (@modelcontextprotocol/sdk
# 1.32.2, @modelcontextprotocol/client 2.4.0) into .tools/clients (or
# MCPDECL_TOOLS_DIR/clients). The Go tests that drive them
# (server/toolsets_tasks_test.go) skip without them, naming this script,
# and fail under CI; scripts/conformance.sh installs the same folder.
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS=${MCPDECL_TOOLS_DIR:-$PWD/.tools}
mkdir -p "$TOOLS"

source scripts/npm-ci.sh

npm_ci clients scripts/clients
echo "TypeScript MCP clients installed in $TOOLS/clients"
