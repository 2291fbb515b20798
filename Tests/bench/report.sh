#!/usr/bin/env bash
# Report and money benchmark, over a year of logs (14 cravings and 6 uses a day, 7,300 logs):
# `cravey progress --json` with prices set (money kept figured) next to it without; `cravey report
# --html` for 30 days and for the whole year; `cravey report --pdf` (drawn in cravey's own process
# with cairo and pango) for 30 days and the year, next to its previous figure (0.74 s, when it
# printed the page with Chromium) and, where Chromium is installed, to Chromium printing the same
# page itself. Prints the median wall time of N runs, the PDFs' pages and sizes, the installed size
# of what the PDF needs, and, with `--pictures DIR`, page 1 of both PDFs side by side as
# DIR/report-pdf.png (100 dpi).
# Usage: Tests/bench/report.sh [runs] [--pictures DIR]   (builds a release binary first)
set -euo pipefail
trap 'status=$?; echo "${0##*/}: line $LINENO failed (status $status): $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/../.."
runs=${1:-9}
pictures=""
[ "${2:-}" = --pictures ] && pictures=$(realpath "${3:?--pictures needs a folder}")
swift build -c release --static-swift-stdlib --product cravey >/dev/null
cravey=$(swift build -c release --static-swift-stdlib --show-bin-path)/cravey
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

source Tests/bench/median.sh
row() {
  printf '%-40s %10s s' "$1" "$2"
  [ -n "${3:-}" ] && printf '   %-32s %10s s' "$3" "$4"
  printf '\n'
}

export CRAVEY_TRANSCRIBE=later
lib=(--library "$work/lib")
"$cravey" settings name --clear "${lib[@]}" >/dev/null   # makes the library (a read makes none)
# A year up to now: every 6,171 s a craving (1–10), every 14,400 s a use of each method in turn.
sqlite3 "$work/lib/library.sqlite" <<'SQL'
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5110)
INSERT INTO craving (id, at, utcOffset, intensity, triggers, createdAt, modifiedAt)
SELECT printf('%08X-0000-4000-8000-%012X', i, i),
       strftime('%Y-%m-%dT%H:%M:%f', strftime('%s', 'now') - 31536000 + i * 6171, 'unixepoch') || 'Z', 3600,
       1 + i % 10, CASE i % 3 WHEN 0 THEN 'bored' ELSE 'habit' END, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'
FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2190)
INSERT INTO usage (id, at, utcOffset, method, amount, triggers, createdAt, modifiedAt)
SELECT printf('%08X-0000-4000-9000-%012X', i, i),
       strftime('%Y-%m-%dT%H:%M:%f', strftime('%s', 'now') - 31536000 + i * 14400, 'unixepoch') || 'Z', 3600,
       CASE i % 4 WHEN 0 THEN 'bowls' WHEN 1 THEN 'vape' WHEN 2 THEN 'dab' ELSE 'edible' END,
       CASE i % 4 WHEN 0 THEN 1.5 WHEN 1 THEN 3 WHEN 2 THEN 2 ELSE 10 END, 'social',
       '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'
FROM n;
SQL
n=$(sqlite3 "$work/lib/library.sqlite" "SELECT (SELECT count(*) FROM craving) + (SELECT count(*) FROM usage)")
echo "median of $runs runs, whole processes (release build), $n logs over a year"

without=$(median "$cravey" progress --json "${lib[@]}")
"$cravey" settings price bowls 10 "${lib[@]}" >/dev/null
"$cravey" settings price edible 3 --currency EUR "${lib[@]}" >/dev/null
row "cravey progress --json (prices set)" "$(median "$cravey" progress --json "${lib[@]}")" "the same without a price" "$without"
row "cravey report --html (30 days)" "$(median "$cravey" report --html "$work/r.html" --force "${lib[@]}")"
row "cravey report --html --range all" \
  "$(median "$cravey" report --html "$work/all.html" --range all --force "${lib[@]}")"
printf '%-40s %10s bytes (30 days), %s bytes (the year)\n' "  page size" "$(stat -c %s "$work/r.html")" \
  "$(stat -c %s "$work/all.html")"

pages() { pdfinfo "$1" 2>/dev/null | awk '/^Pages:/ {print $2}'; }
row "cravey report --pdf (30 days)" "$(median "$cravey" report --pdf "$work/r.pdf" --force "${lib[@]}")" \
  "before: printed by Chromium" "0.74"
row "cravey report --pdf --range all" "$(median "$cravey" report --pdf "$work/all.pdf" --range all --force "${lib[@]}")"
printf '%-40s %10s pages, %s bytes (30 days); %s pages, %s bytes (the year)\n' "  PDF (A4)" "$(pages "$work/r.pdf")" \
  "$(stat -c %s "$work/r.pdf")" "$(pages "$work/all.pdf")" "$(stat -c %s "$work/all.pdf")"

if command -v chromium >/dev/null; then
  direct() {
    chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer --print-to-pdf="$work/direct.pdf" \
      --user-data-dir="$work/profile" "file://$work/r.html" 2>/dev/null
  }
  row "chromium --print-to-pdf (same page)" "$(median direct)"
  printf '%-40s %10s pages, %s bytes\n' "  its PDF" "$(pages "$work/direct.pdf")" "$(stat -c %s "$work/direct.pdf")"
else
  echo "chromium is not installed: no row for it"
fi

# What the PDF needs installed: cairo's and pango's runtime libraries (FFmpeg's libavcodec already
# depends on them through librsvg, so a system with cravey's other libraries has them), next to
# the browser it replaces; and the headers to build cravey.
size() { dpkg-query -W -f='${Installed-Size}\n' "$@" 2>/dev/null | awk '{s += $1} END {printf "%.1f MB", s / 1024}'; }
printf '%-40s %10s   %-32s %10s\n' "installed: libcairo2 libpango*" \
  "$(size libcairo2 libpango-1.0-0 libpangocairo-1.0-0 libpangoft2-1.0-0)" "chromium chromium-common" \
  "$(size chromium chromium-common)"
printf '%-40s %10s\n' "  already needed by libavcodec59" \
  "$(apt-cache depends --recurse --important libavcodec59 2>/dev/null | grep -cE '^(libcairo2|libpangocairo-1.0-0)$') of 2"

if [ -n "$pictures" ] && [ -f "$work/direct.pdf" ]; then
  pdftoppm -r 100 -png -f 1 -l 1 -singlefile "$work/r.pdf" "$work/cairo"
  pdftoppm -r 100 -png -f 1 -l 1 -singlefile "$work/direct.pdf" "$work/chromium"
  ffmpeg -v error -y -i "$work/cairo.png" -i "$work/chromium.png" \
    -filter_complex "[0]pad=iw+40:ih:0:0:white[a];[a][1]hstack" "$pictures/report-pdf.png"
  echo "page 1 of each, side by side (cairo and pango, then Chromium): $pictures/report-pdf.png"
fi
