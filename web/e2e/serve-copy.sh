#!/bin/sh
# With PostgreSQL (EMR_TEST_POSTGRES_URL): a clinic seeded on SQLite — 10,000 patients with
# visits, prescriptions, bills and audit events, and an account for the tests — is moved with
# `emr copy` into a new PostgreSQL database, and served from the copy, for copy.spec.ts.
set -eu
port=$1
dir=.e2e/$port
rm -rf "$dir"
mkdir -p "$dir"
# The run's own key file (the default place, /etc/emr/keys or ~/.config/emr/keys, is the machine's).
export EMR_SECRET_KEY_FILE="$PWD/$dir/emr.key"
db="sqlite:$dir/clinic.db"
../bin/emr seed --database-url "$db" --patients 10000 --appointments 20000 --audit-events 20000 --bills 2000 > /dev/null 2>&1
printf '%s\n' "$EMR_E2E_PASSWORD" | ../bin/emr user create --database-url "$db" --username moved --name "E2E moved" --role admin --role doctor > /dev/null
name="emr_e2e_copy_$port"
pg=$(python3 - "$EMR_TEST_POSTGRES_URL" "$name" <<'PY'
import sys, urllib.parse
u = urllib.parse.urlsplit(sys.argv[1])
print(urllib.parse.urlunsplit(u._replace(path="/" + sys.argv[2])))
PY
)
psql "$EMR_TEST_POSTGRES_URL" -q -c "DROP DATABASE IF EXISTS $name WITH (FORCE)" -c "CREATE DATABASE $name"
../bin/emr copy --from "$db" --to "$pg" > "$dir/copy.log" 2>&1
exec ../bin/emr serve --database-url "$pg" --addr "127.0.0.1:$port" 2>>"$dir/server.log"
