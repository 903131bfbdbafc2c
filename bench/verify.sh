#!/usr/bin/env bash
# The public verify page flooded with guesses (bench/README.md, ADR 26): for SQLite and, when
# a server answers at 127.0.0.1:5432, PostgreSQL, a fresh database, the real server on
# loopback behind a "trusted proxy" (so that each guess may come from another /64), and
# bench/loadgen -verify at 1, 8 and 32 clients beside the trivial endpoint, measured again
# after each flood. Writes bench/VERIFY-RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS=${BENCH_REQUESTS:-2000}
PORT=18320
out=bench/out
mkdir -p "$out"
rm -f "$out"/verify.db* "$out"/emr.key
go build -o bin/loadgen ./bench/loadgen
[ -x bin/emr ] || make build
password="load-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
tables=""
flood() { # label database-url
  local label=$1 url=$2
  printf '%s\n' "$password" | bin/emr user create --database-url "$url" --username admin --name "Bench Admin" --role admin > /dev/null
  EMR_SECRET_KEY_FILE="$out/emr.key" bin/emr serve --database-url "$url" --addr "127.0.0.1:$PORT" --trust-proxy 2> "$out/server-verify-$label.log" > /dev/null &
  local pid=$!
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$PORT/api/health" > /dev/null && break; sleep 0.2; done
  if [[ $url == postgres* ]]; then psql -q "${url%%\?*}" -c ANALYZE; fi
  tables+="$(EMR_BENCH_PASSWORD=$password bin/loadgen -url "http://127.0.0.1:$PORT" -label "$label" -requests "$REQUESTS" -verify)"$'\n\n'
  kill "$pid"; wait "$pid" 2> /dev/null || true
  rm -f "$out/emr.key"
}
echo "== SQLite"
flood SQLite "sqlite:$out/verify.db"
if pg_isready -q -h 127.0.0.1 -p 5432 2> /dev/null; then
  echo "== PostgreSQL"
  db="emr_verify_$$"
  psql -q -h 127.0.0.1 -U root -d postgres -c "CREATE DATABASE $db"
  trap 'psql -q -h 127.0.0.1 -U root -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)"' EXIT
  flood PostgreSQL "postgres://root@127.0.0.1:5432/$db?sslmode=disable"
fi
cat > bench/VERIFY-RESULTS.md <<MD
# The public verify page under a flood of guesses

Written by \`bench/verify.sh\` on $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD), on $(nproc) cores
($(uname -m)); the load generator, the server and the database share the machine. $REQUESTS
requests per row after 20 warm-up requests, all of an unknown code. The limits live in the
database (ADR 26): each look-up takes a slot for its address block and, when that allows it,
one for everyone, each an upsert. "One address" is refused after its 20; "a new /64 each"
passes its block's limit and meets the limit for everyone (2,000 per 10 minutes) instead.
Latencies are end to end; each throughput is also a ratio to \`GET /api/user\` measured just
before it at the same concurrency. The last two rows are what the clinic's staff feel while
someone guesses: a patient's registration (a write, meeting the flood's writes) by one client,
$((REQUESTS / 10)) times alone and $((REQUESTS / 10)) times while 32 clients flood from new /64s.

$tables
MD
echo "== written bench/VERIFY-RESULTS.md"
cat bench/VERIFY-RESULTS.md
