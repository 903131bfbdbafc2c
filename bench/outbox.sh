#!/usr/bin/env bash
# The message outbox under 10,000 due reminders (bench/README.md, ADR 42): for SQLite and,
# when a server answers at 127.0.0.1:5432, PostgreSQL, a fresh database, half the reminders by
# e-mail to a local SMTP sink and half by SMS to a local HTTP gateway, two senders racing.
# Writes bench/OUTBOX-RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${BENCH_REMINDERS:-10000}
out=bench/out
mkdir -p "$out"
go build -o bin/outbox-bench ./bench/outbox
rows=""
measure() { # label database-url
  rows+="$(bin/outbox-bench -database-url "$2" -label "$1" -n "$N")"$'\n'
}
rm -f "$out"/outbox.db*
measure SQLite "sqlite:$out/outbox.db"
if pg_isready -q -h 127.0.0.1 -p 5432 2> /dev/null; then
  db="emr_outbox_$$"
  psql -q -h 127.0.0.1 -U root -d postgres -c "CREATE DATABASE $db"
  trap 'psql -q -h 127.0.0.1 -U root -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)"' EXIT
  measure PostgreSQL "postgres://root@127.0.0.1:5432/$db?sslmode=disable"
fi
cat > bench/OUTBOX-RESULTS.md <<MD
# The message outbox under 10,000 due reminders

Written by \`bench/outbox.sh\` on $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD), on $(nproc) cores
($(uname -m)); the senders, the SMTP sink, the SMS gateway and the database share the machine.
$N reminders, all due, are written into the outbox (1,000 a transaction, as the appointment
hook writes them), half by e-mail and half by SMS; then two senders (two instances) send them
with the product's \`mail.Outbox.SendDue\` — each message claimed under a lease, handed over, and
marked sent — to a local SMTP server (one conversation a message) and a local HTTP gateway
(one POST a message). "Once" checks that every message was received exactly once (by its
Message-ID or idempotency key), that all are marked sent and none twice. Memory: the Go heap's
peak while sending (sampled every 20 ms) and the process's peak resident set.

| engine | reminders | senders | written s | sent in s | messages/s | peak heap MB | peak RSS MB | each sent once |
|---|---|---|---|---|---|---|---|---|
$rows
MD
echo "== written bench/OUTBOX-RESULTS.md"
cat bench/OUTBOX-RESULTS.md
