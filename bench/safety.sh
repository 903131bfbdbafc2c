#!/usr/bin/env bash
# The medicine-safety check under load (bench/README.md): for SQLite and, when a server
# answers at 127.0.0.1:5432, PostgreSQL, a fresh database with 10,000 patients, the real
# server on loopback, and bench/loadgen -safety at 1, 8 and 32 clients beside the trivial
# endpoint. Writes bench/SAFETY-RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS=${BENCH_REQUESTS:-1000}
PORT=18310
out=bench/out
mkdir -p "$out"
rm -f "$out"/safety.db*
go build -o bin/loadgen ./bench/loadgen
[ -x bin/emr ] || make build
password="load-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
tables=""
measure() { # label database-url
  local label=$1 url=$2
  printf '%s\n' "$password" | bin/emr user create --database-url "$url" --username admin --name "Bench Admin" --role admin > /dev/null
  bin/emr seed --database-url "$url" --patients 10000 2>&1 | tr '\r' '\n' | tail -1
  bin/emr serve --database-url "$url" --addr "127.0.0.1:$PORT" 2> "$out/server-safety-$label.log" &
  local pid=$!
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$PORT/api/health" > /dev/null && break; sleep 0.2; done
  if [[ $url == postgres* ]]; then psql -q "${url%%\?*}" -c ANALYZE; fi
  tables+="$(EMR_BENCH_PASSWORD=$password bin/loadgen -url "http://127.0.0.1:$PORT" -label "$label" -requests "$REQUESTS" -safety)"$'\n\n'
  kill "$pid"; wait "$pid" 2> /dev/null || true
}
echo "== SQLite"
measure SQLite "sqlite:$out/safety.db"
if pg_isready -q -h 127.0.0.1 -p 5432 2> /dev/null; then
  echo "== PostgreSQL"
  db="emr_safety_$$"
  psql -q -h 127.0.0.1 -U root -d postgres -c "CREATE DATABASE $db"
  trap 'psql -q -h 127.0.0.1 -U root -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)"' EXIT
  measure PostgreSQL "postgres://root@127.0.0.1:5432/$db?sslmode=disable"
fi
cat > bench/SAFETY-RESULTS.md <<MD
# Medicine-safety check under load

Written by \`bench/safety.sh\` on $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD), on $(nproc) cores
($(uname -m)); the load generator, the server and the database share the machine. $REQUESTS
requests per row after 20 warm-up requests. The patient has three recorded allergies (one
entry naming two things) and 30 prescriptions of the last 90 days (90 lines, each read for
duplicate therapy and interactions); the checked prescription has five typed lines (a brand,
a combination, Russian, Chinese, English). Latencies are end to end, as the client sees them;
each throughput is also given as a ratio to \`GET /api/user\` measured just before it at the
same concurrency.

$tables
MD
echo "== written bench/SAFETY-RESULTS.md"
cat bench/SAFETY-RESULTS.md
