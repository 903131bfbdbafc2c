#!/usr/bin/env bash
# Backup and restore at scale (issue 23; bench/README.md): a clinic of 1,000,000 patients and
# 5,000,000 appointments (with signed visits) is seeded on SQLite and moved onto the local
# PostgreSQL with `emr copy`; then each engine is backed up with `emr backup`, each archive
# checked with `emr backup --verify` and restored with `emr restore` into a new database of
# each engine. Beside each, in the same run, the engine's own tool does the nearest job — the
# SQLite online backup API (Python's sqlite3) and pg_dump/pg_restore in their custom format —
# and each time is also written as a ratio to it, since the machine is noisy. Wall time and
# peak memory (/usr/bin/time) of each command; archive sizes. Writes bench/BACKUP-RESULTS.md.
# SKIP="label …" leaves steps out; REPORT=1 only writes the table from the last run's times.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${DIR:-/tmp/bench-backup}
PATIENTS=${PATIENTS:-1000000}
APPOINTMENTS=${APPOINTMENTS:-5000000}
OUT=${OUT:-bench/BACKUP-RESULTS.md}
pg=postgres://root@127.0.0.1:5432
export PGOPTIONS=--client-min-messages=warning
emr=$PWD/bin/emr
mkdir -p "$DIR"

newpg() { # newpg NAME: a new empty PostgreSQL database, its URL
  psql "$pg/postgres" -q -c "DROP DATABASE IF EXISTS $1 WITH (FORCE)" -c "CREATE DATABASE $1" > /dev/null
  echo "$pg/$1?sslmode=disable"
}

# run LABEL COMMAND…: times the command; appends "seconds peak-MiB" to $DIR/times as LABEL.
run() {
  local label=$1
  shift
  case " ${SKIP:-} " in *" $label "*) echo "$label: skipped" >&2; return ;; esac
  [ -n "${REPORT:-}" ] && return
  /usr/bin/time -f "%e %M" -o "$DIR/time.out" "$@" > "$DIR/$label.log" 2>&1 || { cat "$DIR/$label.log" >&2; exit 1; }
  read -r secs kib < "$DIR/time.out"
  echo "$label $secs $((kib / 1024))" >> "$DIR/times"
  echo "$label: ${secs}s, $((kib / 1024)) MiB" >&2
}
secs() { awk -v l="$1" '$1 == l { print $2 }' "$DIR/times"; }
mib() { awk -v l="$1" '$1 == l { print $3 }' "$DIR/times"; }
size() { if [ -e "$1" ]; then du -m "$1" | cut -f1; fi; }

if [ -z "${REPORT:-}" ] && [ ! -f "$DIR/clinic.db" ]; then
  "$emr" seed --database-url "sqlite:$DIR/seeding.db" --patients "$PATIENTS" --appointments "$APPOINTMENTS" > /dev/null
  mv "$DIR/seeding.db" "$DIR/clinic.db"
fi
[ -n "${REPORT:-}" ] || rm -f "$DIR/times" "$DIR"/*.emr "$DIR"/restored-*.db* "$DIR/online.db" "$DIR/pg.dump"

src_pg=$pg/emr_bench_source?sslmode=disable
[ -n "${REPORT:-}" ] || src_pg=$(newpg emr_bench_source)
run copy-sqlite-to-postgres "$emr" copy --from "sqlite:$DIR/clinic.db" --to "$src_pg"

# Archives are encrypted (docs/adr/0026) to a key pair made for benchmarks alone.
printf '%s\n' "# bench only" "AGE-SECRET-KEY-1T82EQJ3GJ2NKWL54A7UMZQV82JQKHNT0WD38W797SJFHVLK4AZXSESCUX4" > "$DIR/bench-identity.key"
chmod 600 "$DIR/bench-identity.key"
export EMR_BACKUP_RECIPIENTS=age13phs3pgp0z9ztdce7ktm7g5r4e8m3plskjfmc4he9jeag285a58qj84qx8
id="--identity $DIR/bench-identity.key"
run backup-sqlite "$emr" backup --database-url "sqlite:$DIR/clinic.db" --to "$DIR/sqlite.emr"
run baseline-sqlite-online-backup python3 -c "import sqlite3,sys; s=sqlite3.connect(sys.argv[1]); d=sqlite3.connect(sys.argv[2]); s.backup(d); d.close()" "$DIR/clinic.db" "$DIR/online.db"
run backup-postgres "$emr" backup --database-url "$src_pg" --to "$DIR/postgres.emr"
run baseline-pg-dump pg_dump -Fc -Z1 -f "$DIR/pg.dump" "${src_pg%%\?*}"
run verify-sqlite-archive "$emr" backup --verify "$DIR/sqlite.emr" $id

run restore-sqlite-archive-to-sqlite "$emr" restore --from "$DIR/sqlite.emr" $id --database-url "sqlite:$DIR/restored-1.db"
run restore-sqlite-archive-to-postgres "$emr" restore --from "$DIR/sqlite.emr" $id --database-url "$(newpg emr_bench_restore_1)"
run restore-postgres-archive-to-postgres "$emr" restore --from "$DIR/postgres.emr" $id --database-url "$(newpg emr_bench_restore_2)"
run restore-postgres-archive-to-sqlite "$emr" restore --from "$DIR/postgres.emr" $id --database-url "sqlite:$DIR/restored-2.db"
baseline_restore_db=$(newpg emr_bench_pg_restore)
run baseline-pg-restore pg_restore -d "${baseline_restore_db%%\?*}" "$DIR/pg.dump"

rows=$(grep -o '[0-9]* rows in [0-9]* tables' "$DIR/backup-sqlite.log" | head -1)
ratio() { if [ -n "$(secs "$1")" ]; then echo "scale=2; $(secs "$1") / $(secs "$2")" | bc; fi; }
{
  echo "# Backup and restore at scale"
  echo
  echo "Written by \`bench/backup.sh\` on $(date -u +%Y-%m-%d) at $(git rev-parse --short HEAD), on $(nproc) cores: a clinic of $PATIENTS patients and $APPOINTMENTS appointments (with signed visits for the completed ones) seeded on SQLite, $rows. One run; the PostgreSQL server, the commands and the baselines share the machine. Each time is also a ratio to the engine's own tool doing the nearest job in the same run (SQLite's online backup API writes an uncompressed file; \`pg_dump -Fc -Z1\` and \`pg_restore\` its own compressed format). Peak memory is the command's resident set (/usr/bin/time); PostgreSQL's own processes are not in it."
  echo
  echo "| step | seconds | peak MiB | size MiB | ratio to the engine's tool |"
  echo "|---|---|---|---|---|"
  echo "| database file (SQLite) | | | $(size "$DIR/clinic.db") | |"
  echo "| \`emr copy\` SQLite → PostgreSQL | $(secs copy-sqlite-to-postgres) | $(mib copy-sqlite-to-postgres) | | |"
  echo "| \`emr backup\`, SQLite | $(secs backup-sqlite) | $(mib backup-sqlite) | $(size "$DIR/sqlite.emr") | $(ratio backup-sqlite baseline-sqlite-online-backup) |"
  echo "| SQLite online backup API (baseline) | $(secs baseline-sqlite-online-backup) | $(mib baseline-sqlite-online-backup) | $(size "$DIR/online.db") | 1.00 |"
  echo "| \`emr backup\`, PostgreSQL | $(secs backup-postgres) | $(mib backup-postgres) | $(size "$DIR/postgres.emr") | $(ratio backup-postgres baseline-pg-dump) |"
  echo "| \`pg_dump -Fc -Z1\` (baseline) | $(secs baseline-pg-dump) | $(mib baseline-pg-dump) | $(size "$DIR/pg.dump") | 1.00 |"
  echo "| \`emr backup --verify\` (SQLite archive) | $(secs verify-sqlite-archive) | $(mib verify-sqlite-archive) | | |"
  echo "| \`emr restore\` SQLite archive → SQLite | $(secs restore-sqlite-archive-to-sqlite) | $(mib restore-sqlite-archive-to-sqlite) | $(size "$DIR/restored-1.db") | |"
  echo "| \`emr restore\` SQLite archive → PostgreSQL | $(secs restore-sqlite-archive-to-postgres) | $(mib restore-sqlite-archive-to-postgres) | | $(ratio restore-sqlite-archive-to-postgres baseline-pg-restore) |"
  echo "| \`emr restore\` PostgreSQL archive → PostgreSQL | $(secs restore-postgres-archive-to-postgres) | $(mib restore-postgres-archive-to-postgres) | | $(ratio restore-postgres-archive-to-postgres baseline-pg-restore) |"
  echo "| \`emr restore\` PostgreSQL archive → SQLite | $(secs restore-postgres-archive-to-sqlite) | $(mib restore-postgres-archive-to-sqlite) | | |"
  echo "| \`pg_restore\` (baseline) | $(secs baseline-pg-restore) | $(mib baseline-pg-restore) | | 1.00 |"
  echo
  echo "Each restore loads every row, reads every table back and compares it with the archive (count and digest), checks the audit chain's head, rebuilds the search index and numbering, and commits once; then \`emr audit verify\` runs on the result:"
  echo
  echo '```'
  for l in restore-sqlite-archive-to-sqlite restore-sqlite-archive-to-postgres restore-postgres-archive-to-postgres restore-postgres-archive-to-sqlite; do
    if [ -f "$DIR/$l.log" ]; then grep -E "^(loaded|audit verify)" "$DIR/$l.log" || true; fi
  done
  if [ -n "${SKIP:-}" ]; then echo "(left out of this run: $SKIP)"; fi
  echo '```'
} > "$OUT"
[ -n "${REPORT:-}" ] || for db in emr_bench_source emr_bench_restore_1 emr_bench_restore_2 emr_bench_pg_restore; do
  psql "$pg/postgres" -q -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" > /dev/null
done
echo "written to $OUT" >&2
