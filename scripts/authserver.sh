#!/usr/bin/env bash
# Installs the OAuth 2.0 authorization server that the tests of package auth
# and the end-to-end tests run on 127.0.0.1 (internal/authtest starts it):
# oauth2-mock-server and a Node 22 binary, pinned by
# internal/authtest/testdata/authserver/package-lock.json, installed with
# `npm ci` into $MCPDECL_TOOLS_DIR/authserver (default .tools/authserver),
# and skipped when that exact lock is installed already.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TOOLS=${MCPDECL_TOOLS_DIR:-$ROOT/.tools}
SRC=internal/authtest/testdata/authserver
DST=$TOOLS/authserver

sum=$(cat "$SRC/package.json" "$SRC/package-lock.json" | sha256sum | cut -d' ' -f1)
if [[ -f $DST/.installed && $(cat "$DST/.installed") == "$sum" && -d $DST/node_modules ]]; then
  exit 0
fi
rm -rf "$DST" && mkdir -p "$DST"
cp "$SRC/package.json" "$SRC/package-lock.json" "$DST/"
(cd "$DST" && npm ci --no-audit --no-fund --loglevel=error >"$DST/npm-ci.log" 2>&1) || {
  echo "npm ci failed for the authorization server:" >&2
  cat "$DST/npm-ci.log" >&2
  exit 1
}
echo "$sum" >"$DST/.installed"
echo "installed the authorization server into $DST"
