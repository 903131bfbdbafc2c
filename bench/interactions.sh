#!/usr/bin/env bash
# Interaction budgets, measured (issue 58): the everyday flow of a doctor at the desk, in
# Chromium at 1× and 4× CPU slowdown (bench/interactions.mjs), for this build and, given a second
# binary (another commit's bin/emr), that one too, serving the same database, taking turns.
# Budgets: every interaction ≤ 200 ms INP at 4×; every screen usable ≤ 1 s after navigation at 4×.
#
# Usage: bench/interactions.sh [OTHER_BIN]   (REPS repetitions, default 3; CPU_RATES, default "1 4")
# Starts bin/emr on a fresh SQLite database with 300 patients and an administrator who is also a
# doctor, a visit in progress today for that doctor (patient 1), a finalised bill on it with a
# large balance (each run takes a payment of 1.00), and the administrator's cash drawer opened.
# Writes bench/INTERACTIONS-RESULTS.md (OUT to write elsewhere) and prints the table.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-18350}
rm -f bench/out/interactions.key
# The database's own secret key, made by the first server, read by the second.
export EMR_SECRET_KEY_FILE=bench/out/interactions.key
export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
. bench/lib.sh
bench_start interactions "$PORT" http
me=$(call GET /api/user | json 'd["id"]')
# Today's visit in progress for the logged-in doctor: the queue shows it with "Diagnosis".
appt=$(call POST /api/appointments "{\"patient_id\":1,\"doctor_id\":$me,\"starts_at\":\"$(date -u +%Y-%m-%dT12:00:00Z)\",\"duration_minutes\":10,\"type\":\"new\"}" | json 'd["id"]')
call POST "/api/appointments/$appt/arrive" '{}' > /dev/null
call POST "/api/appointments/$appt/start" '{}' > /dev/null
# A finalised bill on it, its balance large enough for every payment of the run.
service=$(call POST /api/services '{"code":"BENCH","name":"Bench consultation","category":"consultation","price":100000000}' | json 'd["id"]')
read -r bill version < <(call POST "/api/appointments/$appt/bill/lines" "{\"service_id\":$service,\"quantity\":1}" | json '"%s %s" % (d["id"], d["version"])')
call POST "/api/bills/$bill/finalise" "{\"version\":$version}" > /dev/null
call PUT /api/drawers/float '{"opening_float":0}' > /dev/null
# The patient of the visit (the queue's row) and a search term: the first four letters of the
# first last name on the list's first page that has them in plain ASCII (the search ignores
# accents), typed one key at a time.
visit_name=$(call GET /api/patients/1 | json 'd["last_name"]')
term=$(call GET '/api/patients?per_page=50' | python3 -c '
import json, sys, unicodedata
for p in json.load(sys.stdin)["data"]:
    s = "".join(c for c in unicodedata.normalize("NFKD", p["last_name"]) if c.isascii() and c.isalpha())
    if len(s) >= 4:
        print(s[:4].lower())
        break')
servers=("this=$base")
if [ -n "${1:-}" ]; then
  "$1" serve --database-url "$url" --addr "127.0.0.1:$((PORT + 1))" 2> "$out/server-interactions-other.log" &
  other=$!
  trap 'kill $pid $other 2> /dev/null || true' EXIT
  healthy "http://127.0.0.1:$((PORT + 1))"
  servers+=("before=http://127.0.0.1:$((PORT + 1))")
fi
started=$SECONDS
table=$(BENCH_TERM=$term BENCH_VISIT_NAME=$visit_name node bench/interactions.mjs "$password" "${servers[@]}")
took=$((SECONDS - started))
results=${OUT:-bench/INTERACTIONS-RESULTS.md}
cat > "$results" <<MD
# Interaction budgets, measured

Written by \`bench/interactions.sh${1:+ OTHER_BIN}\` on $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD), on $(nproc) cores
($(uname -m)); Chromium $(${CHROME_PATH} --version 2> /dev/null | awk '{print $2}'), headless, 1366×768, the server and the
browser on the same machine. The machine is shared with other work: timings move from one run
to the next, so only rows of one table (the builds taking turns in the same minutes) compare.
Medians of ${REPS:-3} repetitions (a fresh browser context each, logged in), at 1× and 4× CPU
slowdown (Chromium's own throttling); the run took ${took} s.

- **usable**: from the input (the pointerdown's or the last key's event time) until the screen's
  readiness condition holds and two animation frames have passed (debounces and fetches included).
- **INP**: the longest Event Timing entry (≥ 16 ms; 8 ms steps) of the interaction's events.
- **long tasks**: their total and the longest, from the input until 1.2 s after usable.
- Budgets (issue 58), at 4×: every interaction's INP ≤ 200 ms; a navigation (marked ⇢) usable ≤ 1,000 ms.

$table
MD
cat "$results"
