#!/usr/bin/env bash
# Before/after on the same data (bench/README.md, issue 19): the patient, appointment and audit
# scenarios at 1, 8 and 32 clients, against two binaries built beforehand:
#   git worktree add /tmp/before bcc1679 && (cd /tmp/before && go build -o /tmp/emr-before ./cmd/emr)
#   go build -o /tmp/emr-after ./cmd/emr && go build -o /tmp/loadgen-after ./bench/loadgen
# Traffic goes to 127.0.0.1 only; each run is bounded by its request count.
set -euo pipefail
D=/tmp/benchq; rm -rf $D; mkdir -p $D
pw="load-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
printf '%s\n' "$pw" | /tmp/emr-after user create --database-url sqlite:$D/seed.db --username admin --name "Bench Admin" --role admin > /dev/null
/tmp/emr-after seed --database-url sqlite:$D/seed.db --patients 100000 2>&1 | tr '\r' '\n' | tail -1
/tmp/emr-after seed --database-url sqlite:$D/seed.db --appointments 300000 2>&1 | tr '\r' '\n' | tail -1
/tmp/emr-after seed --database-url sqlite:$D/seed.db --audit-events 100000 2>&1 | tr '\r' '\n' | tail -1
for bin in before after; do
  cp $D/seed.db $D/$bin.db
  /tmp/emr-$bin serve --database-url sqlite:$D/$bin.db --addr 127.0.0.1:18310 2> $D/$bin.log &
  pid=$!
  for _ in $(seq 100); do curl -fs http://127.0.0.1:18310/api/health > /dev/null && break; sleep 0.2; done
  for w in 1 8 32; do
    /tmp/loadgen-after -url http://127.0.0.1:18310 -password "$pw" -patients 100000 -appointments -audit 100000 -requests 2000 -workers $w -label "$bin, $w clients"
  done
  kill $pid; wait $pid 2>/dev/null || true
done
