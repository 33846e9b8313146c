#!/usr/bin/env bash
# Starts the services of compose.yaml (PostgreSQL, MariaDB, Redis, on
# 127.0.0.1 only) with Docker Compose or Podman Compose, waits until they
# answer, and prints the variables that point the tests at them:
#
#   eval "$(./scripts/test-services.sh)" && go test ./...
#   ./scripts/test-services.sh down          # stops and removes them
#
# README "Running the tests" says what each service is for.
set -euo pipefail
cd "$(dirname "$0")/.."

if docker compose version >/dev/null 2>&1; then
  compose=(docker compose)
elif command -v podman-compose >/dev/null 2>&1; then
  compose=(podman-compose)
elif command -v docker-compose >/dev/null 2>&1; then
  compose=(docker-compose)
else
  echo "test-services.sh: needs Docker Compose (docker compose) or podman-compose to start compose.yaml" >&2
  exit 1
fi

if [ "${1:-up}" = down ]; then
  "${compose[@]}" -f compose.yaml down >&2
  exit 0
fi

# Output on stdout is only the export lines, for eval.
"${compose[@]}" -f compose.yaml up -d --wait >&2
cat <<'VARS'
export MCPDECL_TEST_POSTGRES_DSN="postgres://postgres@127.0.0.1:5432/mcpdecl_test?sslmode=disable"
export MCPDECL_TEST_MYSQL_DSN="root@tcp(127.0.0.1:3306)/mcpdecl_test"
export MCPDECL_TEST_REDIS_URL="redis://127.0.0.1:6379/15"
VARS
