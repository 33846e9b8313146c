#!/usr/bin/env bash
# Measures `mcpdecl validate examples/*.hcl` as a whole process (target:
# ≤ 50 ms), next to `true` as the baseline of process start-up on this
# machine, in the same run. Prints the median of 20 runs of each.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/mcpdecl
go build -o "$bin" ./cmd/mcpdecl
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
measure() {
  for _ in $(seq 20); do
    start=$(date +%s%N); "$@" >/dev/null 2>&1 || true; end=$(date +%s%N)
    echo $(( (end - start) / 1000 ))
  done | median
}
base=$(measure true)
val=$(measure "$bin" validate examples/library.hcl examples/calendar.hcl examples/orders.hcl examples/commands.hcl)
echo "process baseline (true): ${base} µs"
echo "mcpdecl validate examples: ${val} µs (target ≤ 50000 µs)"
