#!/usr/bin/env bash
# Installs the OAuth 2.0 authorization server that the tests of package auth
# and the end-to-end tests run on 127.0.0.1 (testkit/authtest starts it):
# oauth2-mock-server and a Node 22 binary, pinned by
# testkit/authtest/testdata/authserver/package-lock.json, installed with
# `npm ci` into $MCPDECL_TOOLS_DIR/authserver (default .tools/authserver),
# and skipped when that exact lock is installed already.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TOOLS=${MCPDECL_TOOLS_DIR:-$ROOT/.tools}
SRC=testkit/authtest/testdata/authserver
DST=$TOOLS/authserver

source scripts/npm-ci.sh
npm_ci authserver "$SRC"
echo "the authorization server is installed in $DST"
