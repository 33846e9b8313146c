#!/usr/bin/env bash
# Measures `mcpdecl validate` of the four examples as a whole process
# (target: ≤ 50 ms), with and without the lint rules, next to two baselines measured the same way in the
# same run: /bin/true (process start on this machine) and an empty Go
# program (process start plus the Go runtime). Prints the median of 21
# runs of each, and mcpdecl's time over the empty Go program.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/mcpdecl" ./cmd/mcpdecl
mkdir -p "$tmp/empty"
printf 'package main\n\nfunc main() {}\n' > "$tmp/empty/main.go"
(cd "$tmp/empty" && printf 'module empty\n\ngo 1.26\n' > go.mod && go build -o "$tmp/empty-go" .)
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
measure() {
  for _ in $(seq 21); do
    start=$(date +%s%N); "$@" >/dev/null 2>&1 || true; end=$(date +%s%N)
    echo $(( (end - start) / 1000 ))
  done | median
}
examples=(examples/library.hcl examples/calendar.hcl examples/orders.hcl examples/commands.hcl)
t_true=$(measure /bin/true)
t_go=$(measure "$tmp/empty-go")
t_val=$(measure "$tmp/mcpdecl" validate "${examples[@]}")
t_nolint=$(measure "$tmp/mcpdecl" validate --no-lint "${examples[@]}")
echo "process start (/bin/true):          ${t_true} µs"
echo "empty Go program:                   ${t_go} µs"
echo "mcpdecl validate examples/*.hcl:    ${t_val} µs (target ≤ 50000 µs)"
echo "  the same with --no-lint:          ${t_nolint} µs (lint rules cost $((t_val - t_nolint)) µs)"
echo "mcpdecl over the empty Go program:  $((t_val - t_go)) µs"
