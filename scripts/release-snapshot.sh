#!/usr/bin/env bash
# Builds a snapshot release with GoReleaser (.goreleaser.yaml) into dist/:
# the six archives (linux, darwin, windows on amd64 and arm64),
# checksums.txt, an SPDX SBOM of each archive (syft), the Homebrew cask and,
# where a Docker daemon answers, the container image of Dockerfile.release
# (linux/amd64 and linux/arm64), then checks that each is there, that the
# linux/amd64 binary runs, and that the image holds that very binary, says
# the snapshot's version, runs as uid 65532 and serves the examples.
# Without a daemon the image is skipped with one line saying so; under CI
# (CI set), whose .ci/run starts dockerd and the base images first, that
# is a failure. Nothing is published. GoReleaser, syft and (when the docker
# command has no buildx) buildx are installed with `go install` at pinned
# versions, once per machine, into the user's cache.
set -euo pipefail
cd "$(dirname "$0")/.."

GORELEASER=github.com/goreleaser/goreleaser/v2@v2.17.0
SYFT=github.com/anchore/syft/cmd/syft@v1.57.2
BUILDX=github.com/docker/buildx/cmd/buildx@v0.39.1
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

work=$(mktemp -d)
log=$work/goreleaser.log
trap 'rm -rf "$work"' EXIT

# The snapshot's images, one per platform (.goreleaser.yaml, dockers_v2).
image=ghcr.io/mcpdecl/mcpdecl:snapshot
skip=()
if docker info >/dev/null 2>&1; then
  # GoReleaser builds the image with docker buildx. Where the docker command
  # lacks it, the pinned one is made a plugin for this run only, through a
  # configuration directory of its own (the snapshot pushes nothing, so it
  # needs no registry login).
  if ! docker buildx version >/dev/null 2>&1; then
    buildx=$(tool "$BUILDX" buildx)
    export DOCKER_CONFIG=$work/docker
    mkdir -p "$DOCKER_CONFIG/cli-plugins"
    ln -s "$buildx/buildx" "$DOCKER_CONFIG/cli-plugins/docker-buildx"
  fi
  # An image left by an earlier run must not pass for this one's.
  docker rmi -f "$image-amd64" "$image-arm64" >/dev/null 2>&1 || true
  # A local stand-in of the base (scripts/container-bases.sh) is amd64
  # only, and its registry is out of reach: buildx cannot get the arm64
  # base, so that image is left out (.goreleaser.yaml).
  base=$(awk 'toupper($1) == "FROM" { print $2 }' Dockerfile.release)
  if [ "$(docker image inspect -f '{{index .Config.Labels "org.mcpdecl.stand-in"}}' "$base" 2>/dev/null)" = true ]; then
    export MCPDECL_IMAGE_AMD64_ONLY=1
    echo "release-snapshot: arm64 image skipped: $base is a local amd64 stand-in (scripts/container-bases.sh)"
  fi
elif [ -n "${CI:-}" ]; then
  echo "release-snapshot: no Docker daemon answers (docker info); .ci/run starts one with scripts/dockerd.sh before this script" >&2
  exit 1
else
  echo "release-snapshot: image skipped: no docker (scripts/dockerd.sh starts a daemon)"
  skip=(--skip=docker)
fi

# GoReleaser reads the clone's remote (git ls-remote --get-url); without
# one (a CI clone, a local repository) a snapshot gives up on git and
# stamps commit "none". The project's is named for this run only.
if ! git ls-remote --get-url >/dev/null 2>&1; then
  export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.url GIT_CONFIG_VALUE_0=https://github.com/mcpdecl/mcpdecl.git
fi

start=$(date +%s)
goreleaser release --snapshot --clean --parallelism "$(nproc)" ${skip[@]+"${skip[@]}"} >"$log" 2>&1 || { cat "$log"; exit 1; }
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
  *"(commit $(git rev-parse --short HEAD),"*) ;;
  *) fail "the built binary says \"$version\", not this commit ($(git rev-parse --short HEAD))" ;;
esac
case "$version" in
  *snapshot*) ;;
  *) fail "the built binary says \"$version\", not the snapshot's version" ;;
esac
made="$archives archives, checksums, SBOMs, $cask"
if [ ${#skip[@]} -eq 0 ]; then
  ./scripts/check-release-image.sh "$image-amd64" dist/mcpdecl_linux_amd64_v1/mcpdecl || fail "the linux/amd64 image"
  made="$made, image $image-amd64"
  if [ -z "${MCPDECL_IMAGE_AMD64_ONLY:-}" ]; then
    ./scripts/check-release-image.sh "$image-arm64" dist/mcpdecl_linux_arm64_v8.0/mcpdecl || fail "the linux/arm64 image"
    made="$made and -arm64"
  fi
fi
echo "release-snapshot: ok: $made; $version"
