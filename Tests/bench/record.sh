#!/usr/bin/env bash
# Recording benchmark: cravey record audio next to `ffmpeg -f alsa … -c:a aac` on the same ALSA
# device (the file plugin of Media/alsa over the same tone, fed at real-time pace), as whole
# processes: CPU-seconds per recorded second and peak RSS, side by side with the ratio; then, for
# cravey, a 120 s recording at full speed (stop → saved) and the start latency (command → first
# captured block).
# Usage: Tests/bench/record.sh [runs]
set -euo pipefail
trap 'status=$?; echo "${0##*/}: line $LINENO failed (status $status): $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/../.."
runs=${1:-3}
swift build -c release --static-swift-stdlib --product cravey >/dev/null
cravey=$(swift build -c release --static-swift-stdlib --show-bin-path)/cravey
work=$(mktemp -d)
trap 'rm -rf "$work"; pkill -P $$ pv 2>/dev/null || true' EXIT
bash Media/make-fixtures.sh "$work"
export ALSA_CONFIG_PATH=$PWD/Media/alsa/cravey-test.conf CRAVEY_ALSA_INFILE=$work/tone-125s.raw
# The transcript made after a save is transcribe.sh's to measure: here only the recording.
export CRAVEY_TRANSCRIBE=later

stats() {  # prints "cpu_seconds peak_kib wall_seconds" of a command
  /usr/bin/time -f '%U %S %M %e' -o "$work/time" "$@" >/dev/null 2>"$work/stderr" || { cat "$work/stderr"; exit 1; }
  awk '{printf "%.3f %d %.3f\n", $1 + $2, $3, $4}' "$work/time"
}

med() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}'; }
paced() {  # paced NAME: a FIFO fed with the tone at real-time pace (96000 bytes/s), like a live mic
  rm -f "$work/$1"; mkfifo "$work/$1"
  (exec pv -q -L 96000 "$work/tone-125s.raw" > "$work/$1") >/dev/null 2>&1 &
  echo "$work/$1"
}

# 1. Both at real-time pace from the same kind of input: what recording costs on a laptop.
secs=30
cr=(); ff=()
for i in $(seq "$runs"); do
  rm -rf "$work/lib"
  cr+=("$(CRAVEY_ALSA_INFILE=$(paced c$i.fifo) stats "$cravey" record audio --mic cravey_file --max-seconds $secs --yes --library "$work/lib")")
  ff+=("$(CRAVEY_ALSA_INFILE=$(paced f$i.fifo) stats ffmpeg -nostdin -v error -y -f alsa -channels 1 -sample_rate 48000 -i cravey_file -t $secs -c:a aac -b:a 96k "$work/ff.m4a")")
done
col() { printf '%s\n' "$@" | awk -v k="$K" '{print $k}'; }
K=1; c_cpu=$(med $(col "${cr[@]}")); f_cpu=$(med $(col "${ff[@]}"))
K=2; c_rss=$(med $(col "${cr[@]}")); f_rss=$(med $(col "${ff[@]}"))
echo "$secs s recording at real-time pace (FIFO + pv), median of $runs runs, release build"
printf '%-40s %12s %12s %8s\n' "" "cravey" "ffmpeg" "ratio"
printf '%-40s %12.4f %12.4f %8.2f\n' "CPU-seconds per recorded second" "$(echo "$c_cpu/$secs" | bc -l)" "$(echo "$f_cpu/$secs" | bc -l)" "$(echo "$c_cpu/$f_cpu" | bc -l)"
printf '%-40s %12d %12d %8.2f\n' "peak RSS (KiB)" "$c_rss" "$f_rss" "$(echo "$c_rss/$f_rss" | bc -l)"

# 2. cravey alone at full speed (unclocked input): pure work for 120 s, and stop → saved.
rm -rf "$work/lib"
fast=$(CRAVEY_TIMINGS=1 stats "$cravey" record audio --mic cravey_file --yes --library "$work/lib")
save=$(sed -n 's/.*stopped_ns=\([0-9]*\) saved_ns=\([0-9]*\).*/\1 \2/p' "$work/stderr" | awk '{printf "%.4f", ($2 - $1) / 1e9}')
echo
echo "120 s recording from an unclocked input (cravey only: ffmpeg's ALSA input paces itself by wall clock)"
printf '%-40s %12s\n' "CPU-seconds for 120 s of audio" "$(echo "$fast" | awk '{print $1}')"
printf '%-40s %12s   (target < 0.3 s)\n' "stop → saved (finalize + atomic save), s" "$save"
echo
# Start latency with a paced input (a FIFO fed at 96000 bytes/s, like a live microphone).
python3 - "$cravey" "$work" <<'PY'
import os, re, subprocess, sys, time, statistics
cravey, work = sys.argv[1], sys.argv[2]
lat = []
for i in range(5):
    fifo = f"{work}/mic{i}.fifo"
    os.mkfifo(fifo)
    # pv writes to the FIFO through a shell, so that opening the FIFO does not block us
    feeder = subprocess.Popen(f"exec pv -q -L 96000 {work}/tone-125s.raw > {fifo}", shell=True)
    env = dict(os.environ, CRAVEY_ALSA_INFILE=fifo, CRAVEY_TIMINGS="1")
    t0 = time.monotonic_ns()
    p = subprocess.run([cravey, "record", "audio", "--mic", "cravey_file", "--max-seconds", "1", "--yes",
                        "--library", f"{work}/lat{i}"], env=env, capture_output=True, text=True)
    feeder.kill()
    m = re.search(r"first_block_ns=(\d+)", p.stderr)
    if m: lat.append((int(m.group(1)) - t0) / 1e9)
print(f"{'start latency (command → first block), s':40s} {statistics.median(lat):12.4f}   (target < 0.3 s; median of {len(lat)})")
PY
