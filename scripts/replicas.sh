#!/usr/bin/env bash
# Starts N `mcpdecl serve --http` replicas sharing one signing key file
# behind nginx on 127.0.0.1, with deploy/nginx/mcpdecl.conf (the config
# README shows), and stops them again. Used by scripts/conformance.sh and
# the Go tests of testkit/e2e.
#
#   replicas.sh start DIR PORT N BIN CONFIG [serve flags...]
#       prints the endpoint URL (http://127.0.0.1:PORT/mcp) once every
#       replica and nginx answer; logs and pids stay in DIR
#   replicas.sh stop DIR
#
# Needs nginx (Debian package nginx-light); exits 3 when it is missing.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)

stop() {
  local dir=$1 pid
  if [[ -f $dir/nginx.pid ]]; then kill "$(cat "$dir/nginx.pid")" 2>/dev/null || true; fi
  if [[ -f $dir/pids ]]; then
    while read -r pid; do kill "$pid" 2>/dev/null || true; done <"$dir/pids"
  fi
}

# address_of LOG: the address a replica printed once it listens.
address_of() {
  local i
  for i in $(seq 1 200); do
    if grep -qo 'on http://[^ ]*/mcp' "$1" 2>/dev/null; then
      grep -o 'on http://[^ ]*/mcp' "$1" | head -1 | sed 's|on http://||; s|/mcp||'
      return 0
    fi
    sleep 0.05
  done
  echo "replica did not start; its log ($1):" >&2
  cat "$1" >&2
  return 1
}

start() {
  local dir=$1 port=$2 n=$3 bin=$4 config=$5
  shift 5
  command -v nginx >/dev/null || { echo "nginx is not installed (apt-get install nginx-light)" >&2; exit 3; }
  mkdir -p "$dir"
  : >"$dir/pids"
  # One key file for all replicas: 32 random bytes, base64.
  head -c 32 /dev/urandom | base64 >"$dir/state.keys"
  local i upstreams=()
  for i in $(seq 1 "$n"); do
    "$bin" serve --http 127.0.0.1:0 --state-key-file "$dir/state.keys" "$@" "$config" >"$dir/replica-$i.log" 2>&1 &
    echo $! >>"$dir/pids"
  done
  for i in $(seq 1 "$n"); do
    upstreams+=("$(address_of "$dir/replica-$i.log")")
  done
  # The shipped site config, with this run's ports and the shipped
  # servers' parameters (max_fails=...).
  local servers="" u params
  params=$(sed -n 's/^    server 127\.0\.0\.1:8081\(.*\);$/\1/p' "$ROOT/deploy/nginx/mcpdecl.conf")
  for u in "${upstreams[@]}"; do servers+="    server $u$params;\n"; done
  sed -e '/^    server 127\.0\.0\.1:808[1-9].*;$/d' \
      -e "s|^    hash \$mcpdecl_affinity consistent;|&\n$servers|" \
      -e "s|listen 127.0.0.1:8080;|listen 127.0.0.1:$port;|" \
      "$ROOT/deploy/nginx/mcpdecl.conf" >"$dir/site.conf"
  cat >"$dir/nginx.conf" <<CONF
daemon on;
pid $dir/nginx.pid;
error_log $dir/nginx-error.log warn;
worker_processes 1;
events { worker_connections 1024; }
http {
  log_format replica '\$upstream_addr \$status \$request_method \$upstream_status';
  access_log $dir/nginx-access.log replica;
  client_body_temp_path $dir/tmp-body;
  proxy_temp_path $dir/tmp-proxy;
  fastcgi_temp_path $dir/tmp-fastcgi;
  uwsgi_temp_path $dir/tmp-uwsgi;
  scgi_temp_path $dir/tmp-scgi;
  include $dir/site.conf;
}
CONF
  nginx -p "$dir" -c "$dir/nginx.conf" -e "$dir/nginx-error.log"
  for i in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "http://127.0.0.1:$port/mcp"
      return 0
    fi
    sleep 0.05
  done
  echo "nginx did not listen on 127.0.0.1:$port; its log:" >&2
  cat "$dir/nginx-error.log" >&2
  stop "$dir"
  return 1
}

case ${1:-} in
  start) shift; start "$@" ;;
  stop) stop "$2" ;;
  *) echo "usage: $0 start DIR PORT N BIN CONFIG [serve flags...] | stop DIR" >&2; exit 2 ;;
esac
