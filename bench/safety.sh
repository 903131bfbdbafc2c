#!/usr/bin/env bash
# The medicine-safety check under load (bench/README.md): for SQLite and, when a server
# answers at 127.0.0.1:5432, PostgreSQL, a fresh database with 10,000 patients, the real
# server on loopback, and bench/loadgen -safety at 1, 8 and 32 clients beside the trivial
# endpoint. Writes bench/SAFETY-RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS=${BENCH_REQUESTS:-1000}
PORT=18310
. bench/engines.sh
measure() { # label database-url
  printf '%s\n' "$password" | bin/emr user create --database-url "$2" --username admin --name "Bench Admin" --role admin > /dev/null
  bin/emr seed --database-url "$2" --patients 10000 2>&1 | tr '\r' '\n' | tail -1
  serve_and_load "$1" "$2" safety
}
each_engine measure safety
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
