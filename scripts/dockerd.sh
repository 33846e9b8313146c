#!/usr/bin/env bash
# A Docker daemon for the image test (TestContainerImage in testkit/e2e):
# Debian's docker.io from apt when dockerd is missing, and dockerd started
# in the background when `docker info` cannot reach one, with its log in
# ${MCPDECL_TOOLS_DIR:-.tools}/dockerd.log. A daemon already running is
# used as it is. Needs root.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v dockerd >/dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends docker.io >/dev/null
fi
if docker info >/dev/null 2>&1; then
  exit 0
fi
tools=${MCPDECL_TOOLS_DIR:-.tools}
mkdir -p "$tools"
log=$(realpath "$tools")/dockerd.log
setsid dockerd >"$log" 2>&1 </dev/null &
for _ in $(seq 1 300); do
  docker info >/dev/null 2>&1 && { echo "dockerd: running (log $log)"; exit 0; }
  sleep 0.1
done
tail -20 "$log" >&2
echo "dockerd: not answering after 30 s; its log is $log" >&2
exit 1
