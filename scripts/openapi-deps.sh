#!/usr/bin/env bash
# Installs, reproducibly (npm ci from committed lock files), the npm
# packages the openapi importer's tests use, into the tools cache:
#
#   .tools/openapi-specs  @readme/oas-examples 8.2.2 and @octokit/openapi
#                         23.0.2: real OpenAPI 2.0, 3.0 and 3.1 documents
#   .tools/openapi-prism  @stoplight/prism-cli 5.16.0: a mock server that
#                         answers as a document describes
#
# The Go tests find them there (or under MCPDECL_TOOLS_DIR) and skip, naming
# this script, when they are missing. A folder is reinstalled only when its
# package.json or package-lock.json changed.
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS=${MCPDECL_TOOLS_DIR:-$PWD/.tools}
mkdir -p "$TOOLS"

source scripts/npm-ci.sh

npm_ci openapi-specs testdata/openapi/npm/specs &
specs=$!
npm_ci openapi-prism testdata/openapi/npm/prism &
prism=$!
wait "$specs"
wait "$prism"
echo "openapi test packages installed in $TOOLS"
