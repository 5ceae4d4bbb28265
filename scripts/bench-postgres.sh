#!/usr/bin/env bash
# The monthly batch over PostgreSQL against the same batch over SQLite, on the same generated
# ledger (issue 17's target: within 1.5x of SQLite's time, peak memory under 150 MB).
#
#   scripts/bench-postgres.sh            1,000 users x 24 months, release build, median of BENCH_RUNS (3)
#   BENCH_USERS=50 scripts/bench-postgres.sh   a quicker look
#   BENCH_EZREPORT=path/to/ezreport           use that binary instead of building one
#
# Starts a throw-away PostgreSQL cluster (initdb into a temporary folder, 127.0.0.1, a free port,
# run as nobody when this script runs as root; stopped and removed at the end), fills it with
# `ezreport sample --out postgres://…` (the same rows as the SQLite file), then times
# `ezreport monthly --formats all` over each, each run into a fresh folder. Needs Debian's
# postgresql (scripts/setup.sh --test installs it) and /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."
USERS=${BENCH_USERS:-1000}
RUNS=${BENCH_RUNS:-3}
CONFIG=${BENCH_CONFIG:-release}
DATA=${BENCH_DATA:-bench-data}
PERIOD=2026-10
ASOF=2026-11-01
mkdir -p "$DATA"

if [[ -n ${BENCH_EZREPORT:-} ]]; then
  EZ=$BENCH_EZREPORT   # an ezreport built elsewhere (e.g. --scratch-path), used as is
else
  swift build -c "$CONFIG" --product ezreport >&2
  EZ="$(swift build -c "$CONFIG" --show-bin-path)/ezreport"
fi
LEDGER="$DATA/ledger-$USERS.sqlite"
[[ -f $LEDGER ]] || "$EZ" sample --out "$LEDGER" --users "$USERS" --months 24 --end 2026-10 --seed 1 >&2

BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
PGDIR=$(mktemp -d /tmp/ezreport-bench-pg.XXXXXX)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
export PGPASSWORD="bench-$RANDOM$RANDOM"
printf '%s\n' "$PGPASSWORD" >"$PGDIR/pw"
as_server() { if [[ $(id -u) -eq 0 ]]; then setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"; else "$@"; fi; }
[[ $(id -u) -eq 0 ]] && chown -R nobody:nogroup "$PGDIR"
cleanup() { as_server "$BIN/pg_ctl" -D "$PGDIR/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$PGDIR"; }
trap cleanup EXIT
as_server "$BIN/initdb" -D "$PGDIR/data" -U bench --pwfile="$PGDIR/pw" --auth-host=scram-sha-256 --auth-local=trust \
  -E UTF8 --locale=C.UTF-8 >/dev/null
as_server "$BIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/server.log" -w start \
  -o "-c listen_addresses=127.0.0.1 -p $PORT -k $PGDIR -c shared_buffers=256MB" >/dev/null
psql -X -q -h 127.0.0.1 -p "$PORT" -U bench -d postgres -c "CREATE DATABASE wallet" >/dev/null
URL="postgres://bench@127.0.0.1:$PORT/wallet?sslmode=disable"
"$EZ" sample --out "$URL" --users "$USERS" --months 24 --end 2026-10 --seed 1 >&2
psql -X -q -h 127.0.0.1 -p "$PORT" -U bench -d wallet -c "VACUUM ANALYZE" >/dev/null

# One timed run: prints "seconds peak_kb".
timed() {
  local out=$1; shift
  rm -rf "$out"
  /usr/bin/time -f '%e %M' -o "$DATA/.time" "$EZ" monthly --db "$1" --period "$PERIOD" --as-of "$ASOF" --out "$out" --quiet >/dev/null 2>&1 ||
    [[ $? -eq 3 ]]
  cat "$DATA/.time"
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "date: $(date -u +%Y-%m-%dT%H:%MZ)  commit: $(git rev-parse --short HEAD)  build: $CONFIG  cpus: $(nproc)"
echo "machine: $(lscpu | sed -n 's/^Model name: *//p')  PostgreSQL: $("$BIN/postgres" --version)"
declare -A secs peak
for backend in sqlite postgres; do
  db=$LEDGER; [[ $backend == postgres ]] && db=$URL
  : >"$DATA/.runs"
  for _ in $(seq "$RUNS"); do timed "$DATA/out-$backend" "$db" >>"$DATA/.runs"; done
  secs[$backend]=$(cut -d' ' -f1 "$DATA/.runs" | median)
  peak[$backend]=$(cut -d' ' -f2 "$DATA/.runs" | sort -n | tail -1)
  printf '%-9s monthly, %s users, all formats: median %6.2f s over %s runs, peak RSS %6.1f MB\n' \
    "$backend" "$USERS" "${secs[$backend]}" "$RUNS" "$(python3 -c "print(${peak[$backend]} / 1024)")"
done
printf 'PostgreSQL / SQLite time: %.2fx (target <= 1.5x); peak memory target < 150 MB\n' \
  "$(python3 -c "print(${secs[postgres]} / ${secs[sqlite]})")"
rm -rf "$DATA/out-sqlite" "$DATA/out-postgres" "$DATA/.runs" "$DATA/.time"
