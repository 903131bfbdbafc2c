# Sourced by the load scripts (safety.sh, verify.sh) from the project's root, with PORT and
# REQUESTS set: builds the load generator (and emr, when missing), and gives the real server
# on each engine with the load generator against it; the tables gather in $tables.
out=bench/out
mkdir -p "$out"
go build -o bin/loadgen ./bench/loadgen
[ -x bin/emr ] || make build
password="load-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
tables=""

# serve_and_load LABEL URL MODE [serve flags…]: starts `emr serve` on URL, waits for it,
# ANALYZEs PostgreSQL, appends `bin/loadgen -MODE`'s table to $tables, and stops the server.
serve_and_load() {
  local label=$1 url=$2 mode=$3
  shift 3
  EMR_SECRET_KEY_FILE="$out/emr.key" bin/emr serve --database-url "$url" --addr "127.0.0.1:$PORT" "$@" 2> "$out/server-$mode-$label.log" > /dev/null &
  local pid=$!
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$PORT/api/health" > /dev/null && break; sleep 0.2; done
  if [[ $url == postgres* ]]; then psql -q "${url%%\?*}" -c ANALYZE; fi
  tables+="$(EMR_BENCH_PASSWORD=$password bin/loadgen -url "http://127.0.0.1:$PORT" -label "$label" -requests "$REQUESTS" "-$mode")"$'\n\n'
  kill "$pid"; wait "$pid" 2> /dev/null || true
  rm -f "$out/emr.key"
}

# each_engine FN NAME: FN SQLite on $out/NAME.db, then, when PostgreSQL answers on
# 127.0.0.1:5432, FN PostgreSQL on a throw-away database dropped at exit.
each_engine() {
  local fn=$1 name=$2
  rm -f "$out/$name".db*
  echo "== SQLite"
  "$fn" SQLite "sqlite:$out/$name.db"
  if pg_isready -q -h 127.0.0.1 -p 5432 2> /dev/null; then
    echo "== PostgreSQL"
    db="emr_${name}_$$"
    psql -q -h 127.0.0.1 -U root -d postgres -c "CREATE DATABASE $db"
    trap 'psql -q -h 127.0.0.1 -U root -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)"' EXIT
    "$fn" PostgreSQL "postgres://root@127.0.0.1:5432/$db?sslmode=disable"
  fi
}
