#!/usr/bin/env bash
# Sync benchmark: ten years at 20 logs a day (73,000 logs) on one machine, shared through a folder.
# Measured, each next to its anchor in the same run, with peak memory where it matters:
#   - the first `cravey sync --folder` of another machine bringing them all in, next to the sqlite3
#     CLI importing the same rows into an empty library (one transaction, the same triggers);
#   - an incremental `cravey sync` of one log, next to sqlite3 inserting one row (synchronous=FULL);
#   - after a tenth of the cravings are edited once and one log in a hundred deleted, another
#     machine bringing them all in with each edit and delete a line of its own, the change
#     files' size before and after `cravey sync --compact`, the compaction's time, a machine that
#     was away bringing everything in from the snapshot, and then one new log (it reads only that);
#   - a command's cheap look at the folder before a change (`log edit` of an id that is not there,
#     refused at once: with a folder of 2 devices minus without one; goal under 1 ms);
#   - `cravey log --json` and `cravey export --format json` over the 73,000 logs, next to sqlite3 -json.
# Usage: Tests/bench/sync.sh [runs] [quick]   (builds a release binary first; quick: 7,300 logs)
#   CRAVEY=path/to/cravey Tests/bench/sync.sh …   measures that binary instead (an earlier build, to
#   set its figures beside this one's from the same machine and hour); nothing is built.
# Where a merge's time goes: `perf record -g -F 499 -o merge.data "$cravey" sync --folder DIR
#   --library FRESH` on a fresh library, then `perf report -i merge.data --children --stdio`; and
#   what it writes where: `strace -f -e trace=openat,pwrite64 -o writes.log` around the same.
set -euo pipefail
trap 'status=$?; echo "${0##*/}: line $LINENO failed (status $status): $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/../.."
runs=${1:-5}
days=3650
[ "${2:-}" = quick ] && days=365
export CRAVEY_TRANSCRIBE=later
source Tests/bench/median.sh
release=(-c release --static-swift-stdlib)
if [ -n "${CRAVEY:-}" ]; then
  cravey=$(realpath "$CRAVEY")
else
  swift build "${release[@]}" --product cravey >/dev/null
  cravey=$(swift build "${release[@]}" --show-bin-path)/cravey
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
row() { printf '%-46s %10s   %-36s %10s\n' "$@"; }
peak() { { /usr/bin/time -f '%M' "$@" >/dev/null; } 2>&1 | tail -1; }
ratio() { echo "$1/$2" | bc -l | xargs printf '%.2f ×'; }
# The median wall seconds of "$@" over $runs runs, the shell code in $1 run (untimed) before each.
median_after() {
  local setup=$1 times=()
  shift
  for _ in $(seq "$runs"); do
    eval "$setup"
    local t0 t1
    t0=$(date +%s%N); "$@" >/dev/null; t1=$(date +%s%N)
    times+=($(( (t1 - t0) / 1000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.4f", a[int((NR+1)/2)]/1e6}'
}
size() { du -sb "$1" | cut -f1 | xargs printf "%'d B"; }
refused() { "$@" 2>/dev/null || true; }

"$cravey" settings name --clear --library "$work/empty" >/dev/null   # an empty library (a read makes none)
cp -a "$work/empty" "$work/a"
mkdir "$work/shared"
# Ten years at 20 logs a day up to now: 14 cravings and 6 uses a day.
cravings=$((days * 14)) uses=$((days * 6))
sqlite3 "$work/a/library.sqlite" <<SQL
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $cravings)
INSERT INTO craving (id, at, utcOffset, intensity, triggers, location, notes, createdAt, modifiedAt)
SELECT printf('%08X-0000-4000-8000-%012X', i, i), strftime('%Y-%m-%dT%H:%M:%f', strftime('%s', 'now') - $days * 86410 + i * 6171, 'unixepoch') || 'Z', 3600,
       1 + i % 10, CASE i % 4 WHEN 0 THEN 'anxious,bored' WHEN 1 THEN 'habit' ELSE '' END,
       CASE i % 3 WHEN 0 THEN 'home' WHEN 1 THEN 'work' END, CASE WHEN i % 5 = 0 THEN 'note number ' || i END,
       '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $uses)
INSERT INTO usage (id, at, utcOffset, method, amount, triggers, moodAfter, createdAt, modifiedAt)
SELECT printf('%08X-0000-4000-9000-%012X', i, i), strftime('%Y-%m-%dT%H:%M:%f', strftime('%s', 'now') - $days * 86410 + i * 14400, 'unixepoch') || 'Z', 3600,
       CASE i % 4 WHEN 0 THEN 'bowls' WHEN 1 THEN 'vape' WHEN 2 THEN 'dab' ELSE 'edible' END,
       CASE i % 4 WHEN 0 THEN 1.5 WHEN 1 THEN 3 WHEN 2 THEN 2 ELSE 10 END, 'social', 1 + i % 10,
       '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM n;
SQL
n=$((cravings + uses))
t0=$(date +%s%N)
"$cravey" sync --folder "$work/shared" --library "$work/a" >/dev/null
first=$(( ($(date +%s%N) - t0) / 1000000 ))
device=$(ls "$work/shared/cravey/devices")
echo "$n logs on machine A; median of $runs runs, whole processes (release build)"
echo "first sync of machine A writing them: $first ms, $(size "$work/shared/cravey/devices/$device")"

# The same rows as the sqlite3 CLI imports them: INSERT statements in one transaction.
{ echo "BEGIN;"; sqlite3 "$work/a/library.sqlite" ".mode insert craving" "SELECT * FROM craving" ".mode insert usage" "SELECT * FROM usage"; echo "COMMIT;"; } >"$work/rows.sql"
fresh() { rm -rf "$work/$1"; cp -a "$work/empty" "$work/$1"; }
c=$(median_after 'fresh b' "$cravey" sync --folder "$work/shared" --library "$work/b")
s=$(median_after 'fresh s' sqlite3 "$work/s/library.sqlite" ".read $work/rows.sql")
row "cravey sync: another machine brings in $n" "$c s" "sqlite3 importing the same rows" "$s s"
fresh b
cpeak=$(peak "$cravey" sync --folder "$work/shared" --library "$work/b")
fresh s
speak=$(peak sqlite3 "$work/s/library.sqlite" ".read $work/rows.sql")
printf '%-46s %10s   (goal ≤ 2×);  peak RSS %d KiB vs sqlite3 %d KiB\n' "  ratio" "$(ratio "$c" "$s")" "$cpeak" "$speak"
[ "$(sqlite3 "$work/b/library.sqlite" "SELECT count(*) FROM craving") " = "$(sqlite3 "$work/a/library.sqlite" "SELECT count(*) FROM craving") " ]

insert() {
  sqlite3 "$work/s/library.sqlite" "PRAGMA synchronous = FULL; INSERT INTO craving (id, at, utcOffset, intensity, triggers, createdAt, modifiedAt)
    VALUES (upper(hex(randomblob(16))), strftime('%Y-%m-%dT%H:%M:%fZ','now'), 0, 7, '', strftime('%Y-%m-%dT%H:%M:%fZ','now'), strftime('%Y-%m-%dT%H:%M:%fZ','now'))"
}
c=$(median_after '"$cravey" craving 7 --library "$work/a" >/dev/null' "$cravey" sync --library "$work/b")
s=$(median insert)
row "cravey sync: one new log" "$c s" "sqlite3 INSERT (one row)" "$s s"
printf '%-46s %10s\n' "  ratio" "$(ratio "$c" "$s")"

# A command's look at the folder before a change: refused at once after it, with a folder of two
# devices (nothing new) and without one.
cp -a "$work/empty" "$work/alone"
with=$(median_after '' refused "$cravey" log edit FFFFFFFF --notes x --library "$work/b")
without=$(median_after '' refused "$cravey" log edit FFFFFFFF --notes x --library "$work/alone")
row "cravey log edit (refused), a folder of 2" "$with s" "the same without a folder" "$without s"
printf '%-46s %10s   (goal: under 1 ms)\n' "  the look at the folder" "$(echo "($with - $without) * 1000" | bc -l | xargs printf '%.2f ms')"

# Over the years: a tenth of the cravings edited once, one log in a hundred deleted (each a change line).
sqlite3 "$work/a/library.sqlite" "UPDATE craving SET notes = 'looked back on', modifiedAt = '2026-02-01T00:00:00.000Z' WHERE rowid % 10 = 3;
  DELETE FROM craving WHERE rowid % 100 = 7; DELETE FROM usage WHERE rowid % 100 = 7;"
"$cravey" sync --library "$work/a" >/dev/null
lines=$(cat "$work/shared/cravey/devices/$device"/*.jsonl | wc -l)
before=$(size "$work/shared/cravey/devices/$device")
# Before compaction each edit and delete is a line of its own: another machine takes them in one
# at a time (each edit of a log's notes keeps the search index in step).
c=$(median_after 'fresh e' "$cravey" sync --folder "$work/shared" --library "$work/e")
row "another machine brings in, edits and deletes" "$c s" "(each its own line)" ""
t0=$(date +%s%N)
"$cravey" sync --compact --library "$work/a" >/dev/null
compact=$(( ($(date +%s%N) - t0) / 1000000 ))
after=$(size "$work/shared/cravey/devices/$device")
row "machine A's change files ($lines lines)" "$before" "after sync --compact ($compact ms)" "$after"
c=$(median_after 'fresh c' "$cravey" sync --folder "$work/shared" --library "$work/c")
fresh c
cpeak=$(peak "$cravey" sync --folder "$work/shared" --library "$work/c")
row "a machine away brings in from the snapshot" "$c s" "peak RSS" "$cpeak KiB"
c=$(median_after '"$cravey" craving 4 --library "$work/a" >/dev/null' "$cravey" sync --library "$work/c")
row "then one new log (only the new file read)" "$c s" "" ""

q="SELECT * FROM (SELECT id, at, intensity, NULL AS method, NULL AS amount, triggers, location, notes FROM craving
   UNION ALL SELECT id, at, NULL, method, amount, triggers, location, notes FROM usage) ORDER BY at DESC"
c=$(median "$cravey" log --json --library "$work/b")
s=$(median sqlite3 -json "$work/b/library.sqlite" "$q")
row "cravey log --json ($n logs)" "$c s" "sqlite3 -json (same rows)" "$s s"
printf '%-46s %10s   (goal ≤ 2×);  peak RSS %d KiB vs sqlite3 %d KiB\n' "  ratio" "$(ratio "$c" "$s")" \
  "$(peak "$cravey" log --json --library "$work/b")" "$(peak sqlite3 -json "$work/b/library.sqlite" "$q")"
c=$(median "$cravey" export --format json --output - --library "$work/b")
s=$(median sqlite3 -json "$work/b/library.sqlite" "SELECT * FROM craving" "SELECT * FROM usage" "SELECT * FROM recording")
row "cravey export --format json ($n logs)" "$c s" "sqlite3 -json (the tables)" "$s s"
printf '%-46s %10s   (goal ≤ 2×);  peak RSS %d KiB vs sqlite3 %d KiB\n' "  ratio" "$(ratio "$c" "$s")" \
  "$(peak "$cravey" export --format json --output - --library "$work/b")" \
  "$(peak sqlite3 -json "$work/b/library.sqlite" "SELECT * FROM craving" "SELECT * FROM usage")"
