#!/usr/bin/env bash
# Installs the system packages ezreport needs, skipping what is already present.
# Uses sudo only when not root. Usage: scripts/setup.sh [--test | --bench]
#   --test  also installs what the test suite's independent readers need
#           (poppler-utils, qpdf, LibreOffice Calc, Python's openpyxl and openapi-spec-validator, gettext's msgfmt) and the
#           SMTP server the delivery tests start (Python's aiosmtpd; openssl for their certificates),
#           and the PostgreSQL server the EZPostgres tests start as a throw-away cluster on loopback
#           (Debian's postgresql: binaries under /usr/lib/postgresql/15/bin; util-linux's setpriv
#           runs it as nobody when the tests run as root).
#   --bench also installs the pandas peer's Python packages (pandas, matplotlib, openpyxl) for
#           scripts/bench.sh; never needed by the product, `make test` or `bench.sh --smoke`.
set -euo pipefail

packages=(
  pkg-config libsqlite3-dev                       # ledger access
  zlib1g-dev                                      # the PNG encoder's zlib engine, CRC-32 and Adler-32
  libcairo2-dev libpango1.0-dev                   # charts and PDF
  libfontconfig-dev libfreetype-dev               # ezreport's own font sets and faces (FontConfiguration)
  libxlsxwriter-dev                               # workbooks
  libqpdf-dev                                     # tagged PDFs: /Lang, /Alt, artifacts (Cairo 1.16 writes none; headers, and libqpdf loaded at run time)
  libcurl4-openssl-dev                            # deliver: SMTP through libcurl (EZDelivery; headers, and libcurl4 loaded at run time)
  fonts-dejavu-core fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji   # accents, CJK, RTL, emoji
  fonts-droid-fallback                            # CJK in PDFs: TrueType, subset cheaply (PangoThreadCache)
  sqlite3                                         # benchmarks compare against the sqlite3 shell
  binutils                                        # nm: the check that no libc/zlib symbol is overridden
  time                                            # benchmarks: peak RSS with /usr/bin/time
)
if [[ "${1:-}" == "--test" ]]; then
  # gettext: msgfmt --check of the PO catalogs
  packages+=(poppler-utils qpdf libreoffice-calc-nogui python3-pip unzip openssl gettext postgresql util-linux)
fi
if [[ "${1:-}" == "--bench" ]]; then
  packages+=(python3-pip)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  sudo=""
  if [[ "$(id -u)" -ne 0 ]]; then sudo="sudo"; fi
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [[ "${1:-}" == "--test" ]]; then
  if ! python3 -c "import openpyxl" 2>/dev/null; then
    echo "setup: installing openpyxl (test reader for XLSX files)"
    python3 -m pip install --quiet openpyxl 2>/dev/null || python3 -m pip install --quiet --break-system-packages openpyxl
  fi
  if ! python3 -c "import openapi_spec_validator" 2>/dev/null; then
    echo "setup: installing openapi-spec-validator (checks docs/openapi.yaml)"
    python3 -m pip install --quiet openapi-spec-validator 2>/dev/null || python3 -m pip install --quiet --break-system-packages openapi-spec-validator
  fi
  # The tests run "python3" from PATH: install into that same interpreter.
  if ! python3 -c "import aiosmtpd" 2>/dev/null; then
    echo "setup: installing aiosmtpd (the SMTP server the delivery tests start)"
    python3 -m pip install --quiet aiosmtpd 2>/dev/null || python3 -m pip install --quiet --break-system-packages aiosmtpd
  fi
fi

if [[ "${1:-}" == "--bench" ]]; then
  if ! python3 -c "import pandas, matplotlib, openpyxl" 2>/dev/null; then
    echo "setup: installing pandas, matplotlib, openpyxl (the benchmark's pandas peer)"
    python3 -m pip install --quiet pandas matplotlib openpyxl 2>/dev/null ||
      python3 -m pip install --quiet --break-system-packages pandas matplotlib openpyxl
  fi
fi
