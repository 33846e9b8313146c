#!/usr/bin/env bash
# Measures a tools/call served over loopback, per call, as whole processes:
# mcpdecl serve --http against a hand-written net/http server doing the
# same job without any MCP checks (internal/loopbench's bare peers), for
# three jobs (the configs are in scripts/testdata/loopback):
#   echo - the answer built from the argument, no backend;
#   rest - one GET of a REST backend on loopback (a keep-alive client);
#   sql  - one point read of a read-only SQLite database.
# Each server is loaded by C concurrent keep-alive clients (default 8)
# for D seconds (default 5) with MCP 2026-07-28 calls, every answer
# checked. Measured: calls/s, the server process's CPU per call (utime +
# stime from /proc/PID/stat, before and after the load; the load
# generator's and the REST backend's own CPU not counted), its ratio to
# the hand-written server's in the same round, and the server's peak
# resident memory (VmHWM). Targets alternate within each of ROUNDS rounds
# (default 3); medians are printed. On a shared machine read CPU per call,
# not calls/s. With BASE=<git revision>, that revision's mcpdecl is
# measured too, in the same rounds.
#
#   scripts/bench-loopback.sh
#   BASE=main ROUNDS=5 D=10 scripts/bench-loopback.sh
#   JOBS=echo scripts/bench-loopback.sh
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-3}
secs=${D:-5}
workers=${C:-8}
read -r -a jobs <<< "${JOBS:-echo rest sql}"
configs=scripts/testdata/loopback
for job in "${jobs[@]}"; do
  [[ -f "$configs/$job.hcl" ]] || { echo "JOBS: no job $job; the jobs are echo, rest and sql" >&2; exit 2; }
done
tmp=$(mktemp -d)
pids=() # the backend's; the server running now is in $tmp/server.pid (run is in a subshell)
cleanup() {
  if [[ -f "$tmp/server.pid" ]]; then pids+=("$(cat "$tmp/server.pid")"); fi
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  if [[ -d "$tmp/base" ]]; then git worktree remove --force "$tmp/base" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
go build -o "$tmp/mcpdecl" ./cmd/mcpdecl
go build -o "$tmp/loopbench" ./internal/loopbench
targets=(bare mcpdecl)
if [[ -n "${BASE:-}" ]]; then
  git worktree add -q --detach "$tmp/base" "$BASE"
  (cd "$tmp/base" && go build -o "$tmp/base.bin" ./cmd/mcpdecl)
  targets=(bare base mcpdecl)
fi
lb=$tmp/loopbench
port() { echo $(( 20000 + RANDOM % 20000 )); }

"$lb" seed "$tmp/items.db"
backend_addr=127.0.0.1:$(port)
"$lb" backend "$backend_addr" & pids+=($!)
until curl -sf -o /dev/null "http://$backend_addr/items/1"; do sleep 0.05; done

# start TARGET JOB ADDR: starts the server in the background ($! is its pid).
start() {
  local target=$1 job=$2 addr=$3 vars=()
  case $job in
    rest) vars=(--var "backend_url=http://$backend_addr") ;;
    sql) vars=(--var "db=$tmp/items.db") ;;
  esac
  case $target in
    bare) "$lb" bare -job "$job" -addr "$addr" -backend "http://$backend_addr" -db "$tmp/items.db" 2>>"$tmp/serve.log" & ;;
    base) "$tmp/base.bin" serve --http "$addr" "${vars[@]}" "$configs/$job.hcl" 2>>"$tmp/serve.log" & ;;
    mcpdecl) "$tmp/mcpdecl" serve --http "$addr" "${vars[@]}" "$configs/$job.hcl" 2>>"$tmp/serve.log" & ;;
  esac
}

# run TARGET JOB: prints "calls_per_s cpu_us_per_call hwm_mib"
run() {
  local target=$1 job=$2 addr pid url attempt
  # A port picked at random may be taken by another program: the server
  # then exits at once, and the run starts it again on another port.
  for attempt in 1 2 3 4 5; do
    addr=127.0.0.1:$(port)
    start "$target" "$job" "$addr"
    pid=$!
    echo "$pid" > "$tmp/server.pid"
    url=http://$addr/mcp
    until "$lb" load -url "$url" -job "$job" -n 1 >/dev/null 2>&1; do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.05
    done
    kill -0 "$pid" 2>/dev/null && break
    if [[ $attempt == 5 ]]; then
      echo "$target $job: the server exited; see its log:" >&2; cat "$tmp/serve.log" >&2; return 1
    fi
  done
  "$lb" load -url "$url" -job "$job" -c "$workers" -n 500 >/dev/null # warm up
  local before after calls rate
  before=$(awk '{print $14+$15}' "/proc/$pid/stat")
  local measured; measured=$("$lb" load -url "$url" -job "$job" -c "$workers" -d "${secs}s")
  read -r calls _ rate <<< "$measured"
  after=$(awk '{print $14+$15}' "/proc/$pid/stat")
  local hwm; hwm=$(awk '/VmHWM/ {printf "%.1f", $2/1024}' "/proc/$pid/status")
  kill "$pid"; wait "$pid" 2>/dev/null || true
  rm "$tmp/server.pid"
  awk -v c="$calls" -v r="$rate" -v t=$(( after - before )) -v hz="$(getconf CLK_TCK)" -v m="$hwm" \
    'BEGIN {printf "%.0f %.1f %s\n", r, t * 1e6 / hz / c, m}'
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
col() { printf '%s' "$1" | awk -v c="$2" 'NF {print $c}' | median; }
# ratio TARGET_LINES BARE_LINES: the median of the rounds' CPU ratios.
ratio() { paste -d' ' <(printf '%s' "$1") <(printf '%s' "$2") | awk 'NF {printf "%.2f\n", $2 / $5}' | median; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
declare -A out
for _ in $(seq "$rounds"); do
  for job in "${jobs[@]}"; do
    for target in "${targets[@]}"; do
      out[$target.$job]+="$(run "$target" "$job")"$'\n'
    done
  done
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$workers keep-alive clients, ${secs}s per run, MCP 2026-07-28; medians of $rounds rounds"
for job in "${jobs[@]}"; do
  echo "[$job]"
  for target in "${targets[@]}"; do
    o=${out[$target.$job]}
    printf '  %-8s %7s calls/s  %7s µs CPU/call  %5sx bare  %6s MiB peak\n' \
      "$target" "$(col "$o" 1)" "$(col "$o" 2)" "$(ratio "$o" "${out[bare.$job]}")" "$(col "$o" 3)"
  done
done
