#!/bin/sh
# Starts the real emr binary on a fresh SQLite database with one account per role, all
# with the run's password ($EMR_E2E_PASSWORD), for the end-to-end tests.
set -eu
port=$1
dir=.e2e/$port
rm -rf "$dir"
mkdir -p "$dir"
# The run's own key file (the default place, /etc/emr/keys or ~/.config/emr/keys, is the machine's).
export EMR_SECRET_KEY_FILE="$PWD/$dir/emr.key"
db="sqlite:$dir/emr.db"
# A role without any permission, for testing what such a user can and cannot reach.
../bin/emr migrate --database-url "$db" 2>/dev/null
python3 - "$dir/emr.db" <<'PY'
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
con.execute("INSERT INTO roles (name) VALUES ('visitor')")
con.commit()
PY
for role in admin doctor nurse receptionist visitor; do
  printf '%s\n' "$EMR_E2E_PASSWORD" | ../bin/emr user create --database-url "$db" --username "$role" --name "E2E $role" --role "$role"
done
# Screenshots show a clinic with a history (the dashboard's charts), not an empty database:
# 15,000 appointments are 10 a day over the seeder's 1,500 days, up to a month ahead.
if [ -n "${EMR_SCREENSHOTS:-}" ]; then
  ../bin/emr seed --database-url "$db" --patients 2000 --appointments 15000 > /dev/null 2>&1
fi
# A local mail server (cmd/mailsink) takes the product's e-mail and writes each message into
# $dir/mail, where the patient-message test reads it; --smtp-url points at it (no TLS: it is on
# this machine). It runs in this process group, which the test runner ends with the server.
go build -o "$dir/mailsink" ../cmd/mailsink
# Its port must be free: a stray mail server left by an earlier run would take the messages
# and every mail test would wait for one that never comes. The run stops here instead.
python3 - "$((port + 6))" <<'PY'
import socket, sys
s = socket.socket()
try:
    s.bind(("127.0.0.1", int(sys.argv[1])))
except OSError as e:
    sys.exit(f"the test mail server's port {sys.argv[1]} is taken ({e}): stop what holds it (a mailsink left by an earlier run?)")
s.close()
PY
"$dir/mailsink" --addr "127.0.0.1:$((port + 6))" --dir "$dir/mail" 2>>"$dir/mailsink.log" &
# The settings panel is off by default (a Go test checks that); on here so its tests can use it.
# Request logs go to a file (read it when a test fails), not into the test output.
# Scheduled backups into the run's folder, encrypted to a test key whose private half no test
# needs: the first is written at start (the Backups screen).
# A SMART app's origin may call the FHIR API (fhir-smart.spec.ts: e2e/ports.ts's appPort).
exec ../bin/emr serve --database-url "$db" --addr "127.0.0.1:$port" --show-settings --backup-dir "$dir/backups" --cors-origin "http://localhost:$((port + 5))" \
  --smtp-url "smtp://127.0.0.1:$((port + 6))" --smtp-from emr@clinic.test \
  --backup-recipient age13phs3pgp0z9ztdce7ktm7g5r4e8m3plskjfmc4he9jeag285a58qj84qx8 2>>"$dir/server.log"
