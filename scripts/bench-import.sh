#!/usr/bin/env bash
# Measures `mcpdecl import openapi` of GitHub's whole REST description
# (@octokit/openapi, 13 MB of JSON, 1,186 operations), as a whole
# process: wall time, CPU time (user+sys) and peak RSS, each the median of
# ROUNDS runs (default 5). The cores of a shared machine are noisy: read
# CPU time and peak RSS first. With BASE=<git revision>, the same is
# measured for that revision in the same run, alternating, and the two
# outputs are compared byte for byte.
#
# The document comes from the openapi test packages (scripts/openapi-deps.sh
# installs them into .tools, or MCPDECL_TOOLS_DIR names another tools dir).
#
#   scripts/bench-import.sh
#   BASE=main ROUNDS=5 scripts/bench-import.sh
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-5}
tools=${MCPDECL_TOOLS_DIR:-$PWD/.tools}
doc=$tools/openapi-specs/node_modules/@octokit/openapi/generated/api.github.com.json
if [[ ! -f $doc ]]; then
  echo "$doc is missing: run scripts/openapi-deps.sh (or set MCPDECL_TOOLS_DIR)" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp/base" 2>/dev/null || true; rm -rf "$tmp"' EXIT
go build -o "$tmp/head.bin" ./cmd/mcpdecl
bins=(head)
if [[ -n "${BASE:-}" ]]; then
  git worktree add -q --detach "$tmp/base" "$BASE"
  (cd "$tmp/base" && go build -o "$tmp/base.bin" ./cmd/mcpdecl)
  bins=(base head)
fi
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# run BIN: prints "wall_ms cpu_ms rss_mib"; the output is kept in $tmp/BIN.hcl
run() {
  /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$tmp/$1.bin" import openapi "$doc" >"$tmp/$1.hcl" 2>/dev/null
  awk '{printf "%d %d %d\n", $1*1000, ($2+$3)*1000, $4/1024}' "$tmp/time"
}

declare -A out
for _ in $(seq "$rounds"); do
  for b in "${bins[@]}"; do
    out[$b]+="$(run "$b")"$'\n'
  done
done
col() { printf '%s' "$1" | awk -v c="$2" 'NF {print $c}' | median; }
echo "import openapi api.github.com.json ($(( $(wc -c < "$doc") / 1000000 )) MB): medians of $rounds rounds"
for b in "${bins[@]}"; do
  r=${out[$b]}
  printf '  %-5s %6s ms wall, %6s ms CPU, %4s MiB peak RSS   (target <= 2000 ms, <= 300 MiB)\n' \
    "$b" "$(col "$r" 1)" "$(col "$r" 2)" "$(col "$r" 3)"
done
if [[ -n "${BASE:-}" ]]; then
  if cmp -s "$tmp/base.hcl" "$tmp/head.hcl"; then
    echo "  outputs: identical"
  else
    echo "  outputs: DIFFER" >&2
    exit 1
  fi
fi
