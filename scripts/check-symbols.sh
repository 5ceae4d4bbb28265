#!/usr/bin/env bash
# Checks that an ezreport binary defines none of libc's printf family nor zlib's deflate/inflate
# entry points: such a definition, exported, would replace the system library's for every
# library in the process (Pango, SQLite, OpenSSL, libcurl, …). Usage: scripts/check-symbols.sh [BINARY…]
# (default: the release and debug builds that exist). Exit 1 when any is found.
set -euo pipefail
cd "$(dirname "$0")/.."
binaries=("$@")
if ((${#binaries[@]} == 0)); then
  for b in .build/release/ezreport .build/debug/ezreport; do [[ -x "$b" ]] && binaries+=("$b"); done
fi
((${#binaries[@]})) || { echo "check-symbols: no ezreport binary found; build first" >&2; exit 1; }
status=0
for bin in "${binaries[@]}"; do
  found=$(nm -D --defined-only "$bin" | awk '{print $NF}' | grep -E '^(__)?v?[sfd]?n?printf(_chk)?$|^deflate|^inflate' || true)
  # The version script (Sources/ezreport/exports.map) leaves `main` at most in the dynamic table.
  exported=$(nm -D --defined-only "$bin" | awk '{print $NF}' | grep -vx main || true)
  if [[ -n "$found" ]]; then
    echo "check-symbols: $bin defines system-library symbols: $(echo $found | tr '\n' ' ')" >&2
    status=1
  elif [[ -n "$exported" ]]; then
    echo "check-symbols: $bin exports $(echo "$exported" | wc -l) symbols besides main, e.g. $(echo "$exported" | head -3 | tr '\n' ' ')" >&2
    status=1
  else
    echo "check-symbols: $bin defines no printf, deflate or inflate symbol, and exports nothing but main"
  fi
done
exit $status
