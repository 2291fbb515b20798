#!/usr/bin/env bash
# Status benchmark: `cravey status` (the line a shell prompt or a status bar runs every time) as a
# whole process, next to the sqlite3 CLI running the same queries (Tests/bench/status.sql) on the
# same database read-only, and next to `cravey --version` (the process's own start). Libraries:
# none yet, an empty one, and ten years at 20 logs a day (73,000 logs, its milestones stored).
# Goal: status ≤ 3× sqlite3, and well under 10 ms more than the process's start (`status` with no
# library: the start, its arguments read and one stat).
# Usage: Tests/bench/status.sh [runs]   (builds a release binary first)
set -euo pipefail
trap 'status=$?; echo "${0##*/}: line $LINENO failed (status $status): $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/../.."
runs=${1:-31}
swift build -c release --static-swift-stdlib --product cravey >/dev/null
cravey=$(swift build -c release --static-swift-stdlib --show-bin-path)/cravey
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CRAVEY_TRANSCRIBE=later
source Tests/bench/median.sh
row() {
  if [ -n "${3:-}" ]; then printf '%-46s %8s s   %-28s %8s s\n' "$@"; else printf '%-46s %8s s\n' "$1" "$2"; fi
}

"$cravey" settings name --clear --library "$work/empty" >/dev/null   # an empty library (a read makes none)
"$cravey" settings name --clear --library "$work/lib" >/dev/null
# Ten years at 20 logs a day up to now: 3,650 days × 14 cravings and 6 uses.
sqlite3 "$work/lib/library.sqlite" <<'SQL'
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 51100)
INSERT INTO craving (id, at, utcOffset, intensity, triggers, location, notes, createdAt, modifiedAt)
SELECT printf('%08X-0000-4000-8000-%012X', i, i), strftime('%Y-%m-%dT%H:%M:%f', strftime('%s', 'now') - 315400000 + i * 6171, 'unixepoch') || 'Z', 3600,
       1 + i % 10, CASE i % 4 WHEN 0 THEN 'anxious,bored' WHEN 1 THEN 'habit' ELSE '' END,
       CASE i % 3 WHEN 0 THEN 'home' WHEN 1 THEN 'work' END, NULL,
       '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 21900)
INSERT INTO usage (id, at, utcOffset, method, amount, triggers, moodAfter, createdAt, modifiedAt)
SELECT printf('%08X-0000-4000-9000-%012X', i, i), strftime('%Y-%m-%dT%H:%M:%f', strftime('%s', 'now') - 315400000 + i * 14400, 'unixepoch') || 'Z', 3600,
       CASE i % 4 WHEN 0 THEN 'bowls' WHEN 1 THEN 'vape' WHEN 2 THEN 'dab' ELSE 'edible' END,
       CASE i % 4 WHEN 0 THEN 1.5 WHEN 1 THEN 3 WHEN 2 THEN 2 ELSE 10 END, 'social', 1 + i % 10,
       '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM n;
SQL
"$cravey" progress --json --library "$work/lib" >/dev/null   # stores the milestones reached
n=$(sqlite3 "$work/lib/library.sqlite" "SELECT (SELECT count(*) FROM craving) + (SELECT count(*) FROM usage)")
m=$(sqlite3 "$work/lib/library.sqlite" "SELECT count(*) FROM milestone")
query() { sqlite3 -readonly "$1/library.sqlite" <Tests/bench/status.sql; }

echo "median of $runs runs, whole processes (release build)"
start=$(median "$cravey" --version)
row "cravey --version (process start)" "$start" "sqlite3 (start)" "$(median sqlite3 "$work/lib/library.sqlite" "SELECT 1")"
none=$(median "$cravey" status --library "$work/none")
row "cravey status (no library: start, a stat)" "$none" "" ""
row "cravey status (empty library)" "$(median "$cravey" status --library "$work/empty")" "sqlite3 status.sql (empty)" "$(median query "$work/empty")"
c=$(median "$cravey" status --library "$work/lib")
s=$(median query "$work/lib")
row "cravey status ($n logs, $m milestones)" "$c" "sqlite3 status.sql (same)" "$s"
row "cravey status --json (same)" "$(median "$cravey" status --json --library "$work/lib")" "" ""
printf '%-46s %8.2f ×   (goal ≤ 3×)\n' "  ratio to sqlite3" "$(echo "$c/$s" | bc -l)"
printf '%-46s %8.1f ms beyond the start (status with no library; goal well under 10)\n' "  work" \
  "$(echo "($c - $none) * 1000" | bc -l)"
test ! -e "$work/none" || { echo "status made a library" >&2; exit 1; }
