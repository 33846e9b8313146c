#!/usr/bin/env bash
# Measures mcpdecl on a generated 10,000-tool config shaped like an OpenAPI
# import (internal/largecfg), as whole processes:
#   - validate, with and without the lint rules;
#   - serve --http: the time to the first tools/list answered, the CPU
#     spent by then, and the resident memory while serving;
#   - a reload (SIGHUP) of the served config: its peak resident memory,
#     against the first load's (the kernel's high-water mark, reset
#     before the reload).
# Each figure is the median of ROUNDS runs (default 3), with wall time, CPU
# time (user+sys) and peak RSS. The cores of a shared machine are noisy:
# read CPU time first. With BASE=<git revision>, the same is measured for
# that revision in the same run, alternating, so the two compare.
#
#   scripts/bench-large.sh                 # this checkout
#   BASE=main N=10000 scripts/bench-large.sh
set -euo pipefail
cd "$(dirname "$0")/.."
n=${N:-10000}
rounds=${ROUNDS:-3}
tmp=$(mktemp -d)
trap 'pkill -f "$tmp/" 2>/dev/null || true; git worktree remove --force "$tmp/base" 2>/dev/null || true; rm -rf "$tmp"' EXIT
go build -o "$tmp/head" ./cmd/mcpdecl
go run ./internal/largecfg/gen "$n" > "$tmp/large.hcl"
bins=(head)
if [[ -n "${BASE:-}" ]]; then
  git worktree add -q --detach "$tmp/base" "$BASE"
  (cd "$tmp/base" && go build -o "$tmp/base.bin" ./cmd/mcpdecl)
  bins=(base head)
fi
bin() { [[ $1 == head ]] && echo "$tmp/head" || echo "$tmp/base.bin"; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# run_validate BIN ARGS...: prints "wall_ms cpu_ms rss_mb"
run_validate() {
  local b=$1; shift
  /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$(bin "$b")" validate "$@" "$tmp/large.hcl" >/dev/null 2>&1 || true
  awk '{printf "%d %d %d\n", $1*1000, ($2+$3)*1000, $4/1024}' "$tmp/time"
}

# run_serve BIN: prints "ready_ms cpu_ms_at_ready rss_mb_serving hwm_mb reload_hwm_mb"
run_serve() {
  local b=$1 port
  port=$(( 20000 + RANDOM % 20000 ))
  local start; start=$(date +%s%N)
  "$(bin "$b")" serve --http "127.0.0.1:$port" "$tmp/large.hcl" >/dev/null 2>"$tmp/serve.log" &
  local pid=$!
  local body='{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}'
  until curl -sf -o /dev/null -X POST "http://127.0.0.1:$port/mcp" -H 'content-type: application/json' \
      -H 'accept: application/json, text/event-stream' -H 'MCP-Protocol-Version: 2026-07-28' \
      -H 'Mcp-Method: tools/list' -d "$body"; do
    kill -0 "$pid" 2>/dev/null || { echo "serve exited" >&2; return 1; }
    sleep 0.05
  done
  local ready=$(( ($(date +%s%N) - start) / 1000000 ))
  local ticks; ticks=$(awk '{print $14+$15}' "/proc/$pid/stat")
  sleep 1
  local rss hwm
  rss=$(awk '/VmRSS/ {print int($2/1024)}' "/proc/$pid/status")
  hwm=$(awk '/VmHWM/ {print int($2/1024)}' "/proc/$pid/status")
  echo 5 > "/proc/$pid/clear_refs" # VmHWM starts again from VmRSS
  kill -HUP "$pid"
  until grep -q 'configuration reloaded' "$tmp/serve.log"; do
    kill -0 "$pid" 2>/dev/null || { echo "serve exited" >&2; return 1; }
    sleep 0.05
  done
  local reload; reload=$(awk '/VmHWM/ {print int($2/1024)}' "/proc/$pid/status")
  kill "$pid"; wait "$pid" 2>/dev/null || true
  echo "$ready $(( ticks * 1000 / $(getconf CLK_TCK) )) $rss $hwm $reload"
}

declare -A out
for _ in $(seq "$rounds"); do
  for b in "${bins[@]}"; do
    out[$b.val]+="$(run_validate "$b")"$'\n'
    out[$b.nolint]+="$(run_validate "$b" --no-lint)"$'\n'
    out[$b.serve]+="$(run_serve "$b")"$'\n'
  done
done
col() { printf '%s' "$1" | awk -v c="$2" 'NF {print $c}' | median; }
echo "config: $n tools, $(( $(wc -c < "$tmp/large.hcl") / 1024 )) KiB; medians of $rounds rounds"
for b in "${bins[@]}"; do
  v=${out[$b.val]} nl=${out[$b.nolint]} s=${out[$b.serve]}
  echo "[$b]"
  echo "  validate:            $(col "$v" 1) ms wall, $(col "$v" 2) ms CPU, $(col "$v" 3) MiB peak   (target ≤ 1500 ms, ≤ 300 MiB)"
  echo "  validate --no-lint:  $(col "$nl" 1) ms wall, $(col "$nl" 2) ms CPU, $(col "$nl" 3) MiB peak"
  echo "  serve, first list:   $(col "$s" 1) ms wall, $(col "$s" 2) ms CPU   (target ≤ 1500 ms)"
  echo "  serving:             $(col "$s" 3) MiB resident, $(col "$s" 4) MiB peak   (target ≤ 200 MiB)"
  echo "  reload (SIGHUP):     $(col "$s" 5) MiB peak   (target: about the first load's peak)"
done
