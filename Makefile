# ezreport — the two commands a new user needs are `make demo` and `make test`.
SWIFT ?= swift
SAMPLE := samples/ledger.sqlite
# Release builds link the Swift runtime and Foundation statically: a command starts ~7 ms sooner
# (fewer shared objects to load and bind; see docs/performance.md). Every release build uses the
# same flags, so they share one build folder.
RELEASE := -c release --static-swift-stdlib
BIN_DIR = $(shell $(SWIFT) build -c release --show-bin-path)
EZREPORT = $(BIN_DIR)/ezreport
DEBUG_BIN = $(shell $(SWIFT) build --show-bin-path)
# The demo ledger: 50 users, 24 months ending October 2026; its statement is October's.
SAMPLE_ARGS := --users 50 --months 24 --end 2026-10 --seed 1
DEMO_ARGS := --period 2026-10 --as-of 2026-11-01

.PHONY: demo test setup test-setup build sample bench bench-smoke bench-postgres clean

## demo: install system packages, build (release), create the sample ledger if absent, write its reports to Reports/
demo: setup build sample
	$(EZREPORT) check --db $(SAMPLE) || [ $$? -eq 3 ]
	$(EZREPORT) monthly --db $(SAMPLE) $(DEMO_ARGS) --out Reports
	@echo "Reports written to Reports/2026-10/ (see Reports/README.md)"

## test: the same set-up (packages, build, sample ledger) plus the test readers, then the whole test suite.
## It builds in debug only (the tests' configuration) and makes the sample with that build.
test: test-setup
	$(SWIFT) build --build-tests
	@if [ ! -f $(SAMPLE) ]; then $(DEBUG_BIN)/ezreport sample --out $(SAMPLE) $(SAMPLE_ARGS); fi
	$(SWIFT) test --skip-build --disable-swift-testing

setup:
	@scripts/setup.sh

test-setup:
	@scripts/setup.sh --test

build:
	$(SWIFT) build $(RELEASE) --product ezreport

sample: build
	@if [ ! -f $(SAMPLE) ]; then $(EZREPORT) sample --out $(SAMPLE) $(SAMPLE_ARGS); fi

## bench: benchmarks over generated ledgers of 50, 1,000 and 10,000 users (see docs/performance.md)
bench: setup
	scripts/bench.sh

## bench-smoke: the benchmarks build and run on the 50-user ledger (what CI runs; no timing assertions)
bench-smoke: setup
	scripts/bench.sh --smoke

## bench-postgres: the monthly batch over PostgreSQL vs SQLite on the same 1,000-user ledger (docs/performance.md)
bench-postgres: test-setup
	scripts/bench-postgres.sh

clean:
	rm -rf .build Reports/*/
