#!/usr/bin/env bash
# A maximal Bundle's memory (bench/README.md): for SQLite and, when a server answers at
# 127.0.0.1:5432, PostgreSQL, a fresh database, the real server on loopback and
# bench/bundle-rss: the server's resident memory (VmRSS, and its peak VmHWM, from /proc)
# before and after a batch of 1,000 new Patients and a batch of 1,000 searches each asking
# for 1,000 (the most a page holds is 100). Writes bench/BUNDLE-RSS-RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=18350
EMR=${EMR_BIN:-bin/emr} # another build to compare with, e.g. one of the commit before
LABEL=${BENCH_LABEL:-}
RESULTS=${BENCH_RESULTS:-bench/BUNDLE-RSS-RESULTS.md}
. bench/engines.sh
go build -o bin/bundle-rss ./bench/bundle-rss
measure() { # label database-url
  local label=$1 url=$2
  printf '%s\n' "$password" | "$EMR" user create --database-url "$url" --username admin --name "Bench Admin" --role admin > /dev/null
  EMR_SECRET_KEY_FILE="$out/emr.key" "$EMR" serve --database-url "$url" --addr "127.0.0.1:$PORT" 2> "$out/server-bundle-$label.log" > /dev/null &
  local pid=$!
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$PORT/api/health" > /dev/null && break; sleep 0.2; done
  tables+="$(EMR_BENCH_PASSWORD=$password bin/bundle-rss -url "http://127.0.0.1:$PORT" -label "$label$LABEL" -server-pid "$pid")"$'\n\n'
  kill "$pid"; wait "$pid" 2> /dev/null || true
  rm -f "$out/emr.key"
}
each_engine measure bundle
cat > "$RESULTS" <<MD
# A maximal Bundle's memory

Written by \`bench/bundle-rss.sh\` on $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD), on $(nproc) cores
($(uname -m)), $(free -m | awk '/Mem:/ {print $2}') MB of memory; the client, the server and the database share the
machine. A fresh database each (1,000 patients after the first batch); one API token of an
administrator; Go's default GOGC. VmHWM is the server's peak resident memory since it started.

$tables
MD
echo "== written $RESULTS"
cat "$RESULTS"
