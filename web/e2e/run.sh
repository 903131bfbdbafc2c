#!/bin/sh
# make test's end-to-end run: the accessibility suite and all the others at once, each on
# its own server and database (see playwright.config.ts), so the run takes the time of the
# longer one. The accessibility report follows the others'; the exit code is the worse one.
set -u
log=test-results/accessibility.log
mkdir -p test-results
EMR_E2E_SUITE=accessibility npx playwright test > "$log" 2>&1 &
a11y=$!
npx playwright test "$@"
main=$?
wait "$a11y"
access=$?
echo "== accessibility (every screen, every role, four languages) =="
cat "$log"
[ "$main" -eq 0 ] && [ "$access" -eq 0 ]
