#!/bin/sh
# make test's end-to-end run: every spec but the screenshots, in one browser on one server
# (see playwright.config.ts).
exec npx playwright test "$@"
