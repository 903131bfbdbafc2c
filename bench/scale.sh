#!/usr/bin/env bash
# Audited throughput at scale, before and after (bench/README.md, issue 20): the ceiling, then
# chart opens alone, registrations alone and the mixed clinic workload, at 8 and 32 clients,
# on SQLite and PostgreSQL, against databases seeded once with 1,000,000 patients and
# 5,000,000 appointments (bench/run's seeding, into $BIG: sqlite.db, and emr_big on the local
# PostgreSQL), each binary on a copy of its own; then two instances behind nginx on one
# PostgreSQL. Binaries are built beforehand:
#   git worktree add /tmp/before 39cb84f && (cd /tmp/before && go build -o /tmp/emr-before ./cmd/emr)
#   go build -o /tmp/emr-after ./cmd/emr && go build -o bin/loadgen ./bench/loadgen
# Traffic goes to 127.0.0.1 only; each run is bounded by its request count.
set -euo pipefail
cd "$(dirname "$0")/.."
BIG=${BIG:-/tmp/big}
N=${BENCH_REQUESTS:-4000}
BINS=${BINS:-before after}
ENGINES=${ENGINES:-sqlite postgres}
pw=$(cat "$BIG/pw")
PORT=18330
pg=postgres://root@127.0.0.1:5432

wait_up() { for _ in $(seq 300); do curl -fs "http://127.0.0.1:$1/api/health" > /dev/null && return; sleep 0.2; done; echo "no server on $1" >&2; exit 1; }

# measure LABEL PORT SERVER-PIDS: chart opens and registrations alone at 8 clients, the mix at 8 and 32.
measure() {
  local label=$1 port=$2 pids=$3
  for run in "chart 8" "register 8" " 8" " 32"; do
    set -- $run
    local only="" workers=$1
    [ $# -eq 2 ] && only=$1 workers=$2
    bin/loadgen -url "http://127.0.0.1:$port" -password "$pw" -patients 1000000 -mixed -only "$only" \
      -requests "$N" -workers "$workers" -cpu-pids "$pids" -label "$label"
    echo
  done
}

for engine in $ENGINES; do
  for bin in $BINS; do
    if [ "$engine" = sqlite ]; then
      cp "$BIG/sqlite.db" "$BIG/$bin.db"
      url="sqlite:$BIG/$bin.db"
    else
      psql -q -h 127.0.0.1 -U root -d postgres -c "DROP DATABASE IF EXISTS emr_big_$bin" -c "CREATE DATABASE emr_big_$bin TEMPLATE emr_big"
      url="$pg/emr_big_$bin?sslmode=disable"
    fi
    /tmp/emr-$bin serve --database-url "$url" --addr 127.0.0.1:$PORT 2> "$BIG/server-$engine-$bin.log" &
    pid=$!
    wait_up $PORT
    echo "### $engine, $bin"
    echo
    measure "$engine, $bin" $PORT $pid
    kill $pid; wait $pid 2> /dev/null || true
    /tmp/emr-$bin audit verify --database-url "$url" | tail -1
    echo
  done
done

if [[ " $ENGINES " == *" postgres "* && " $BINS " == *" after "* ]]; then
  # Two instances on one PostgreSQL behind nginx (round robin), against one instance behind
  # the same proxy: the same workload, the same database copy.
  psql -q -h 127.0.0.1 -U root -d postgres -c "DROP DATABASE IF EXISTS emr_big_two" -c "CREATE DATABASE emr_big_two TEMPLATE emr_big"
  url="$pg/emr_big_two?sslmode=disable"
  conf=$BIG/nginx.conf
  for n in 1 2; do
    ups="server 127.0.0.1:18341;"
    [ $n = 2 ] && ups="$ups server 127.0.0.1:18342;"
    cat > "$conf" <<CONF
worker_processes 1;
pid $BIG/nginx.pid;
error_log $BIG/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  upstream emr { $ups keepalive 64; }
  server {
    listen 127.0.0.1:18340;
    location / { proxy_pass http://emr; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_set_header Host \$host; }
  }
}
CONF
    pids=""
    for i in $(seq $n); do
      /tmp/emr-after serve --database-url "$url" --addr 127.0.0.1:1834$i 2> "$BIG/server-two-$i.log" &
      pids="$pids${pids:+,}$!"
      wait_up 1834$i
    done
    nginx -c "$conf"
    wait_up 18340
    echo "### PostgreSQL, after, $n instance(s) behind nginx"
    echo
    for w in 8 32; do
      bin/loadgen -url http://127.0.0.1:18340 -password "$pw" -patients 1000000 -mixed -requests "$N" -workers $w \
        -cpu-pids "$pids,$(cat "$BIG/nginx.pid")" -label "PostgreSQL, $n instance(s) behind nginx"
      echo
    done
    nginx -c "$conf" -s stop
    for p in ${pids//,/ }; do kill "$p"; wait "$p" 2> /dev/null || true; done
  done
  /tmp/emr-after audit verify --database-url "$url" | tail -1
fi
