#!/usr/bin/env bash
# Log benchmark: `cravey craving 7` as a whole process (open the library, one fsynced commit)
# side by side with the sqlite3 CLI inserting the same row into the same database (target ≤ 5×),
# with peak memory; `cravey log --json` over 73,000 logs (ten years at 20 a day) next to
# sqlite3 -json reading the same rows; and `cravey progress --json` over them next to sqlite3
# computing the dashboard's aggregates (Tests/bench/progress.sql). Prints median wall time of N runs.
# Usage: Tests/bench/logs.sh [runs]   (builds a release binary first)
set -euo pipefail
trap 'status=$?; echo "${0##*/}: line $LINENO failed (status $status): $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/../.."
runs=${1:-15}
swift build -c release --static-swift-stdlib --product cravey >/dev/null
cravey=$(swift build -c release --static-swift-stdlib --show-bin-path)/cravey
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

source Tests/bench/median.sh
row() { printf '%-36s %10s s   %-30s %10s s\n' "$1" "$2" "$3" "$4"; }

export CRAVEY_TRANSCRIBE=later
"$cravey" settings name --clear --library "$work/lib" >/dev/null   # makes the library (a read makes none)
# The sqlite3 CLI's insert of the same craving, with the same durability (WAL, synchronous=FULL).
insert() {
  sqlite3 "$work/lib/library.sqlite" "PRAGMA synchronous = FULL; INSERT INTO craving (id, at, utcOffset, intensity, triggers, createdAt, modifiedAt)
    VALUES (upper(hex(randomblob(16))), strftime('%Y-%m-%dT%H:%M:%fZ','now'), 0, 7, '', strftime('%Y-%m-%dT%H:%M:%fZ','now'), strftime('%Y-%m-%dT%H:%M:%fZ','now'))"
}
echo "median of $runs runs, whole processes (release build)"
c=$(median "$cravey" craving 7 --library "$work/lib")
s=$(median insert)
row "cravey craving 7" "$c" "sqlite3 INSERT (same row)" "$s"
peak=$( { /usr/bin/time -f '%M' "$cravey" craving 7 --library "$work/lib" >/dev/null; } 2>&1 | tail -1)
speak=$( { /usr/bin/time -f '%M' sqlite3 "$work/lib/library.sqlite" "INSERT INTO craving (id, at, utcOffset, intensity, createdAt, modifiedAt) VALUES (upper(hex(randomblob(16))), '2026-01-01T00:00:00.000Z', 0, 7, 'x', 'x')" >/dev/null; } 2>&1 | tail -1)
printf '%-36s %10.2f ×   (target ≤ 5×);  peak RSS %d KiB vs sqlite3 %d KiB\n' "  ratio" "$(echo "$c/$s" | bc -l)" "$peak" "$speak"

# Ten years at 20 logs a day up to now: 3,650 days × 14 cravings and 6 uses.
sqlite3 "$work/lib/library.sqlite" <<'SQL'
DELETE FROM craving; DELETE FROM logSearch;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 51100)
INSERT INTO craving (id, at, utcOffset, intensity, triggers, location, notes, createdAt, modifiedAt)
SELECT printf('%08X-0000-4000-8000-%012X', i, i), strftime('%Y-%m-%dT%H:%M:%f', strftime('%s', 'now') - 315400000 + i * 6171, 'unixepoch') || 'Z', 3600,
       1 + i % 10, CASE i % 4 WHEN 0 THEN 'anxious,bored' WHEN 1 THEN 'habit' ELSE '' END,
       CASE i % 3 WHEN 0 THEN 'home' WHEN 1 THEN 'work' END, CASE WHEN i % 5 = 0 THEN 'note number ' || i END,
       '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 21900)
INSERT INTO usage (id, at, utcOffset, method, amount, triggers, moodAfter, createdAt, modifiedAt)
SELECT printf('%08X-0000-4000-9000-%012X', i, i), strftime('%Y-%m-%dT%H:%M:%f', strftime('%s', 'now') - 315400000 + i * 14400, 'unixepoch') || 'Z', 3600,
       CASE i % 4 WHEN 0 THEN 'bowls' WHEN 1 THEN 'vape' WHEN 2 THEN 'dab' ELSE 'edible' END,
       CASE i % 4 WHEN 0 THEN 1.5 WHEN 1 THEN 3 WHEN 2 THEN 2 ELSE 10 END, 'social', 1 + i % 10,
       '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM n;
SQL
n=$(sqlite3 "$work/lib/library.sqlite" "SELECT (SELECT count(*) FROM craving) + (SELECT count(*) FROM usage)")
q="SELECT * FROM (SELECT id, at, intensity, NULL AS method, NULL AS amount, triggers, location, notes FROM craving
   UNION ALL SELECT id, at, NULL, method, amount, triggers, location, notes FROM usage) ORDER BY at DESC"
row "cravey log --json ($n logs)" "$(median "$cravey" log --json --library "$work/lib")" "sqlite3 -json (same rows)" "$(median sqlite3 -json "$work/lib/library.sqlite" "$q")"
row "cravey log --since 30d ($n logs)" "$(median "$cravey" log --since 30d --library "$work/lib")" "" ""
peak=$( { /usr/bin/time -f '%M' "$cravey" log --json --library "$work/lib" >/dev/null; } 2>&1 | tail -1)
echo "peak RSS of log --json ($n logs): ${peak} KiB"
# The dashboard over the same logs (target ≤ 0.1 s), next to sqlite3 computing its aggregates.
row "cravey progress --json ($n logs)" "$(median "$cravey" progress --json --library "$work/lib")" "sqlite3 (same aggregates)" "$(median sqlite3 "$work/lib/library.sqlite" ".read Tests/bench/progress.sql")"
row "cravey progress --json --range all" "$(median "$cravey" progress --json --range all --library "$work/lib")" "" ""
peak=$( { /usr/bin/time -f '%M' "$cravey" progress --json --library "$work/lib" >/dev/null; } 2>&1 | tail -1)
speak=$( { /usr/bin/time -f '%M' sqlite3 "$work/lib/library.sqlite" ".read Tests/bench/progress.sql" >/dev/null; } 2>&1 | tail -1)
echo "peak RSS of progress --json ($n logs): ${peak} KiB vs sqlite3 ${speak} KiB"
