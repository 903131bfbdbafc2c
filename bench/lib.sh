# The start the browser benchmarks share (bench/interactions.sh, bench/lighthouse.sh), sourced
# from the repository's root.
#
# bench_start NAME PORT SCHEME [serve flags…]: a fresh SQLite database bench/out/NAME.db with an
# administrator who is also a doctor (user admin, password in $password) and 300 seeded
# patients, served by bin/emr on 127.0.0.1:PORT (its pid in $pid, stopped when the script
# exits; its address in $base; the database in $url), and logged in through the cookie jar
# bench/out/NAME.cookies, which `call METHOD PATH [JSON]` then speaks through (the XSRF header
# taken from the jar). `json EXPR` prints EXPR of the JSON on standard input (d is the value).
# `healthy URL` waits until a server answers there.

# The benchmarks' certificates are made for the run and trusted by no one.
curl() { command curl -k "$@"; }

healthy() {
  for _ in $(seq 100); do curl -fs "$1/api/health" > /dev/null && return 0; sleep 0.2; done
  echo "no server answered at $1" >&2
  return 1
}

bench_start() {
  local name=$1 port=$2 scheme=$3
  shift 3
  out=bench/out
  mkdir -p "$out"
  rm -f "$out/$name".db*
  password="load-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
  url="sqlite:$out/$name.db"
  bin/emr migrate --database-url "$url" 2> /dev/null
  printf '%s\n' "$password" | bin/emr user create --database-url "$url" --username admin --name "Bench Admin" --role admin --role doctor > /dev/null
  bin/emr seed --database-url "$url" --patients 300 > /dev/null 2>&1
  bin/emr serve --database-url "$url" --addr "127.0.0.1:$port" "$@" 2> "$out/server-$name.log" &
  pid=$!
  trap 'kill $pid 2> /dev/null || true' EXIT
  base="$scheme://127.0.0.1:$port"
  healthy "$base"
  jar="$out/$name.cookies"
  rm -f "$jar"
  curl -fs -c "$jar" -b "$jar" "$base/api/sanctum/csrf-cookie" > /dev/null
  call POST /api/auth/login "{\"username\":\"admin\",\"password\":\"$password\"}" > /dev/null
}

xsrf() { awk '$6 ~ /XSRF-TOKEN$/ { print $7 }' "$jar" | python3 -c 'import sys, urllib.parse; print(urllib.parse.unquote(sys.stdin.read().strip()))'; }

call() { # method path [json]
  curl -fs -c "$jar" -b "$jar" -X "$1" -H "X-XSRF-TOKEN: $(xsrf)" -H 'Content-Type: application/json' ${3:+--data "$3"} "$base$2"
}

json() { python3 -c "import json, sys; d = json.load(sys.stdin); print($1)"; }
