#!/bin/sh
# Runs a command and then says how long it took: `make test` names each part's time, so that
# what a run costs, and where, is read from its log (README.md, "Two commands").
# Usage: tools/timed.sh NAME COMMAND [ARG...]
name=$1
shift
start=$(date +%s)
"$@"
rc=$?
echo "time: $name took $(( $(date +%s) - start )) s (exit $rc)"
exit $rc
