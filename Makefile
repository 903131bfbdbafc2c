# EMR — make run starts the app; make test runs every test. See README.md.
GO      ?= go
BIN     := bin/emr
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
WEB_SRC := $(shell find web/src web/public -type f 2>/dev/null) web/index.html web/vite.config.ts web/package.json
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: run build web test test-lane-go test-lane-browser budgets test-go test-web test-static test-e2e test-budget lint bench bench-push clean screenshots

## run: build everything and start the app on ./data/emr.db, with demo staff on first start
run: build
	./$(BIN) serve --demo

## build: the web app, then the emr binary that embeds it
build: web/dist/app/index.html
	@sh tools/timed.sh "Go build" $(GO) build -trimpath -ldflags "-s -w -X main.version=$(VERSION)" -o $(BIN) ./cmd/emr

web: web/dist/app/index.html

web/node_modules/.installed: web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund
	touch $@

web/dist/app/index.html: web/node_modules/.installed $(WEB_SRC)
	@cd web && sh ../tools/timed.sh "web build" npm run build

## test: every check — the static ones of make lint, Go (SQLite, and PostgreSQL when
## EMR_TEST_POSTGRES_URL is set), Vitest, Playwright
# The build first, alone; then two lanes. The browser tests are the longest chain (one
# browser, one server, one test after another), so they start at once, with the byte budgets
# after them; beside them the Go tests, then Vitest, then the static checks. Nothing in one
# lane builds what the other reads (the build ran before both), and the TypeScript compiler
# never runs twice at once (the build's ended before the static checks start). Each part's
# output is printed whole when it ends; `make test` fails if either lane does.
test: build
	@$(MAKE) --no-print-directory -j2 -O test-lane-go test-lane-browser

test-lane-go:
	@$(MAKE) --no-print-directory test-go
	@$(MAKE) --no-print-directory test-web
	@sh tools/timed.sh "static checks (make lint)" $(MAKE) --no-print-directory lint

test-lane-browser:
	@cd web && sh ../tools/timed.sh Playwright sh e2e/run.sh
	@$(MAKE) --no-print-directory budgets

test-go:
	@if [ -z "$$EMR_TEST_POSTGRES_URL" ]; then echo "Go tests on SQLite only (set EMR_TEST_POSTGRES_URL to add PostgreSQL)"; \
	else echo "Go tests on SQLite and PostgreSQL"; fi
	@sh tools/timed.sh "Go tests" $(GO) test -count=1 -timeout 20m ./...

test-web: web/node_modules/.installed
	@cd web && sh ../tools/timed.sh Vitest npx vitest run

# The static checks after the build: both run the TypeScript compiler on the same project,
# which must not run twice at once.
test-static: build
	@sh tools/timed.sh "static checks (make lint)" $(MAKE) --no-print-directory lint

test-e2e: build
	@cd web && sh ../tools/timed.sh Playwright sh e2e/run.sh

# The login page's JavaScript size budget, the message link page's (ADR 42), the booking
# page's (ADR 43), the patient portal's (ADR 44), and each everyday screen's JavaScript and CSS
# (bytes, not time: deterministic).
test-budget: build
	@$(MAKE) --no-print-directory budgets

budgets:
	node bench/login-js-size.mjs web/dist/app > /dev/null
	for page in link book portal; do node bench/patient-page-size.mjs $$page web/dist/app > /dev/null || exit 1; done
	node bench/screen-bytes.mjs web/dist/app > /dev/null

## lint: gofmt, go vet, staticcheck, oxlint, tsc, OpenAPI
lint: web/node_modules/.installed
	@out=$$(gofmt -l cmd internal web/embed.go); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	cd web && npm run lint
	@# The API contract must be valid OpenAPI 3.1 (errors fail; style warnings are shown).
	cd web && npx redocly lint ../api/openapi.yaml --format=summary

## bench: the performance budgets in bench/ (see bench/README.md)
bench: build
	./bench/run

## bench-push: live event delivery to 1,000 sockets (see bench/README.md)
bench-push: build
	./bench/run-push

clean:
	rm -rf bin web/dist/app web/test-results web/.e2e

## screenshots: every screen, desktop and phone, in the four languages, into web/test-results/screens
screenshots: build
	cd web && EMR_SCREENSHOTS=1 npx playwright test screenshots
