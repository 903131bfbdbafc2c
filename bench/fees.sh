#!/usr/bin/env bash
# The fee reports over a year of a busy clinic (issue 21; bench/README.md): seeds
# $BENCH_PATIENTS patients (default 100,000) and $BENCH_BILLS final bills (default 65,000,
# with about 2.4 payments each: over 150,000) over the last year into a fresh SQLite database
# and, when the local PostgreSQL answers, a fresh PostgreSQL one; starts the real server and
# runs `loadgen -fees` at 1, 8 and 32 clients, each table after its own ceiling (GET
# /api/user) in the same run. Prints the tables for bench/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
P=${BENCH_PATIENTS:-100000}
B=${BENCH_BILLS:-65000}
REQUESTS=${BENCH_REQUESTS:-1000}
PORT=18310
out=bench/out
mkdir -p "$out"
rm -f "$out"/fees.db*
go build -o bin/emr ./cmd/emr
go build -o bin/loadgen ./bench/loadgen
password="load-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"

measure() { # label database-url
  local label=$1 url=$2
  bin/emr migrate --database-url "$url" 2> /dev/null
  printf '%s\n' "$password" | bin/emr user create --database-url "$url" --username admin --name "Bench Admin" --role admin > /dev/null
  local t0=$SECONDS
  bin/emr seed --database-url "$url" --patients "$P" > /dev/null 2>&1
  bin/emr seed --database-url "$url" --bills "$B" > /dev/null 2>&1
  echo "seeded $label in $((SECONDS - t0)) s"
  bin/emr serve --database-url "$url" --addr "127.0.0.1:$PORT" 2> "$out/server-fees-$label.log" &
  local pid=$!
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$PORT/api/health" > /dev/null && break; sleep 0.2; done
  for workers in 1 8 32; do
    EMR_BENCH_PASSWORD=$password bin/loadgen -url "http://127.0.0.1:$PORT" -label "$label, $workers client(s)" -workers "$workers" \
      -patients "$P" -requests "$REQUESTS" -fees
    echo
  done
  kill "$pid"; wait "$pid" 2> /dev/null || true
}

echo "== SQLite"
measure SQLite "sqlite:$out/fees.db"
if pg_isready -q -h 127.0.0.1 -p 5432 2> /dev/null; then
  echo "== PostgreSQL"
  db="emr_fees_$$"
  psql -q -h 127.0.0.1 -U root -d postgres -c "CREATE DATABASE $db"
  trap 'psql -q -h 127.0.0.1 -U root -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)"' EXIT
  measure PostgreSQL "postgres://root@127.0.0.1:5432/$db?sslmode=disable"
fi
