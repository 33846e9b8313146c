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
sum=$(cat "$SRC/package.json" "$SRC/package-lock.json" | sha256sum | cut -d' ' -f1)
if [[ ! -f $DST/.installed || $(cat "$DST/.installed") != "$sum" || ! -d $DST/node_modules ]]; then
  rm -rf "$DST" && mkdir -p "$DST"
  cp "$SRC/package.json" "$SRC/package-lock.json" "$DST/"
  (cd "$DST" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >"$DST/npm-ci.log" 2>&1) || {
    echo "npm ci failed for the SARIF schema:" >&2
    cat "$DST/npm-ci.log" >&2
    exit 1
  }
  echo "$sum" >"$DST/.installed"
fi
echo "$DST/node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json"
