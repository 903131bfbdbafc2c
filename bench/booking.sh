#!/usr/bin/env bash
# The public booking page's slot search (bench/README.md, ADR 43): for SQLite and, when a
# server answers at 127.0.0.1:5432, PostgreSQL, a fresh database with 50 doctors taking online
# bookings for 60 days (one desk appointment each a day), the real server on loopback behind a
# "trusted proxy" (each search from its own /64, under the read budget), and bench/loadgen
# -booking at 8 and 32 clients beside /api/health. Writes bench/BOOKING-RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS=${BENCH_REQUESTS:-1000}
PORT=18310
. bench/engines.sh
slots() { # label database-url
  printf '%s\n' "$password" | bin/emr user create --database-url "$2" --username admin --name "Bench Admin" --role admin > /dev/null
  for i in $(seq -w 1 50); do
    printf '%s\n' "$password" | bin/emr user create --database-url "$2" --username "doc$i" --name "Doctor $i" --role doctor > /dev/null
  done
  serve_and_load "$1" "$2" booking --trust-proxy
}
each_engine slots booking
cat > bench/BOOKING-RESULTS.md <<MD
# The public booking page's slot search

Written by \`bench/booking.sh\` on $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD), on $(nproc) cores
($(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)); the load generator, the server and the
database share the machine. 50 doctors take online bookings every day 08:00–17:00 (a break
12:00–13:00, 20-minute first visits, 60 days ahead), each with one desk appointment a day for
those 60 days (3,000). $REQUESTS requests per row after 20 warm-up requests, each from a new
/64 and from a random day of the 60: one doctor's 14 days (at most 336 slots), and "any
doctor"'s 7 days (each time once, with the first doctor free then: at most 168). A search
reads the settings once, then one read of the doctors' index ranges of appointments and one of
holds and requests (\`doctor_id IN …\`). Latencies are end to end; each throughput is also a
ratio to the public trivial endpoint \`GET /api/health\` measured just before it at the same
concurrency.

$tables
MD
echo "== written bench/BOOKING-RESULTS.md"
cat bench/BOOKING-RESULTS.md
