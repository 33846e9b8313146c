#!/usr/bin/env bash
# Installs the official SARIF 2.1.0 JSON schema for the tests of
# `mcpdecl validate --format sarif`: the npm package @microsoft/jest-sarif
# (MIT) ships it as lib/schemas/sarif-2.1.0-rtm.5.json. The package is
# pinned by testdata/sarif/npm/package-lock.json and installed with npm ci
# into $MCPDECL_TOOLS_DIR/sarif (default .tools/sarif), once per lock.
# Prints the schema's path.
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS=${MCPDECL_TOOLS_DIR:-$PWD/.tools}
SRC=testdata/sarif/npm
DST=$TOOLS/sarif
source scripts/npm-ci.sh
npm_ci sarif "$SRC" --ignore-scripts
echo "$DST/node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json"
