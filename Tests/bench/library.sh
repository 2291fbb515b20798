#!/usr/bin/env bash
# Library benchmark: `cravey list --json`, `top` and `show` as whole processes on a library of
# 10,000 rows, and `top` at 100,000 rows, side by side with the sqlite3 CLI running the same query
# on the same database (the floor any SQLite program pays). Prints median wall time of N runs.
# Usage: Tests/bench/library.sh [runs]   (builds a release binary first)
set -euo pipefail
trap 'status=$?; echo "${0##*/}: line $LINENO failed (status $status): $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/../.."
runs=${1:-15}
swift build -c release --static-swift-stdlib --product cravey >/dev/null
cravey=$(swift build -c release --static-swift-stdlib --show-bin-path)/cravey
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seed() {  # seed DIR COUNT: rows made with SQL, and a small file for each
  local dir=$1 count=$2
  "$cravey" settings name --clear --library "$dir" >/dev/null   # makes the library (a read makes none)
  sqlite3 "$dir/library.sqlite" <<SQL
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $count)
INSERT INTO recording (id, createdAt, kind, title, notes, purpose, duration, filePath, playCount,
                       lastPlayedAt, modifiedAt, sizeBytes, sampleRate, channels, waveform)
SELECT printf('%08X-0000-4000-8000-%012X', i, i),
       strftime('%Y-%m-%dT%H:%M:%f', 1700000000 + i * 60, 'unixepoch') || 'Z',
       CASE WHEN i % 3 = 0 THEN 'video' ELSE 'audio' END,
       'Message number ' || i, 'Notes for ' || i,
       CASE i % 5 WHEN 0 THEN 'craving' WHEN 1 THEN 'milestone' WHEN 2 THEN 'reflection' WHEN 3 THEN 'motivational' END,
       1 + (i % 119), printf('Recordings/%s_%08X-0000-4000-8000-%012X.%s', CASE WHEN i % 3 = 0 THEN 'video' ELSE 'audio' END, i, i, CASE WHEN i % 3 = 0 THEN 'mov' ELSE 'm4a' END),
       i % 17, CASE WHEN i % 17 > 0 THEN strftime('%Y-%m-%dT%H:%M:%f', 1750000000 + i, 'unixepoch') || 'Z' END,
       strftime('%Y-%m-%dT%H:%M:%f', 1700000000 + i * 60, 'unixepoch') || 'Z', 1000, 48000, 1, randomblob(2400)
FROM n;
SQL
  sqlite3 "$dir/library.sqlite" "SELECT filePath FROM recording" | (cd "$dir" && xargs touch)
}

source Tests/bench/median.sh

row() { printf '%-34s %10s s   %-28s %10s s\n' "$1" "$2" "$3" "$4"; }

seed "$work/10k" 10000
seed "$work/100k" 100000
id=$(sqlite3 "$work/10k/library.sqlite" "SELECT substr(id, 1, 8) FROM recording LIMIT 1 OFFSET 5000")
q_list="SELECT id, title, createdAt, duration, playCount, purpose FROM recording ORDER BY createdAt DESC"
q_top="SELECT * FROM recording ORDER BY playCount DESC, lastPlayedAt DESC, createdAt DESC LIMIT 3"

echo "median of $runs runs, whole processes (release build)"
row "cravey --version (process start)" "$(median "$cravey" --version)" "sqlite3 (start)" "$(median sqlite3 "$work/10k/library.sqlite" "SELECT 1")"
# An empty library: what every start costs (targets: at most 5× the sqlite3 CLI, 25 MiB).
"$cravey" settings name --clear --library "$work/empty" >/dev/null   # an empty library (a read makes none)
e_cravey=$(median "$cravey" list --json --library "$work/empty")
e_sqlite=$(median sqlite3 -json "$work/empty/library.sqlite" "$q_list")
row "cravey list --json   (empty)" "$e_cravey" "sqlite3 -json list query" "$e_sqlite"
e_peak=$( { /usr/bin/time -f '%M' "$cravey" list --json --library "$work/empty" >/dev/null; } 2>&1 | tail -1)
printf '%-34s %10.2f ×   (target ≤ 5×);  peak RSS %d KiB (target ≤ 25600)\n' "  ratio, empty library" "$(echo "$e_cravey/$e_sqlite" | bc -l)" "$e_peak"
row "cravey list --json   (10,000)" "$(median "$cravey" list --json --library "$work/10k")" "sqlite3 -json list query" "$(median sqlite3 -json "$work/10k/library.sqlite" "$q_list")"
row "cravey list          (10,000)" "$(median "$cravey" list --library "$work/10k")" "" ""
row "cravey top           (10,000)" "$(median "$cravey" top --library "$work/10k")" "sqlite3 top query" "$(median sqlite3 "$work/10k/library.sqlite" "$q_top")"
row "cravey show ID       (10,000)" "$(median "$cravey" show "$id" --library "$work/10k")" "" ""
row "cravey top          (100,000)" "$(median "$cravey" top --library "$work/100k")" "sqlite3 top query (100k)" "$(median sqlite3 "$work/100k/library.sqlite" "$q_top")"
peak=$( { /usr/bin/time -f '%M' "$cravey" list --json --library "$work/10k" >/dev/null; } 2>&1 | tail -1)
echo "peak RSS of list --json (10,000): ${peak} KiB"
