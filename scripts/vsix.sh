#!/usr/bin/env bash
# Builds the VS Code extension of editors/vscode into bin/mcpdecl-vscode.vsix
# with @vscode/vsce (pinned in its package-lock.json), and installs the
# TextMate engine (vscode-textmate, vscode-oniguruma, pinned in
# editors/vscode/grammar-test) that testkit/vscode tokenises the examples
# with. Both are `npm ci`ed into $MCPDECL_TOOLS_DIR (default .tools), once
# per lock file, so a second run needs no network.
#
# The extension is packaged from a copy in $TOOLS/vscode (its node_modules
# are there), with the JSON Schema of editors/schema copied in; the .vsix
# holds the production dependencies only (vscode-languageclient).
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS=${MCPDECL_TOOLS_DIR:-$PWD/.tools}
mkdir -p "$TOOLS" bin
source scripts/npm-ci.sh

# --ignore-scripts: vsce's optional keytar would fetch a prebuilt binary;
# packaging never uses it.
npm_ci vscode editors/vscode --ignore-scripts
npm_ci vscode-grammar editors/vscode/grammar-test

stage=$TOOLS/vscode
# The extension's own files, fresh each run (node_modules and the
# install marks stay).
rm -rf "$stage/syntaxes" "$stage/schema"
cp editors/vscode/extension.js editors/vscode/detect.js editors/vscode/language-configuration.json \
  editors/vscode/README.md editors/vscode/.vscodeignore "$stage/"
cp -r editors/vscode/syntaxes "$stage/syntaxes"
mkdir -p "$stage/schema"
cp editors/schema/mcpdecl.schema.json "$stage/schema/"

out=$PWD/bin/mcpdecl-vscode.vsix
(cd "$stage" && node_modules/.bin/vsce package --skip-license --out "$out" >"$stage/vsce.log" 2>&1) || {
  echo "vsce package failed:" >&2
  cat "$stage/vsce.log" >&2
  exit 1
}
echo "VS Code extension built: $out ($(du -k "$out" | cut -f1) KiB); grammar test tools in $TOOLS/vscode-grammar"
