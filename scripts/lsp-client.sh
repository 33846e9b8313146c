#!/usr/bin/env bash
# Installs the real LSP client that lsp's tests drive `mcpdecl lsp` with:
# vscode-languageserver-protocol (with vscode-jsonrpc), the library VS
# Code's own language client is built on, pinned in
# scripts/lsp-client/package-lock.json and `npm ci`ed into
# $MCPDECL_TOOLS_DIR/lsp-client (default .tools), once per lock file, so a
# second run needs no network. The test's script, client.js, is read from
# scripts/lsp-client itself.
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS=${MCPDECL_TOOLS_DIR:-$PWD/.tools}
mkdir -p "$TOOLS"
source scripts/npm-ci.sh

npm_ci lsp-client scripts/lsp-client
echo "LSP client installed in $TOOLS/lsp-client"
