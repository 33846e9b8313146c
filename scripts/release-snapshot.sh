#!/usr/bin/env bash
# Builds a snapshot release with GoReleaser (.goreleaser.yaml) into dist/:
# the six archives (linux, darwin, windows on amd64 and arm64),
# checksums.txt, an SPDX SBOM of each archive (syft) and the Homebrew cask,
# then checks that each is there and that the linux/amd64 binary runs.
# Nothing is published. GoReleaser and syft are installed with `go install`
# at pinned versions, once per machine, into the user's cache.
set -euo pipefail
cd "$(dirname "$0")/.."

GORELEASER=github.com/goreleaser/goreleaser/v2@v2.17.0
SYFT=github.com/anchore/syft/cmd/syft@v1.57.2
tools="${XDG_CACHE_HOME:-$HOME/.cache}/mcpdecl-tools"

# tool MODULE@VERSION NAME: the directory holding NAME built at that
# version (a directory per version, so a pin change installs anew).
tool() {
  local dir="$tools/$2-${1##*@}"
  if [ ! -x "$dir/$2" ]; then
    echo "release-snapshot: go install $1" >&2
    GOFLAGS= GOBIN="$dir" go install "$1" >&2
  fi
  echo "$dir"
}
PATH="$(tool "$GORELEASER" goreleaser):$(tool "$SYFT" syft):$PATH"
export PATH

log=$(mktemp)
trap 'rm -f "$log"' EXIT
start=$(date +%s)
goreleaser release --snapshot --clean --parallelism "$(nproc)" >"$log" 2>&1 || { cat "$log"; exit 1; }
echo "release-snapshot: goreleaser took $(( $(date +%s) - start ))s"

fail() { echo "release-snapshot: $*" >&2; cat "$log" >&2; exit 1; }
archives=$(ls dist/mcpdecl_*.tar.gz dist/mcpdecl_*.zip 2>/dev/null | wc -l)
[ "$archives" -eq 6 ] || fail "$archives archives in dist/, want 6"
for a in dist/mcpdecl_*.tar.gz dist/mcpdecl_*.zip; do
  grep -q " $(basename "$a")\$" dist/checksums.txt || fail "checksums.txt does not list $(basename "$a")"
  [ -s "$a.sbom.json" ] || fail "no SBOM for $(basename "$a")"
  grep -q '"spdxVersion"' "$a.sbom.json" || fail "$a.sbom.json is not an SPDX document"
done
cask=dist/homebrew/Casks/mcpdecl.rb
[ -s "$cask" ] || fail "no Homebrew cask at $cask"
grep -q 'binary "mcpdecl"' "$cask" || fail "the cask installs no mcpdecl binary"
grep -q 'darwin_arm64.tar.gz' "$cask" || fail "the cask names no darwin arm64 archive"
version=$(dist/mcpdecl_linux_amd64_v1/mcpdecl version)
case "$version" in
  *snapshot*) ;;
  *) fail "the built binary says \"$version\", not the snapshot's version" ;;
esac
echo "release-snapshot: ok: $archives archives, checksums, SBOMs, $cask; $version"
