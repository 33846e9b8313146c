#!/usr/bin/env bash
# Local stand-ins for the two base images the Dockerfile names, for a
# machine whose Docker daemon cannot pull them: the test machines reach
# Debian's package mirror and the Go module proxy, but neither the registry
# of the golang image nor gcr.io. A build with registry access pulls the
# real images and never needs this script. It makes an image only when none
# of that name exists (a pulled real image is left alone), and labels its
# own org.mcpdecl.stand-in=true.
#
#   golang:<V>-bookworm     Debian bookworm (debootstrap --variant=minbase)
#                           with make, this machine's CA bundle, and this
#                           machine's Go (which must be Go <V>) in
#                           /usr/local/go, set up as the official image
#                           (GOPATH=/go, PATH, GOTOOLCHAIN=local).
#   gcr.io/distroless/static-debian12:nonroot
#                           no shell or package manager: passwd and group
#                           with nonroot (uid and gid 65532, home
#                           /home/nonroot), the CA bundle, time zones
#                           and /tmp, from this Debian 12 machine; user
#                           65532 and working directory /home/nonroot, as
#                           the real image.
#
# Needs root, a running Docker daemon (scripts/dockerd.sh) and debootstrap,
# ca-certificates and tzdata (installed from apt when missing). The Debian
# mirror is debootstrap's default unless DEBIAN_MIRROR is set.
set -euo pipefail
cd "$(dirname "$0")/.."

golang_tag=$(awk 'toupper($1) == "FROM" && $2 ~ /^golang:/ { print $2 }' Dockerfile)
distroless_tag=$(awk 'toupper($1) == "FROM" && $2 ~ /distroless/ { print $2 }' Dockerfile)
if [[ -z $golang_tag || -z $distroless_tag ]]; then
  echo "container-bases: the Dockerfile has no FROM golang:... or FROM ...distroless...; update this script" >&2
  exit 1
fi

has_image() { docker image inspect "$1" >/dev/null 2>&1; }

apt_install() {
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >/dev/null
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# golang_standin: bookworm with make, CA certificates and the local Go,
# whose version must be the one the tag names (golang:1.26-bookworm: a
# go1.26.x).
golang_standin() {
  local want have root
  want=${golang_tag#golang:}
  want=go${want%%-*}
  have=$(go env GOVERSION)
  if [[ $have != "$want" && $have != "$want".* ]]; then
    echo "container-bases: $golang_tag needs Go ${want#go}, this machine has $have" >&2
    exit 1
  fi
  command -v debootstrap >/dev/null || apt_install debootstrap
  root=$work/golang
  debootstrap --variant=minbase --include=make,ca-certificates bookworm "$root" ${DEBIAN_MIRROR:-} >"$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log" >&2; echo "container-bases: debootstrap failed" >&2; exit 1; }
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
  # This machine's CA bundle, which may trust more than Debian's (a proxy
  # between the machine and the Go module proxy): go mod download in the
  # build stage must trust what go on the machine trusts.
  cp -L /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
  cp -a "$(go env GOROOT)" "$root/usr/local/go"
  mkdir -p "$root/go/src" "$root/go/bin"
  chmod -R 1777 "$root/go"
  tar -C "$root" --numeric-owner -c . | docker import \
    --change 'ENV GOLANG_VERSION='"${have#go}" \
    --change 'ENV GOTOOLCHAIN=local' \
    --change 'ENV GOPATH=/go' \
    --change 'ENV PATH=/go/bin:/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'WORKDIR /go' \
    --change 'CMD ["bash"]' \
    --change 'LABEL org.mcpdecl.stand-in=true' \
    - "$golang_tag" >/dev/null
}

# distroless_standin: the files of distroless/static a program may read,
# and nothing to run.
distroless_standin() {
  local root=$work/distroless
  [[ -f /etc/ssl/certs/ca-certificates.crt ]] || apt_install ca-certificates
  [[ -d /usr/share/zoneinfo ]] || apt_install tzdata
  mkdir -p "$root"/etc/ssl/certs "$root"/usr/share "$root"/tmp "$root"/root "$root"/home/nonroot
  cat >"$root/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin
nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin
EOF
  cat >"$root/etc/group" <<'EOF'
root:x:0:
nobody:x:65534:
tty:x:5:
staff:x:50:
nonroot:x:65532:
EOF
  echo 'hosts: files dns' >"$root/etc/nsswitch.conf"
  cp /etc/os-release "$root/etc/os-release"
  cp -L /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/"
  cp -a /usr/share/zoneinfo "$root/usr/share/"
  chmod 1777 "$root/tmp"
  chmod 700 "$root/root" "$root/home/nonroot"
  chown 65532:65532 "$root/home/nonroot"
  tar -C "$root" --numeric-owner -c . | docker import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt' \
    --change 'USER 65532' \
    --change 'WORKDIR /home/nonroot' \
    --change 'LABEL org.mcpdecl.stand-in=true' \
    - "$distroless_tag" >/dev/null
}

for tag in "$golang_tag" "$distroless_tag"; do
  if has_image "$tag"; then
    echo "container-bases: $tag is there"
    continue
  fi
  case $tag in
  "$golang_tag") golang_standin ;;
  "$distroless_tag") distroless_standin ;;
  esac
  echo "container-bases: made a local stand-in for $tag"
done
