#!/usr/bin/env bash
# The FHIR API beside the native one (bench/README.md): for SQLite and, when a server answers
# at 127.0.0.1:5432, PostgreSQL, a fresh database with $BENCH_PATIENTS patients (default
# 1,000,000), ANALYZEd, the real server on loopback and bench/loadgen -fhir: Patient search
# and read at 1, 8 and 32 clients, FHIR and native in the same run; a 1,000-entry batch against
# 1,000 single creates; a bulk export of every patient with its throughput and the server's
# memory. Writes bench/FHIR-RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS=${BENCH_REQUESTS:-1000}
PATIENTS=${BENCH_PATIENTS:-1000000}
PORT=18340
. bench/engines.sh
measure() { # label database-url
  local label=$1 url=$2
  printf '%s\n' "$password" | bin/emr user create --database-url "$url" --username admin --name "Bench Admin" --role admin > /dev/null
  # A doctor to book with: the transaction rows book each new patient.
  printf '%s\n' "$password" | bin/emr user create --database-url "$url" --username doctor --name "Bench Doctor" --role doctor > /dev/null
  echo "seeding $PATIENTS patients…"
  /usr/bin/time -f "seeded in %e s" bin/emr seed --database-url "$url" --patients "$PATIENTS" > /dev/null 2> "$out/seed-fhir-$label.log" || { tail "$out/seed-fhir-$label.log"; exit 1; }
  tail -1 "$out/seed-fhir-$label.log"
  EMR_SECRET_KEY_FILE="$out/emr.key" bin/emr serve --database-url "$url" --addr "127.0.0.1:$PORT" 2> "$out/server-fhir-$label.log" > /dev/null &
  local pid=$!
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$PORT/api/health" > /dev/null && break; sleep 0.2; done
  if [[ $url == postgres* ]]; then psql -q "${url%%\?*}" -c ANALYZE; fi
  tables+="$(EMR_BENCH_PASSWORD=$password bin/loadgen -url "http://127.0.0.1:$PORT" -label "$label" -requests "$REQUESTS" -patients "$PATIENTS" -fhir -server-pid "$pid")"$'\n\n'
  kill "$pid"; wait "$pid" 2> /dev/null || true
  rm -f "$out/emr.key"
}
each_engine measure fhir
cat > bench/FHIR-RESULTS.md <<MD
# The FHIR API beside the native one

Written by \`bench/fhir.sh\` on $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD), on $(nproc) cores
($(uname -m)); the load generator, the server and the database share the machine. $PATIENTS
patients (\`emr seed\`), ANALYZEd on PostgreSQL. $REQUESTS requests per row after 20 warm-up
requests; the native rows as a logged-in session, the FHIR rows with an API token of the same
account; each native and FHIR pair measured one after the other at the same concurrency, beside
\`GET /api/user\` (the ceiling). Latencies are end to end, as the client sees them. The budget:
a FHIR row's rate within 20 % of its native row's (a ratio of 0.80 or more).

$tables
MD
echo "== written bench/FHIR-RESULTS.md"
cat bench/FHIR-RESULTS.md
