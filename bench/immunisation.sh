#!/usr/bin/env bash
# The clinic's immunisation due list at 20,000 children and one child's forecast (issue 59;
# bench/README.md): for SQLite and, when a server answers at 127.0.0.1:5432, PostgreSQL, a
# fresh database with BENCH_CHILDREN patients (emr seed) made children (birth dates over
# 0–18 years) with eight antigens' next doses each in the due table, as the forecast keeps it;
# ANALYZE, the plans of the list's queries (EXPLAIN), then the real server on loopback and
# bench/loadgen -immunisation at 8 and 32 clients beside the trivial endpoint; and the Go
# benchmark of one child's forecast as every write of the record runs it. Writes
# bench/IMMUNISATION-RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS=${BENCH_REQUESTS:-1000}
CHILDREN=${BENCH_CHILDREN:-20000}
PORT=18320
. bench/engines.sh
plans=""

# The due rows: eight antigens, each due some days after birth (a spread per child), overdue a
# month later. The same statement on both engines but for the date arithmetic.
antigens="WITH a(antigen, dose, days) AS (VALUES ('measles', 2, 540), ('polio', 3, 120), ('diphtheria', 4, 540), ('pertussis', 4, 540),
  ('tetanus', 4, 540), ('hepb', 3, 180), ('hib', 3, 120), ('pneumococcal', 3, 120))"

# The list's queries as the server sends them: the first page of all, the overdue count (capped), and one
# antigen's overdue children of a band (the arguments written in).
list_sql() { # today eighteen-years-ago one-year-ago two-years-ago
  cat <<SQL
SELECT d.patient_id, d.birth_date, d.antigen, d.dose_number, d.due_on, d.overdue_on, r.sent_at
 FROM immunisation_due d LEFT JOIN immunisation_reminders r ON r.patient_id = d.patient_id AND r.antigen = d.antigen AND r.dose_number = d.dose_number
 WHERE d.archived = FALSE AND (d.latest_on = '' OR d.latest_on >= '$1') AND NOT (d.birth_date <= '$2') AND d.due_on <= '$1'
 ORDER BY d.due_on, d.patient_id, d.antigen LIMIT 51;
SELECT COUNT(*) FROM (SELECT 1 FROM immunisation_due d
 WHERE d.archived = FALSE AND (d.latest_on = '' OR d.latest_on >= '$1') AND NOT (d.birth_date <= '$2') AND NOT (d.due_on > '$1') AND d.overdue_on <= '$1' LIMIT 1001) c;
SELECT COUNT(*) FROM (SELECT 1 FROM immunisation_due d
 WHERE d.archived = FALSE AND (d.latest_on = '' OR d.latest_on >= '$1') AND NOT (d.birth_date <= '$2') AND NOT (d.due_on > '$1') AND d.overdue_on > '$1' LIMIT 1001) c;
WITH band AS MATERIALIZED (SELECT * FROM immunisation_due WHERE archived = FALSE AND antigen = 'measles' AND birth_date > '$4' AND birth_date <= '$3') SELECT d.patient_id, d.birth_date, d.antigen, d.dose_number, d.due_on, d.overdue_on, r.sent_at
 FROM band d LEFT JOIN immunisation_reminders r ON r.patient_id = d.patient_id AND r.antigen = d.antigen AND r.dose_number = d.dose_number
 WHERE d.archived = FALSE AND (d.latest_on = '' OR d.latest_on >= '$1') AND NOT (d.birth_date <= '$2') AND d.antigen = 'measles'
 AND d.birth_date > '$4' AND d.birth_date <= '$3' AND d.due_on <= '$1' AND d.overdue_on <= '$1'
 ORDER BY d.due_on, d.patient_id, d.antigen LIMIT 51;
SELECT d.patient_id, d.birth_date, d.antigen, d.dose_number, d.due_on, d.overdue_on, r.sent_at
 FROM immunisation_due d LEFT JOIN immunisation_reminders r ON r.patient_id = d.patient_id AND r.antigen = d.antigen AND r.dose_number = d.dose_number
 WHERE d.archived = FALSE AND (d.latest_on = '' OR d.latest_on >= '$1') AND NOT (d.birth_date <= '$2') AND d.due_on <= '$1' AND d.overdue_on > '$1'
 ORDER BY d.overdue_on, d.patient_id, d.antigen LIMIT 51;
WITH band AS MATERIALIZED (SELECT * FROM immunisation_due WHERE archived = FALSE AND birth_date > '$4' AND birth_date <= '$3') SELECT d.patient_id, d.birth_date, d.antigen, d.dose_number, d.due_on, d.overdue_on, r.sent_at
 FROM band d LEFT JOIN immunisation_reminders r ON r.patient_id = d.patient_id AND r.antigen = d.antigen AND r.dose_number = d.dose_number
 WHERE d.archived = FALSE AND (d.latest_on = '' OR d.latest_on >= '$1') AND NOT (d.birth_date <= '$2')
 AND d.birth_date > '$4' AND d.birth_date <= '$3' AND d.due_on <= '$1'
 ORDER BY d.due_on, d.patient_id, d.antigen LIMIT 51;
SQL
}

measure() { # label database-url
  printf '%s\n' "$password" | bin/emr user create --database-url "$2" --username admin --name "Bench Admin" --role admin > /dev/null
  bin/emr seed --database-url "$2" --patients "$CHILDREN" 2>&1 | tr '\r' '\n' | tail -1
  local today eighteen one two
  today=$(date -u +%F); eighteen=$(date -u -d '18 years ago' +%F); one=$(date -u -d '1 year ago' +%F); two=$(date -u -d '2 years ago' +%F)
  if [[ $2 == sqlite:* ]]; then
    local file=${2#sqlite:}
    sqlite3 "$file" "UPDATE patients SET birth_date = date('now', '-' || (abs(random()) % 6570) || ' days');
      DELETE FROM immunisation_due; $antigens INSERT INTO immunisation_due (patient_id, antigen, dose_number, schedule, earliest_on, due_on, overdue_on, birth_date, archived)
      SELECT p.id, a.antigen, a.dose, 'who', date(p.birth_date, '+' || a.days || ' days'), date(p.birth_date, '+' || (a.days + p.id % 200) || ' days'),
        date(p.birth_date, '+' || (a.days + p.id % 200 + 30) || ' days'), p.birth_date, p.archived_at IS NOT NULL FROM patients p CROSS JOIN a; ANALYZE;"
    plans+="### $1"$'\n\n```\n'"$(list_sql "$today" "$eighteen" "$one" "$two" | sed -E 's/^(SELECT|WITH)/EXPLAIN QUERY PLAN \1/' | sqlite3 "$file")"$'\n```\n\n'
  else
    local db=${2%%\?*}
    psql -q "$db" -c "UPDATE patients SET birth_date = (current_date - (random() * 6570)::int)::text" \
      -c "DELETE FROM immunisation_due" \
      -c "$antigens INSERT INTO immunisation_due (patient_id, antigen, dose_number, schedule, earliest_on, due_on, overdue_on, birth_date, archived)
      SELECT p.id, a.antigen, a.dose, 'who', (p.birth_date::date + a.days)::text, (p.birth_date::date + a.days + (p.id % 200)::int)::text,
        (p.birth_date::date + a.days + (p.id % 200)::int + 30)::text, p.birth_date, p.archived_at IS NOT NULL FROM patients p CROSS JOIN a" -c ANALYZE
    plans+="### $1"$'\n\n```\n'"$(list_sql "$today" "$eighteen" "$one" "$two" | sed -E 's/^(SELECT|WITH)/EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) \1/' | psql -q -A -t "$db")"$'\n```\n\n'
  fi
  serve_and_load "$1" "$2" "immunisation=$CHILDREN"
}
each_engine measure immunisation
gobench=$(EMR_TEST_POSTGRES_URL=${EMR_TEST_POSTGRES_URL:-postgres://root@127.0.0.1:5432/test?sslmode=disable} \
  go test -run '^$' -bench RefreshDue -benchtime 2000x ./internal/immunisation/ 2>&1 | grep -E '^Benchmark')
cat > bench/IMMUNISATION-RESULTS.md <<MD
# The immunisation due list at $CHILDREN children, and one child's forecast

Written by \`bench/immunisation.sh\` on $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD), on $(nproc) cores
($(uname -m)); the load generator, the server and the database share the machine. $CHILDREN
patients made children (birth dates spread over 0–18 years), each with eight antigens' next
doses in the due table (160,000 rows), as the forecast keeps it; statistics refreshed
(ANALYZE) before measuring. $REQUESTS requests per row after 20 warm-up requests. Latencies
are end to end, as the client sees them; each throughput is also given as a ratio to
\`GET /api/user\` measured just before it at the same concurrency.

$tables
## One child's forecast, as every write of the record runs it (Go benchmark)

The child and the record read (12 doses, one refusal), the forecast under the clinic's
schedules, the child's due rows written again, in one transaction:

\`\`\`
$gobench
\`\`\`

## The plans (after ANALYZE)

$plans
MD
echo "== written bench/IMMUNISATION-RESULTS.md"
