#!/usr/bin/env bash
# Checks a release image (Dockerfile.release) against the binary it was
# built from:
#
#   scripts/check-release-image.sh IMAGE BINARY
#
#   - the image's /usr/local/bin/mcpdecl is byte for byte BINARY (sha256 of
#     a copy taken with docker create and docker cp);
#   - its user is 65532:65532 and its labels name the version and commit
#     BINARY's `version` prints, and its source;
#   - where the image's platform is this machine's: `docker run IMAGE
#     version` prints what BINARY's `version` prints, and the image serves
#     examples/orders.hcl over HTTP as README shows (the configuration
#     mounted read-only), /healthz answers 200, and the server's process
#     runs as uid 65532.
#
# scripts/release-snapshot.sh runs it on the images of a snapshot; it
# checks a published image against the binary of a release archive just
# as well (pull the image first). Needs a Docker daemon and curl.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -ne 2 ]; then
  echo "usage: $0 IMAGE BINARY" >&2
  exit 2
fi
image=$1 binary=$2
fail() { echo "check-release-image: $image: $*" >&2; exit 1; }

docker image inspect "$image" >/dev/null 2>&1 || fail "no such image on the daemon (was it built?)"
[ -f "$binary" ] || fail "no binary at $binary"
work=$(mktemp -d)
container=
cleanup() {
  [ -z "$container" ] || docker rm -f "$container" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# The binary inside, byte for byte.
container=$(docker create "$image")
docker cp "$container:/usr/local/bin/mcpdecl" "$work/mcpdecl" >/dev/null
docker rm "$container" >/dev/null
container=
inside=$(sha256sum <"$work/mcpdecl" | cut -d' ' -f1)
want=$(sha256sum <"$binary" | cut -d' ' -f1)
[ "$inside" = "$want" ] || fail "its /usr/local/bin/mcpdecl (sha256 $inside) is not $binary (sha256 $want)"

# User and labels. The binary is static and of the image's platform, so
# it may not run here; its stamped version and commit are read from its
# bytes instead (the -X strings of the link are plain in the binary).
inspect() { docker image inspect -f "$1" "$image"; }
user=$(inspect '{{.Config.User}}')
[ "$user" = 65532:65532 ] || fail "its user is \"$user\", want 65532:65532 (distroless nonroot)"
label() { inspect "{{index .Config.Labels \"org.opencontainers.image.$1\"}}"; }
label_version=$(label version) label_revision=$(label revision) label_source=$(label source)
[ "$label_source" = https://github.com/mcpdecl/mcpdecl ] || fail "its source label is \"$label_source\""
for l in "$label_version" "$label_revision"; do
  [ -n "$l" ] && grep -qaF -- "$l" "$binary" || fail "its version and revision labels (\"$label_version\", \"$label_revision\") are not stamped in $binary"
done

case "$(uname -m)" in
  x86_64) here=amd64 ;;
  aarch64 | arm64) here=arm64 ;;
  *) here=$(uname -m) ;;
esac
platform=$(inspect '{{.Os}}/{{.Architecture}}')
if [ "$platform" != "linux/$here" ]; then
  echo "check-release-image: ok: $image ($platform): the binary, user 65532, labels $label_version $label_revision; not run on this linux/$here machine"
  exit 0
fi

# It runs: version, then a server of the examples as README shows.
want_version=$("$binary" version)
got_version=$(docker run --rm "$image" version) || fail "docker run $image version failed"
[ "$got_version" = "$want_version" ] || fail "version prints \"$got_version\", $binary prints \"$want_version\""
first=${want_version%%$'\n'*}
[ "$first" = "mcpdecl $label_version (commit $label_revision, ${first##*, }" ] ||
  fail "its labels say $label_version, commit $label_revision; the binary says \"$first\""

container=$(docker run -d -p 127.0.0.1::8080 -v "$PWD/examples:/etc/mcpdecl:ro" "$image" \
  serve --http 0.0.0.0:8080 --allowed-host localhost --var orders_db=/tmp/orders.db /etc/mcpdecl/orders.hcl)
port=$(docker port "$container" 8080/tcp | head -n 1)
port=${port##*:}
status=
for _ in $(seq 1 300); do
  status=$(curl -s -o /dev/null -w '%{http_code}' "http://localhost:$port/healthz" || true)
  [ "$status" = 200 ] && break
  sleep 0.1
done
[ "$status" = 200 ] || { docker logs "$container" >&2; fail "serving examples/orders.hcl: GET /healthz answered \"$status\" within 30 s, not 200"; }
uid=$(docker top "$container" -o pid,uid | awk 'NR > 1 { print $2 }' | sort -u)
[ "$uid" = 65532 ] || fail "the server runs as uid \"$uid\", want 65532"
echo "check-release-image: ok: $image ($platform): the binary, user 65532, labels, version, /healthz of examples/orders.hcl, uid 65532"
