#!/usr/bin/env bash
# Video benchmark: the same raw 1280x720 YUYV frames (30 fps) and 48 kHz mono samples through
# cravey's writer (Tests/WriterBench: the recorder's fragmented writer, flushed each second, then
# the finalizing remux and the thumbnailer) and through the ffmpeg CLI with the same settings
# (libx264 CRF 23, keyframe each second, no B-frames, AAC 96k), as whole processes, not paced:
# CPU-seconds per recorded second, peak RSS, finalize time, thumbnail time, side by side.
# Then the x264 preset/threads table that chose cravey's encoder settings.
# Usage: Tests/bench/video.sh [seconds, default 120]
set -euo pipefail
trap 'status=$?; echo "${0##*/}: line $LINENO failed (status $status): $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/../.."
secs=${1:-120}
swift build -c release --static-swift-stdlib --product writer-bench >/dev/null
bench=$(swift build -c release --static-swift-stdlib --show-bin-path)/writer-bench
work=$(mktemp -d /dev/shm/cravey-video-bench.XXXXXX 2>/dev/null || mktemp -d)
trap 'rm -rf "$work"' EXIT
# 10 s of moving test picture (looped by both), and the tone.
ffmpeg -v error -f lavfi -i testsrc2=s=1280x720:r=30 -t 10 -pix_fmt yuyv422 -f rawvideo "$work/frames.yuyv"
sox -n -r 48000 -c 1 -b 16 -e signed-integer -t raw "$work/tone.raw" synth "$secs" sine 440 vol 0.5
loops=$(( (secs + 9) / 10 - 1 ))

stats() {  # prints "cpu_seconds peak_kib wall_seconds" of a command; its stdout goes to $work/out
  /usr/bin/time -f '%U %S %M %e' -o "$work/time" "$@" >"$work/out" 2>"$work/stderr" || { cat "$work/stderr"; exit 1; }
  awk '{printf "%.3f %d %.3f\n", $1 + $2, $3, $4}' "$work/time"
}
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p" "$work/out"; }

# cravey with the recorder's own encoder settings (printed by writer-bench); ffmpeg with the same.
c=$(stats "$bench" "$work/frames.yuyv" 1280 720 30 "$work/tone.raw" "$secs" default default "$work")
c_final=$(field finalize_s); c_thumb=$(field thumbnail_s)
preset=$(sed -n 's/^encoder preset=\([a-z]*\).*/\1/p' "$work/out")
threads=$(sed -n 's/.* threads=\([0-9]*\).*/\1/p' "$work/out")
params=$(sed -n 's/.* x264-params=\(.*\)$/\1/p' "$work/out")
ffmpeg_encode() {  # ffmpeg_encode OUT [x264 options…]
  local out=$1; shift
  stats ffmpeg -nostdin -v error -y -f rawvideo -pix_fmt yuyv422 -s 1280x720 -r 30 -stream_loop "$loops" -i "$work/frames.yuyv" \
    -f s16le -ar 48000 -ac 1 -i "$work/tone.raw" -t "$secs" -c:v libx264 -crf 23 -g 30 -bf 0 -pix_fmt yuv420p "$@" \
    -c:a aac -b:a 96k "$out"
}
f=$(ffmpeg_encode "$work/ff.mov" -preset "$preset" -threads "$threads" ${params:+-x264-params "$params"})
fd=$(ffmpeg_encode "$work/ffd.mov" -preset veryfast)
start=$(date +%s.%N)
ffmpeg -v error -y -ss 1 -i "$work/ff.mov" -frames:v 1 -vf scale=320:-2 "$work/ff.jpg"
f_thumb=$(echo "$(date +%s.%N) - $start" | bc -l)
# ffmpeg writes a regular .mov as it goes: its "finalize" is the trailer (moov) at the end, not
# separately measurable; cravey's is draining the encoder plus the remux of the fragmented file.
echo "$secs s of 1280x720 YUYV at 30 fps + 48 kHz mono, x264 $preset threads $threads ${params:-(no x264-params)}, both unpaced, release build"
printf '%-44s %12s %12s %8s\n' "" "cravey" "ffmpeg" "ratio"
read -r c_cpu c_rss c_wall <<<"$c"; read -r f_cpu f_rss f_wall <<<"$f"
printf '%-44s %12.4f %12.4f %8.2f\n' "CPU-seconds per recorded second" "$(echo "$c_cpu/$secs" | bc -l)" "$(echo "$f_cpu/$secs" | bc -l)" "$(echo "$c_cpu/$f_cpu" | bc -l)"
printf '%-44s %12d %12d %8.2f\n' "peak RSS (KiB)" "$c_rss" "$f_rss" "$(echo "$c_rss/$f_rss" | bc -l)"
read -r d_cpu d_rss d_wall <<<"$fd"
printf '%-44s %12d %12d %8.2f\n' "peak RSS vs ffmpeg -preset veryfast defaults" "$c_rss" "$d_rss" "$(echo "$c_rss/$d_rss" | bc -l)"
printf '%-44s %12.3f %12.3f %8.2f\n' "wall seconds (encode speed)" "$c_wall" "$f_wall" "$(echo "$c_wall/$f_wall" | bc -l)"
printf '%-44s %12.3f %12s\n' "finalize (drain + remux), s  (target < 0.3)" "$c_final" "—"
printf '%-44s %12.3f %12.3f %8.2f\n' "thumbnail, s (ffmpeg -ss 1 -frames:v 1)" "$c_thumb" "$f_thumb" "$(echo "$c_thumb/$f_thumb" | bc -l)"
printf '%-44s %12s %12s\n' "file size (bytes)" "$(stat -c %s "$work/bench.mov")" "$(stat -c %s "$work/ff.mov")"

if [ "${CRAVEY_BENCH_TABLE:-1}" = 1 ]; then
  echo
  echo "x264 presets and threads on this machine (cravey's writer, default lookahead, 20 s of 720p30)"
  for p in ultrafast superfast veryfast faster; do
    for t in 0 1 2; do
      r=$(CRAVEY_BENCH_X264= stats "$bench" "$work/frames.yuyv" 1280 720 30 "$work/tone.raw" 20 "$p" "$t" "$work")
      read -r cpu rss wall <<<"$r"
      printf '  %-10s threads %-2s  %5.2f× real time   %5.3f CPU-s/s   %6d KiB   %9d bytes\n' "$p" "$t" "$(echo "20/$wall" | bc -l)" \
        "$(echo "$cpu/20" | bc -l)" "$rss" "$(stat -c %s "$work/bench.mov")"
    done
  done
fi

# In the VM rig (real vivid + snd-aloop drivers, emulated CPU): start latency (command → first
# frame written) and frames dropped at 640x360@30, cravey record video, 10 s, 3 runs.
if [ "${CRAVEY_BENCH_VM:-1}" = 1 ] && { [ "$(id -u)" -eq 0 ] || sudo -n true 2>/dev/null; }; then
  swift build -c release --static-swift-stdlib --product cravey >/dev/null
  cravey=$(swift build -c release --static-swift-stdlib --show-bin-path)/cravey
  vmwork=$(mktemp -d)  # on the host's disk: the VM sees it through its read-only root share
  trap 'rm -rf "$work" "$vmwork"' EXIT
  cp "$work/tone.raw" "$vmwork/tone.raw"
  cat > "$vmwork/vm.py" <<'PY'
import os, re, subprocess, sys, time, statistics
cravey, tone = sys.argv[1], sys.argv[2]
# The machine's own HOME and TMPDIR (tmpfs): SQLite puts its temporary files in TMPDIR, and the
# emulated machine's /tmp is the host's, read-only.
env = {"CRAVEY_TIMINGS": "1", "PATH": "/usr/bin:/bin", "HOME": os.environ["HOME"], "TMPDIR": os.environ["TMPDIR"]}
player = subprocess.Popen(["aplay", "-q", "-D", "hw:Loopback,0,0", "-f", "S16_LE", "-r", "48000", "-c", "1", "-t", "raw", tone])
time.sleep(0.3)
lat, drops, frames, bare = [], [], [], []
for i in range(3):  # what merely starting the program costs under emulation, for comparison
    t0 = time.monotonic_ns()
    subprocess.run([cravey, "--help"], capture_output=True)
    bare.append((time.monotonic_ns() - t0) / 1e9)
for i in range(3):
    t0 = time.monotonic_ns()
    p = subprocess.run([cravey, "record", "video", "--mic", "hw:Loopback,1,0", "--size", "640x360", "--max-seconds", "10",
                        "--yes", "--library", f"/dev/shm/tmp/vmbench{i}"], env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"cravey record video in the VM: exit {p.returncode}: {p.stderr.strip()[-400:]}")
    m = re.search(r"first_frame_ns=(\d+)", p.stderr)
    if m: lat.append((int(m.group(1)) - t0) / 1e9)
    m = re.search(r"recorded (\d+) frames.*?(?:\((\d+) dropped)?", p.stderr)
    if m:
        frames.append(int(m.group(1)))
        d = re.search(r"\((\d+) dropped", p.stderr)
        drops.append(int(d.group(1)) if d else 0)
player.kill()
print(f"{'VM: start latency (command → first frame), s':44s} {statistics.median(lat):12.3f}   (median of {len(lat)}; 'cravey --help' alone: {statistics.median(bare):.3f} s under emulation)")
print(f"{'VM: frames kept / dropped in 10 s at 640x360@30':44s} {statistics.median(frames):8.0f} / {statistics.median(drops):.0f}   (of 300)")
PY
  sudo_=""; [ "$(id -u)" -eq 0 ] || sudo_=sudo
  echo
  $sudo_ bash Tests/vm/rig.sh run "$vmwork/results" -- /usr/bin/python3 "$vmwork/vm.py" "$cravey" "$vmwork/tone.raw" 2>"$vmwork/rig.err" | tail -2 \
    || { tail -3 "$vmwork/rig.err" >&2; exit 1; }
fi

