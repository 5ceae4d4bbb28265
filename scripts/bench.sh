#!/usr/bin/env bash
# Whole-process benchmarks of ezreport, plus EZBench's in-process measurements.
# See docs/performance.md for what each line means and the targets it is compared with.
#
#   scripts/bench.sh            ledgers of 50, 1,000 and 10,000 users × 24 months (generated once
#                               into bench-data/, reused); medians over repeated runs
#   scripts/bench.sh --smoke    the 50-user ledger only, one run each, no targets (what CI runs);
#                               skips the pandas peer (CI does not install pandas)
#   scripts/bench.sh --peer-only  only the pandas peer against ezreport, run alternately (p1, p2)
#
# Environment: BENCH_SIZES ("50 1000 10000"), BENCH_RUNS (5: export and small batches),
# BENCH_RUNS_LARGE (1: each 10,000-user batch run takes minutes), BENCH_EXPORT_RUNS (11),
# BENCH_EXPORT_USER (42), BENCH_DATA (bench-data), BENCH_LARGE_JOBS1 (1; 0 skips the --jobs 1 run on
# the 10,000-user ledger, the longest single measurement: the speed-up is then read on 1,000 users).
# The pandas peer (scripts/peer/pandas_statements.py; installs with scripts/setup.sh --bench): BENCH_PEER
# (1; 0 skips it), BENCH_PEER_USERS (1000: the ledger of its batch), BENCH_PEER_EXPORT_RUNS (5),
# BENCH_PEER_BATCH_RUNS (1: a peer batch of 1,000 users takes minutes).
set -euo pipefail
cd "$(dirname "$0")/.."

smoke=0 peer_only=0
if [[ "${1:-}" == "--smoke" ]]; then smoke=1; fi
if [[ "${1:-}" == "--peer-only" ]]; then peer_only=1; fi
PEER=${BENCH_PEER:-1}; ((smoke)) && PEER=0
PEER_USERS=${BENCH_PEER_USERS:-1000}
DATA=${BENCH_DATA:-bench-data}
PERIOD=2026-10
ASOF=2026-11-01
if ((smoke)); then
  SIZES=${BENCH_SIZES:-50}; RUNS=1; RUNS_LARGE=1; EXPORT_RUNS=3
else
  SIZES=${BENCH_SIZES:-"50 1000 10000"}; RUNS=${BENCH_RUNS:-5}; RUNS_LARGE=${BENCH_RUNS_LARGE:-1}
  EXPORT_RUNS=${BENCH_EXPORT_RUNS:-11}
fi
EXPORT_USER=${BENCH_EXPORT_USER:-42}
mkdir -p "$DATA"
RESULTS="$DATA/results.txt"
: >"$RESULTS"

# Outputs of earlier runs are moved aside into TRASH and deleted only when every timing is done:
# on this machine's journal-less ext4, creating files soon after many were deleted costs up to
# ~0.5 ms of kernel time per file (ext4 skips recently deleted inodes one by one), which a timed
# run would otherwise pay for the bench's own clean-up. (The default sizes keep ~15 GB until the end.)
TRASH="$DATA/.trash"
retire() { if [[ -e $1 ]]; then mkdir -p "$TRASH"; mv "$1" "$TRASH/$(date +%s%N)"; fi; }
trap 'rm -rf "$TRASH"' EXIT

say() { printf '%s\n' "$*" | tee -a "$RESULTS"; }
row() { printf '%-66s %12s %16s\n' "$1" "$2" "$3"; }

# ---------------------------------------------------------------------------------------------
say "== build (release)"
swift build -c release --static-swift-stdlib --product ezreport >&2
((peer_only)) || swift build -c release --static-swift-stdlib --product EZBench >&2
BIN=$(swift build -c release --show-bin-path)
EZ="$BIN/ezreport"
BENCH="$BIN/EZBench"

say "== machine"
say "date:    $(date -u +%Y-%m-%dT%H:%MZ)   commit: $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
say "cpu:     $(lscpu | sed -n 's/^Model name: *//p' | head -1)"
say "cores:   $(nproc) online   memory: $(free -h | awk '/^Mem:/ {print $2}')   load: $(cut -d' ' -f1-3 /proc/loadavg)"
say "swift:   $(swift --version 2>&1 | head -1)"
say "sqlite3: $(sqlite3 --version | cut -d' ' -f1)"

# ---------------------------------------------------------------------------------------------
say "== ledgers (generated once, reused)"
ledger_sizes=$SIZES
if ((PEER)) && [[ " $SIZES " != *" $PEER_USERS "* ]]; then ledger_sizes="$PEER_USERS $SIZES"; fi
for n in $ledger_sizes; do
  db="$DATA/ledger-$n.sqlite"
  if [[ ! -f "$db" ]]; then
    cmd=("$EZ" sample --out "$db" --users "$n" --months 24 --end "$PERIOD" --seed 1)
    echo "+ ${cmd[*]}" >&2
    "${cmd[@]}" >&2
  fi
  say "$db: $(du -m "$db" | cut -f1) MB, $(sqlite3 "$db" 'SELECT count(*) FROM transactions') transactions, $(sqlite3 "$db" 'SELECT count(*) FROM users WHERE deleted_at IS NULL') live users"
done
LARGEST="$DATA/ledger-${SIZES##* }.sqlite"

# ---------------------------------------------------------------------------------------------
# measure NAME RUNS PREPARE -- CMD…: runs CMD RUNS times (PREPARE, untimed, before each); sets
# MEDIAN (seconds), RSS_MB (peak of the runs) and EXIT. Wall time from the monotonic clock;
# peak RSS from GNU time.
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.4f\n", (a[NR/2]+a[NR/2+1])/2}'; }
# run_once NAME CMD…: one timed run; sets T (seconds) and RSS_KB.
run_once() {
  local name=$1; shift
  local t0 t1 code=0
  t0=$(date +%s%N)
  /usr/bin/time -f %M -o "$DATA/.rss" "$@" >/dev/null 2>"$DATA/.stderr" || code=$?
  t1=$(date +%s%N)
  if ((code != 0 && code != 3)); then
    echo "bench: '$name' exited $code:" >&2; tail -5 "$DATA/.stderr" >&2; exit 1
  fi
  T=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.4f", (b-a)/1e9}')
  RSS_KB=$(tail -1 "$DATA/.rss")
}
measure() {
  local name=$1 runs=$2 prepare=$3; shift 4
  echo "+ $*" >&2
  say "   \$ $*"
  local times=() rss=0 i
  for ((i = 0; i < runs; i++)); do
    eval "$prepare"
    run_once "$name" "$@"
    times+=("$T"); ((RSS_KB > rss)) && rss=$RSS_KB
  done
  MEDIAN=$(printf '%s\n' "${times[@]}" | median)
  RSS_MB=$((rss / 1024))
  say "   runs: ${times[*]} s   median $MEDIAN s   peak RSS $RSS_MB MB"
}
# alternate RUNS PREPARE: runs the arrays A_CMD (ezreport) and B_CMD (the peer) one after the other,
# RUNS times each (PREPARE, untimed, before every run), so both see the same load on this shared
# machine; sets MEDIAN_A, MEDIAN_B, RSS_A_MB, RSS_B_MB.
alternate() {
  local runs=$1 prepare=$2 i ta=() tb=() ra=0 rb=0
  say "   \$ ${A_CMD[*]}"
  say "   \$ ${B_CMD[*]}"
  for ((i = 0; i < runs; i++)); do
    eval "$prepare"; run_once ezreport "${A_CMD[@]}"; ta+=("$T"); ((RSS_KB > ra)) && ra=$RSS_KB
    eval "$prepare"; run_once "pandas peer" "${B_CMD[@]}"; tb+=("$T"); ((RSS_KB > rb)) && rb=$RSS_KB
  done
  MEDIAN_A=$(printf '%s\n' "${ta[@]}" | median); MEDIAN_B=$(printf '%s\n' "${tb[@]}" | median)
  RSS_A_MB=$((ra / 1024)); RSS_B_MB=$((rb / 1024))
  say "   ezreport runs: ${ta[*]} s   median $MEDIAN_A s   peak RSS $RSS_A_MB MB"
  say "   peer runs:     ${tb[*]} s   median $MEDIAN_B s   peak RSS $RSS_B_MB MB"
}
ms() { awk -v s="$1" 'BEGIN {printf "%.0f ms", s*1000}'; }
rate() { awk -v n="$1" -v s="$2" 'BEGIN {printf "%.1f", n/s}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a/b}'; }
SUMMARY=()
PEER_SUMMARY=()

# ---------------------------------------------------------------------------------------------
# (p) The pandas peer (issue 12's target: ezreport at least 20x faster), each measurement alternating
# ezreport's run and the peer's, on the same ledger, user and period.
run_peer() {
  scripts/setup.sh --bench >&2
  local py=(python3 scripts/peer/pandas_statements.py) out_a="$DATA/out-peer-ez" out_b="$DATA/out-peer-py"
  local db="$DATA/ledger-$PEER_USERS.sqlite" live
  say "== (p1) pandas peer against ezreport: export of user $EXPORT_USER, every format, whole process, on $LARGEST"
  say "   load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  A_CMD=("$EZ" export --db "$LARGEST" --user "$EXPORT_USER" --period $PERIOD --as-of $ASOF --format all --out "$out_a")
  B_CMD=("${py[@]}" export --db "$LARGEST" --user "$EXPORT_USER" --period $PERIOD --out "$out_b")
  "${A_CMD[@]}" >/dev/null 2>&1 || true   # the digest cache, as in (a)
  alternate "${BENCH_PEER_EXPORT_RUNS:-5}" "retire $out_a; retire $out_b"
  PEER_SUMMARY+=("$(row "(p1) pandas peer: export of one user, all formats / ezreport (target >=20x)" "$(ratio "$MEDIAN_B" "$MEDIAN_A")x" "$(ms "$MEDIAN_B") vs $(ms "$MEDIAN_A")")")
  live=$(sqlite3 "$db" 'SELECT count(*) FROM users WHERE deleted_at IS NULL')
  say "== (p2) pandas peer against ezreport: monthly batch, $PEER_USERS users ($live live), --jobs 2"
  say "   load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  A_CMD=("$EZ" monthly --db "$db" --period $PERIOD --as-of $ASOF --out "$out_a" --jobs 2 --quiet)
  B_CMD=("${py[@]}" batch --db "$db" --period $PERIOD --out "$out_b" --jobs 2)
  alternate "${BENCH_PEER_BATCH_RUNS:-1}" "retire $out_a; retire $out_b"
  retire "$out_a"; retire "$out_b"
  say "   load after: $(cut -d' ' -f1-3 /proc/loadavg)"
  PEER_SUMMARY+=("$(row "(p2) pandas peer: monthly batch, $PEER_USERS users, --jobs 2 / ezreport, per statement (target >=20x)" "$(ratio "$MEDIAN_B" "$MEDIAN_A")x" "$(rate "$live" "$MEDIAN_B")/s vs $(rate "$live" "$MEDIAN_A")/s")")
  PEER_SUMMARY+=("$(row "(p2) pandas peer: peak RSS of that batch (ezreport's in the same runs)" "$RSS_B_MB MB" "$RSS_A_MB MB")")
}
results() {
  say ""
  say "== results"
  say "$(row "measure" "value" "detail")"
  for line in "${SUMMARY[@]}" "${PEER_SUMMARY[@]}"; do say "$line"; done
}
if ((peer_only)); then
  run_peer
  results
  say "(full log: $RESULTS)"
  exit 0
fi

# ---------------------------------------------------------------------------------------------
say "== (a) on-demand export of one user, every format, whole process, on $LARGEST"
OUT="$DATA/out-export"
# The first export after the ledger changes hashes it (the digest cache then remembers it); shown apart.
measure "export, digest cache off" 1 "retire $OUT" -- \
  env EZREPORT_DIGEST_CACHE=off "$EZ" export --db "$LARGEST" --user "$EXPORT_USER" --period $PERIOD --as-of $ASOF --format all --out "$OUT"
cold=$MEDIAN
"$EZ" export --db "$LARGEST" --user "$EXPORT_USER" --period $PERIOD --as-of $ASOF --format all --out "$OUT" >/dev/null 2>&1 || true
measure "export" "$EXPORT_RUNS" "retire $OUT" -- \
  "$EZ" export --db "$LARGEST" --user "$EXPORT_USER" --period $PERIOD --as-of $ASOF --format all --out "$OUT"
SUMMARY+=("$(row "(a) export user $EXPORT_USER, all formats (median ms; target <150)" "$(awk -v s="$MEDIAN" 'BEGIN{printf "%.0f ms", s*1000}')" "cache-off $(awk -v s="$cold" 'BEGIN{printf "%.0f ms", s*1000}')")")

# ---------------------------------------------------------------------------------------------
for n in $SIZES; do
  db="$DATA/ledger-$n.sqlite"
  live=$(sqlite3 "$db" 'SELECT count(*) FROM users WHERE deleted_at IS NULL')
  runs=$RUNS; [[ $n -ge 10000 ]] && runs=$RUNS_LARGE
  OUT="$DATA/out-$n"
  say "== (b) monthly batch, every format, $n users ($live live), $runs run(s) each"
  measure "batch j2" "$runs" "retire $OUT" -- "$EZ" monthly --db "$db" --period $PERIOD --as-of $ASOF --out "$OUT" --jobs 2 --quiet
  j2=$MEDIAN; rss_all=$RSS_MB
  # (f) nothing changed since the run above: the incremental path.
  say "== (f) re-run with nothing changed, $n users"
  measure "rerun" "$runs" ":" -- "$EZ" monthly --db "$db" --period $PERIOD --as-of $ASOF --out "$OUT" --jobs 2 --quiet
  rerun=$MEDIAN
  j1=""
  if [[ $n -lt 10000 || ${BENCH_LARGE_JOBS1:-1} == 1 ]]; then
    measure "batch j1" "$runs" "retire $OUT" -- "$EZ" monthly --db "$db" --period $PERIOD --as-of $ASOF --out "$OUT" --jobs 1 --quiet
    j1=$MEDIAN
  fi
  say "== (c) monthly batch without PNGs, $n users"
  measure "batch nopng j2" "$runs" "retire $OUT" -- "$EZ" monthly --db "$db" --period $PERIOD --as-of $ASOF --out "$OUT" --jobs 2 --formats pdf,xlsx,csv --quiet
  nopng=$MEDIAN
  retire "$OUT"
  SUMMARY+=("$(row "(b) $n users, all formats, --jobs 2 (statements/s; target >=40)" "$(rate "$live" "$j2")/s" "${j2} s")")
  if [[ -n $j1 ]]; then
    SUMMARY+=("$(row "(b) $n users, all formats, --jobs 1 (statements/s)" "$(rate "$live" "$j1")/s" "${j1} s")")
    SUMMARY+=("$(row "(b) $n users, speed-up jobs 2 vs 1 (target >=1.8x)" "$(ratio "$j1" "$j2")x" "")")
  fi
  SUMMARY+=("$(row "(c) $n users, pdf,xlsx,csv, --jobs 2 (statements/s; target >=150)" "$(rate "$live" "$nopng")/s" "${nopng} s")")
  SUMMARY+=("$(row "(e) $n users, peak RSS of the all-format batch (target <150 MB)" "$rss_all MB" "")")
  SUMMARY+=("$(row "(f) $n users, re-run unchanged (target >=20x faster)" "$(ratio "$j2" "$rerun")x" "${rerun} s")")
done

# ---------------------------------------------------------------------------------------------
say "== (d) analytics alone on one core vs the sqlite3 shell, $LARGEST"
say "   \$ taskset -c 0 $BENCH analytics --db $LARGEST --period $PERIOD --as-of $ASOF"
taskset -c 0 "$BENCH" analytics --db "$LARGEST" --period $PERIOD --as-of $ASOF | tee -a "$RESULTS" | tee "$DATA/.analytics"
analytics_cpu=$(awk '/^analytics \(figures/ {print $4}' "$DATA/.analytics")
analytics_rate=$(awk '/^analytics \(figures/ {print $5, $6, $7}' "$DATA/.analytics")
both_cpu=$(awk '/^reads \+ analytics/ {print $5}' "$DATA/.analytics")
SQL="SELECT user_id, substr(occurred_at, 1, 7) AS month, category_id, count(*), sum(amount_minor) FROM transactions WHERE deleted_at IS NULL GROUP BY user_id, month, category_id"
measure "sqlite3 group by" 3 ":" -- taskset -c 0 sqlite3 "$LARGEST" "$SQL"
sqlite_s=$MEDIAN
SUMMARY+=("$(row "(d) analytics alone, one core (target >=3 M tx/s)" "$analytics_rate" "${analytics_cpu} s CPU")")
SUMMARY+=("$(row "(d) ledger reads + analytics vs sqlite3 GROUP BY (target <=2x)" "$(ratio "$both_cpu" "$sqlite_s")x" "${both_cpu} s CPU vs ${sqlite_s} s")")
say "== per-stage breakdown, one user (in-process, EZBench stages)"
say "   \$ $BENCH stages --db $LARGEST --user $EXPORT_USER --rounds 5"
"$BENCH" stages --db "$LARGEST" --user "$EXPORT_USER" --rounds 5 --scratch "$TRASH/stages-user" | tee -a "$RESULTS"
say "== per-stage breakdown, the batch's statements (first 200 users, one thread)"
say "   \$ $BENCH stages --db $LARGEST --limit 200"
"$BENCH" stages --db "$LARGEST" --limit $((smoke ? 20 : 200)) --scratch "$TRASH/stages-batch" | tee -a "$RESULTS"
say "== the ledger digest: first call hashes, later calls hit the cache"
"$BENCH" digest --db "$LARGEST" --rounds 3 | tee -a "$RESULTS"

if ((!smoke)); then
say "== volume: one user with 100,000 transactions in the month (a shop), every format, whole process"
# The 50-user ledger plus 100,000 expenses of user 42 in October 2026 (made once, reused).
HEAVY="$DATA/ledger-heavy.sqlite"
if [[ ! -f "$HEAVY" ]]; then
  [[ -f "$DATA/ledger-50.sqlite" ]] || "$EZ" sample --out "$DATA/ledger-50.sqlite" --users 50 --months 24 --end "$PERIOD" --seed 1 >&2
  cp "$DATA/ledger-50.sqlite" "$HEAVY"
  sqlite3 "$HEAVY" "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM n WHERE i < 99999)
    INSERT INTO transactions (user_id, balance_id, category_id, kind, amount_minor, currency, occurred_at, method, description, created_at)
    SELECT 42, (SELECT MIN(id) FROM balances WHERE user_id = 42), (SELECT MIN(id) FROM categories WHERE user_id = 42) + (i % 5),
      'expense', 100 + (i * 7919) % 9000, 'EUR',
      printf('2026-10-%02dT%02d:%02d:%02d+02:00', 1 + (i % 31), (i / 31) % 24, (i / 744) % 60, i % 60),
      'card', 'Shop order #' || i, printf('2026-10-%02dT00:00:00.000Z', 1 + (i % 31)) FROM n;"
fi
for f in csv xlsx pdf png all; do
  OUT="$DATA/out-heavy-$f"
  measure "volume: 100,000-transaction user, --format $f" 1 "retire $OUT" -- \
    "$EZ" export --db "$HEAVY" --user 42 --period "$PERIOD" --as-of "$ASOF" --format "$f" --out "$OUT"
  SUMMARY+=("$(row "volume: 100,000-transaction user, --format $f (target < 150 MB)" "${RSS_MB} MB" "$(printf '%.2f s' "$MEDIAN")")")
done
fi

if ((PEER)); then
  run_peer
elif ((smoke)); then
  say "== (p) pandas peer: skipped in --smoke mode (it needs pandas: scripts/setup.sh --bench)"
fi
results
say "$(row "(d) sqlite3 shell GROUP BY user, month, category (one core)" "${sqlite_s} s" "EZBench: see (d) above")"
say "(full log: $RESULTS)"
