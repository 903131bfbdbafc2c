#!/usr/bin/env bash
# Charting effort (issue 37): how many clicks and keystrokes a doctor spends charting a routine
# hypertension follow-up — vitals, complaint, examination, diagnosis, one test, plan and
# follow-up, two medicines, signed — and the time from opening the visit to its signature.
# Runs web/e2e/charting-bench.spec.ts (left out of make test) RUNS times against the real
# server, once typed the old way and once with an order set, snippets and the keyboard,
# in Chromium, and prints one line of figures for each way a run. Needs `make build` first.
set -euo pipefail
cd "$(dirname "$0")/../web"
runs=${RUNS:-3}
for i in $(seq "$runs"); do
  EMR_BENCH=1 npx playwright test charting-bench.spec.ts --reporter=line 2>&1 | grep -o 'CHARTING {.*}' | sed "s/^CHARTING /run $i: /"
done
