#!/usr/bin/env bash
# Delivery throughput: `ezreport deliver` to a loopback aiosmtpd sink over one reused connection,
# every message carrying its ~60 KB statement PDF. Prints messages/s for each run and the median.
# Usage: scripts/deliver-bench.sh [users (default 300)] [runs (default 3)]
# Needs: a release build (swift build -c release --product ezreport), python3 with aiosmtpd
# (scripts/setup.sh --test). Writes only under bench-data/deliver/.
set -euo pipefail
users="${1:-300}"
runs="${2:-3}"
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="$(cd "$root" && swift build -c release --show-bin-path)/ezreport"
data="$root/bench-data/deliver"
mkdir -p "$data"
ledger="$data/ledger-$users.sqlite"
[[ -f "$ledger" ]] || "$bin" sample --out "$ledger" --users "$users" --months 3 --end 2026-10 --seed 1 >/dev/null
"$bin" monthly --db "$ledger" --period 2026-10 --as-of 2026-11-01 --out "$data/Reports" --formats pdf --quiet 2>/dev/null || true
# Every statement.pdf replaced by exactly 60 KB (61,440 bytes; random, so base64 does not shrink it)
# and the manifest's sizes and hashes updated: the issue's target is stated for 60 KB attachments,
# while the sample's PDFs average ~46 KB. Only this benchmark's copy under bench-data/ is touched.
python3 - "$data/Reports/2026-10" <<'PY'
import hashlib, json, os, sys
folder = sys.argv[1]
path = os.path.join(folder, "manifest.json")
manifest = json.load(open(path))
for user in manifest["users"]:
    for f in user["files"]:
        if f["path"].endswith("statement.pdf"):
            data = hashlib.shake_256(f["path"].encode()).digest(61440)
            open(os.path.join(folder, f["path"]), "wb").write(data)
            f["bytes"], f["sha256"] = len(data), hashlib.sha256(data).hexdigest()
json.dump(manifest, open(path, "w"), indent=2, sort_keys=True)
PY
pdf_avg=$(python3 -c "import json,sys;m=json.load(open(sys.argv[1]));s=[f['bytes'] for u in m['users'] for f in u['files'] if f['path'].endswith('statement.pdf')];print(sum(s)//len(s))" "$data/Reports/2026-10/manifest.json")

sink_out="$data/sink"
rm -rf "$sink_out"
python3 "$root/Tests/EZDeliveryTests/Support/smtp_sink.py" --out "$sink_out" --discard > "$data/sink.port" 2>"$data/sink.err" &
sink_pid=$!
trap 'kill "$sink_pid" 2>/dev/null || true' EXIT
for _ in $(seq 50); do grep -q PORT "$data/sink.port" 2>/dev/null && break; sleep 0.1; done
port=$(awk '/PORT/{print $2}' "$data/sink.port")

rates=()
for run in $(seq "$runs"); do
  rm -f "$data/Reports/2026-10/delivery.jsonl" "$data/Reports/2026-10/delivery.json"
  start=$(date +%s.%N)
  "$bin" deliver --db "$ledger" --out "$data/Reports" --period 2026-10 --from bench@ezwallet.example \
    --smtp "smtp://127.0.0.1:$port" --smtp-insecure --rate 0 2>"$data/deliver.err" || { cat "$data/deliver.err"; exit 1; }
  end=$(date +%s.%N)
  sent=$(grep -o 'sent [0-9]*' "$data/deliver.err" | head -1 | awk '{print $2}')
  rate=$(python3 -c "print(f'{$sent/($end-$start):.1f}')")
  echo "run $run: $sent messages in $(python3 -c "print(f'{$end-$start:.2f}')") s (whole process) = $rate messages/s"
  rates+=("$rate")
done
connections=$(wc -l < "$sink_out/events.jsonl")
median=$(printf '%s\n' "${rates[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
echo "deliver: median $median messages/s over $runs runs; $users-user sample, average PDF $pdf_avg bytes; $connections connections for $runs runs"
