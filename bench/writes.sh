#!/usr/bin/env bash
# The everyday writes (bench/README.md, "Writes"; results in bench/WRITES-RESULTS.md): a
# registration with a phone, a visit's draft saved, a prescription and a payment, each alone
# at 8 and 32 clients after the trivial endpoint (GET /api/user) at the same concurrency, on
# a register of $BENCH_PATIENTS (default 100,000) patients, SQLite and, when it answers, the
# local PostgreSQL. Every change to a write path reruns it and writes down the ratios.
#
# The register is seeded once (bench/out/writes-seed.db and the PostgreSQL database
# emr_bench_writes_seed, kept for the next run; WRITES_RESEED=1 seeds again) and each run
# serves a copy of it, so two builds measure the same data: EMR_BIN=/tmp/emr-before
# bench/writes.sh measures another build; ENGINES=postgres one engine. A few minutes per engine.
#
# Then the statements of one of each write, from bench/stmtprofile, on the same copy.
set -euo pipefail
cd "$(dirname "$0")/.."
P=${BENCH_PATIENTS:-100000}
REQUESTS=${BENCH_REQUESTS:-1000}
CLIENTS=${BENCH_CLIENTS:-8,32}
PORT=18350
out=$PWD/bench/out
mkdir -p "$out"
pg=postgres://root@127.0.0.1:5432
go build -o bin/loadgen ./bench/loadgen
EMR=${EMR_BIN:-}
if [ -z "$EMR" ]; then
  go build -o bin/emr ./cmd/emr
  EMR=bin/emr
fi
engines=sqlite
if pg_isready -q -h 127.0.0.1 -p 5432 2> /dev/null; then engines="sqlite postgres"; fi
engines=${ENGINES:-$engines}

seed() { # url
  local url=$1 pw
  pw=$(cat "$out/writes-pw")
  "$EMR" migrate --database-url "$url" > /dev/null 2>&1
  printf '%s\n%s\n' "$pw" "$pw" | "$EMR" user create --database-url "$url" --username deskadmin --name "Desk Head" --role admin > /dev/null
  printf '%s\n%s\n' "$pw" "$pw" | "$EMR" user create --database-url "$url" --username deskdoctor --name "Minh Ha" --role doctor > /dev/null
  "$EMR" seed --database-url "$url" --patients "$P" > /dev/null 2>&1
}

if [ "${WRITES_RESEED:-}" = 1 ] || [ ! -f "$out/writes-seed.db" ] || [ ! -f "$out/writes-pw" ]; then
  rm -f "$out"/writes-seed.db*
  echo "q$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')" > "$out/writes-pw"
  seed "sqlite:$out/writes-seed.db"
  if [[ $engines == *postgres* ]]; then
    psql -q -h 127.0.0.1 -U root -d postgres -c "DROP DATABASE IF EXISTS emr_bench_writes_seed" -c "CREATE DATABASE emr_bench_writes_seed"
    seed "$pg/emr_bench_writes_seed?sslmode=disable"
  fi
fi
pw=$(cat "$out/writes-pw")

for engine in $engines; do
  if [ "$engine" = sqlite ]; then
    rm -f "$out"/writes-run.db*
    cp "$out/writes-seed.db" "$out/writes-run.db"
    url="sqlite:$out/writes-run.db"
    label=SQLite
  else
    psql -q -h 127.0.0.1 -U root -d postgres -c "DROP DATABASE IF EXISTS emr_bench_writes_run WITH (FORCE)" -c "CREATE DATABASE emr_bench_writes_run TEMPLATE emr_bench_writes_seed"
    url="$pg/emr_bench_writes_run?sslmode=disable"
    label=PostgreSQL
  fi
  EMR_SECRET_KEY_FILE="$out/writes.key" "$EMR" serve --database-url "$url" --addr "127.0.0.1:$PORT" 2> "$out/server-writes-$engine.log" > /dev/null &
  pid=$!
  trap 'kill $pid 2> /dev/null || true' EXIT
  for _ in $(seq 300); do curl -fs "http://127.0.0.1:$PORT/api/health" > /dev/null && break; sleep 0.2; done
  [ "$engine" = postgres ] && psql -q -h 127.0.0.1 -U root -d emr_bench_writes_run -c ANALYZE
  bin/loadgen -url "http://127.0.0.1:$PORT" -username deskadmin -doctor deskdoctor -password "$pw" -patients "$P" \
    -requests "$REQUESTS" -writes "$CLIENTS" -label "$label"
  echo
  kill "$pid"; wait "$pid" 2> /dev/null || true
  trap - EXIT
  rm -f "$out/writes.key"
  if [ "${WRITES_PROFILE:-1}" = 1 ]; then
    EMR_PROFILE_URL="$url" go test -count=1 -v -run TestProfile ./bench/stmtprofile 2> /dev/null | sed -n '/^Statements of one/,/^--- /p' | grep -v '^--- '
  fi
  [ "$engine" = postgres ] && psql -q -h 127.0.0.1 -U root -d postgres -c "DROP DATABASE IF EXISTS emr_bench_writes_run WITH (FORCE)"
done
