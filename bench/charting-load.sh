#!/usr/bin/env bash
# The charting aids under load (bench/README.md): for SQLite and, when a server answers at
# 127.0.0.1:5432, PostgreSQL, a fresh database whose benchmark account is an administrator
# and doctor with $BENCH_VISITS visits in the last 90 days (default 2,000, about 22 a day),
# the real server on loopback, and bench/loadgen -charting at 1, 8 and 32 clients beside the
# trivial endpoint. Writes bench/CHARTING-LOAD-RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS=${BENCH_REQUESTS:-1000}
VISITS=${BENCH_VISITS:-2000}
PORT=18330
. bench/engines.sh
measure() { # label database-url
  printf '%s\n' "$password" | bin/emr user create --database-url "$2" --username admin --name "Bench Doctor" --role admin --role doctor > /dev/null
  serve_and_load "$1" "$2" "charting=$VISITS"
}
each_engine measure charting
cat > bench/CHARTING-LOAD-RESULTS.md <<MD
# Charting aids under load

Written by \`bench/charting-load.sh\` on $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD), on $(nproc) cores
($(uname -m)); the load generator, the server and the database share the machine. $REQUESTS
requests per row after 20 warm-up requests (the apply row: at most 200, one client). The
account is a doctor with $VISITS visits inside the 90 days "most used" reads (booked from tomorrow
on, 40 a day: the API books no day in the past), each with a diagnosis, a test and
a two-line prescription — what "most used" reads — and two favourites of each kind; the
clinic has its five starter sets and four starter snippets. Latencies are end to end, as the
client sees them; each throughput is also given as a ratio to \`GET /api/user\` measured just
before it at the same concurrency.

$tables
MD
echo "== written bench/CHARTING-LOAD-RESULTS.md"
cat bench/CHARTING-LOAD-RESULTS.md
