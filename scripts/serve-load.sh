#!/usr/bin/env bash
# Load test of `ezreport serve` on the 1,000-user generated ledger (loopback only).
# Builds release, generates bench-data/ledger-1000.sqlite once, runs scripts/serve-load.py.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --static-swift-stdlib --product ezreport
mkdir -p bench-data
ledger=bench-data/ledger-1000.sqlite
if [[ ! -f "$ledger" ]]; then
  .build/release/ezreport sample --users 1000 --months 24 --end 2026-10 --seed 1 --out "$ledger"
fi
exec python3 scripts/serve-load.py --bin .build/release/ezreport --db "$ledger" "$@"
