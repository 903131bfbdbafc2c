#!/usr/bin/env bash
# The public verify page flooded with guesses (bench/README.md, ADR 26): for SQLite and, when
# a server answers at 127.0.0.1:5432, PostgreSQL, a fresh database, the real server on
# loopback behind a "trusted proxy" (so that each guess may come from another /64), and
# bench/loadgen -verify at 1, 8 and 32 clients beside the trivial endpoint, then a patient's
# registration alone and during a flood. Writes bench/VERIFY-RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS=${BENCH_REQUESTS:-2000}
PORT=18320
. bench/engines.sh
flood() { # label database-url
  printf '%s\n' "$password" | bin/emr user create --database-url "$2" --username admin --name "Bench Admin" --role admin > /dev/null
  serve_and_load "$1" "$2" verify --trust-proxy
}
each_engine flood verify
cat > bench/VERIFY-RESULTS.md <<MD
# The public verify page under a flood of guesses

Written by \`bench/verify.sh\` on $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD), on $(nproc) cores
($(uname -m)); the load generator, the server and the database share the machine. $REQUESTS
requests per row after 20 warm-up requests, all of an unknown code. The limits live in the
database (ADR 26): a look-up first reads both limits (its address block's, everyone's) and is
refused from those reads when either is spent; only one they allow takes its two slots (two
upserts). "One address" is refused after its 20; "a new /64 each" passes its block's limit and
meets the limit for everyone (2,000 per 10 minutes) instead.
Latencies are end to end; each throughput is also a ratio to \`GET /api/user\` measured just
before it at the same concurrency. The last two rows are what the clinic's staff feel while
someone guesses: a patient's registration (a write, meeting the flood's writes) by one client,
$((REQUESTS / 10)) times alone and $((REQUESTS / 10)) times while 32 clients flood from new /64s.

$tables
MD
echo "== written bench/VERIFY-RESULTS.md"
cat bench/VERIFY-RESULTS.md
