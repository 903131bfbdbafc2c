#!/usr/bin/env bash
# Results at scale (issue 35; bench/README.md): seeds $BENCH_PATIENTS patients (default
# 1,000,000), $BENCH_APPOINTMENTS appointments (default 1,300,000: enough completed visits to
# carry the orders) and $BENCH_RESULTS results (default 5,000,000: 1,000,000 five-analyte
# orders, one in a hundred ordered by the benchmark's account and waiting for its review)
# into a fresh SQLite database and, when the local PostgreSQL answers, a fresh PostgreSQL one;
# ANALYZEs; starts the real server and runs `loadgen -results` at 1, 8 and 32 clients, and
# `loadgen -record-panel` (recording a 20-analyte panel, issue 52) likewise. Then
# critical-alert delivery to $BENCH_PUSH_CLIENTS doctors' sockets (default 1,000). Prints the
# tables for bench/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
P=${BENCH_PATIENTS:-1000000}
A=${BENCH_APPOINTMENTS:-1300000}
R=${BENCH_RESULTS:-5000000}
REQUESTS=${BENCH_REQUESTS:-1000}
CLIENTS=${BENCH_PUSH_CLIENTS:-1000}
USERS=${BENCH_PUSH_USERS:-50}
ENGINES=${ENGINES:-sqlite postgres}
PORT=18320
out=bench/out
mkdir -p "$out"
go build -o bin/emr ./cmd/emr
go build -o bin/loadgen ./bench/loadgen
password="load-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
ulimit -n "$(ulimit -Hn)" 2> /dev/null || true

serve() { # label database-url
  bin/emr serve --database-url "$2" --addr "127.0.0.1:$PORT" 2> "$out/server-results-$1.log" &
  pid=$!
  for _ in $(seq 300); do curl -fs "http://127.0.0.1:$PORT/api/health" > /dev/null && break; sleep 0.2; done
}

measure() { # label database-url
  local label=$1 url=$2
  bin/emr migrate --database-url "$url" 2> /dev/null
  printf '%s\n' "$password" | bin/emr user create --database-url "$url" --username admin --name "Bench Admin" --role admin > /dev/null
  for i in $(seq "$USERS"); do
    printf '%s\n' "$password" | bin/emr user create --database-url "$url" --username "push$i" --name "Doctor $i" --role doctor > /dev/null
  done
  local t0=$SECONDS
  bin/emr seed --database-url "$url" --patients "$P" > /dev/null 2>&1
  bin/emr seed --database-url "$url" --appointments "$A" > /dev/null 2>&1
  local t1=$SECONDS
  bin/emr seed --database-url "$url" --results "$R" --results-reviewer 1 > /dev/null 2>&1
  echo "seeded $label: patients and appointments in $((t1 - t0)) s, $R results in $((SECONDS - t1)) s"
  echo
  serve "$label" "$url"
  EMR_BENCH_PASSWORD=$password bin/loadgen -url "http://127.0.0.1:$PORT" -label "$label" -patients "$P" -requests "$REQUESTS" -results "$R"
  EMR_BENCH_PASSWORD=$password bin/loadgen -url "http://127.0.0.1:$PORT" -label "$label" -requests "${BENCH_PANEL_REQUESTS:-400}" -record-panel
  EMR_BENCH_PASSWORD=$password bin/loadgen -url "http://127.0.0.1:$PORT" -label "$label" \
    -push-clients "$CLIENTS" -push-users "$USERS" -push-events 30 -push-alerts
  echo
  kill "$pid"; wait "$pid" 2> /dev/null || true
}

if [[ " $ENGINES " == *" sqlite "* ]]; then
  rm -f "$out"/results.db*
  measure SQLite "sqlite:$out/results.db"
fi
if [[ " $ENGINES " == *" postgres "* ]] && pg_isready -q -h 127.0.0.1 -p 5432 2> /dev/null; then
  db="emr_bench_results"
  psql -q -h 127.0.0.1 -U root -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db"
  measure PostgreSQL "postgres://root@127.0.0.1:5432/$db?sslmode=disable"
fi
