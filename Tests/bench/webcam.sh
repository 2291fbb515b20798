#!/usr/bin/env bash
# Webcam benchmark, in the VM rig (real drivers, emulated CPU: absolute figures are several times a
# laptop's, the ratios are what to read): `cravey record video` next to the ffmpeg CLI recording the
# same stream (`ffmpeg -f v4l2 -input_format … -f alsa …`, libx264 with cravey's settings, AAC 96k),
# whole processes, 8 s each: CPU-seconds per recorded second, peak RSS, frames kept.
#   MJPEG 640x360@30 (4:2:0) and 1280x720@30 (4:2:2) from v4l2loopback, fed by ffmpeg;
#   MJPEG 640x480@30 (4:2:0): cravey's FFmpeg decoding next to libv4l2's own conversion;
#   YUYV 640x360@30 from vivid (converted by libv4l2 in its buffer, handed to the encoder's
#   converter from there: no copy in between);
#   the live preview's cost on that same recording, at 640x360 and 320x180: none, in the terminal (a
#   pseudo-terminal from script) and in a window (Xvfb): CPU per recorded second, frames kept and
#   dropped, pictures shown.
# Usage: Tests/bench/webcam.sh [--check]   (root: the VM rig; --check: the set-up only, no VM)
set -euo pipefail
trap 'status=$?; echo "${0##*/}: line $LINENO failed (status $status): $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/../.."
# --check: only the set-up (the encoder settings read from the binary CRAVEY_BINARY, the debug build
# by default), printed; what the test suite runs so a break is seen without the VM.
check=0
if [ "${1:-}" = --check ]; then
  check=1 cravey=${CRAVEY_BINARY:-.build/debug/cravey}
else
  swift build -c release --static-swift-stdlib --product cravey >/dev/null
  cravey=$(swift build -c release --static-swift-stdlib --show-bin-path)/cravey
fi
# The encoder settings come from the program itself (`devices --json`), never from its source text.
encoder=$("$cravey" devices --json | python3 -c 'import json, sys; e = json.load(sys.stdin)["encoder"]; print(e["preset"], e["crf"], e["threads"], e["x264Params"])' 2>/dev/null) \
  || { echo "webcam.sh: cravey devices --json names no encoder settings (preset, crf, threads, x264Params)" >&2; exit 1; }
read -r preset crf threads params <<<"$encoder"
[ -n "$preset" ] && [ -n "$crf" ] && [ -n "$threads" ] || { echo "webcam.sh: the encoder settings from cravey devices --json are incomplete: '$encoder'" >&2; exit 1; }
if [ "$check" = 1 ]; then echo "webcam.sh: x264 $preset crf $crf threads $threads ${params:+($params)}"; exit 0; fi
work=$(mktemp -d)  # on the host's disk: the VM sees it through its read-only root share
trap 'rm -rf "$work"' EXIT
sox -n -r 48000 -c 1 -b 16 -e signed-integer -t raw "$work/tone.raw" synth 300 sine 440 vol 0.5
cat > "$work/vm.sh" <<'VM'
#!/bin/bash
# Runs inside the VM. Each loopback node takes one writer per boot: every run feeds a node of its own.
# (A feeder keeps running until the VM powers off.)
set -u
cravey=$1 tone=$2 preset=$3 crf=$4 threads=$5 params=$6
t=/dev/shm/tmp secs=8
export CRAVEY_TRANSCRIBE=later  # the transcript after a save is transcribe.sh's to measure
aplay -q -D hw:Loopback,0,0 -f S16_LE -r 48000 -c 1 -t raw "$tone" &
clip() {  # clip W H SAMPLING: 4 s of moving test picture as MJPEG
  ffmpeg -v error -y -f lavfi -i "testsrc2=s=$1x$2:r=30" -t 4 -c:v mjpeg -pix_fmt "$3" -q:v 5 "$t/$1x$2-$3.mkv"
  echo "$t/$1x$2-$3.mkv"
}
feed() {  # feed CLIP N: loopback node N fed in real time; prints the node
  local node=$2
  ffmpeg -v error -re -stream_loop -1 -i "$1" -c:v copy -f v4l2 "/dev/video$node" </dev/null >/dev/null 2>&1 &
  for _ in $(seq 100); do v4l2-ctl -d "/dev/video$node" --list-formats 2>/dev/null | grep -q MJPG && break; sleep 0.3; done
  echo "/dev/video$node"
}
measure() {  # measure LABEL FUNCTION ARGS…: "LABEL cpu_per_s rss_kib frames dropped shown opened_ms" (the function in a bash of its own)
  local label=$1; shift
  /usr/bin/time -f '%U %S %M' -o "$t/time" bash -c '"$@"' _ "$@" > "$t/out" 2> "$t/err" || echo "FAILED $label: $(tail -n 3 "$t/err" | tr '\n' ' ')"
  sed -i '/^Command /d' "$t/time"
  pkill -f -- "-c:v copy -f v4l2" || true  # the feeder: nothing else runs beside the next measurement
  local frames dropped shown opened
  frames=$(cat "$t/err" "$t/out" | sed -n 's/.*recorded \([0-9]*\) frames.*/\1/p' | head -1)
  shown=$(cat "$t/err" "$t/out" | sed -n 's/.*preview_shown=\([0-9]*\).*/\1/p' | head -1)
  opened=$(cat "$t/err" "$t/out" | sed -n 's/.*preview_open_ms=\([0-9]*\).*/\1/p' | head -1)
  dropped=$(cat "$t/err" "$t/out" | sed -n 's/.*(\([0-9]*\) dropped by the camera).*/\1/p' | head -1)
  [ -n "$frames" ] || frames=$(ffprobe -v error -count_packets -select_streams v -show_entries stream=nb_read_packets -of csv=p=0 "$t/ff.mov" 2>/dev/null)
  awk -v l="$label" -v s=$secs -v f="${frames:-0}" -v d="${dropped:-0}" -v p="${shown:-0}" -v o="${opened:--}" '{printf "%s %.3f %d %s %s %s %s\n", l, ($1 + $2) / s, $3, f, d, p, o}' "$t/time"
}
ffrec() {  # ffrec INPUT_FORMAT SIZE FPS NODE
  rm -f "$t/ff.mov"
  ffmpeg -nostdin -v error -y -f v4l2 -input_format "$1" -video_size "$2" -framerate "$3" -i "$4" \
    -f alsa -channels 1 -sample_rate 48000 -i hw:Loopback,1,0 -t $secs \
    -c:v libx264 -preset "$preset" -crf "$crf" -threads "$threads" ${params:+-x264-params "$params"} -g 30 -bf 0 -pix_fmt yuv420p \
    -c:a aac -b:a 96k "$t/ff.mov"
}
crrec() {  # crrec NODE [SIZE [PREVIEW]] (the timings line says how many pictures the preview showed)
  CRAVEY_TIMINGS=1 "$cravey" record video --camera "$1" ${2:+--size "$2"} --mic hw:Loopback,1,0 --max-seconds $secs --yes --library "$t/lib$RANDOM" \
    --preview "${3:-off}"
}
crterm() {  # crterm NODE SIZE: at a terminal (script's pseudo-terminal), the camera drawn above the meter
  SHELL=/bin/bash TERM=xterm-256color COLUMNS=100 LINES=40 script -qfec "$(printf '%q ' crrec "$1" "$2" terminal)" /dev/null
}
export -f ffrec crrec crterm
export cravey t secs preset crf threads params
small=$(clip 640 360 yuvj420p); large=$(clip 1280 720 yuvj422p); middle=$(clip 640 480 yuvj420p)
measure "mjpeg-360p-cravey" crrec "$(feed "$small" 1)"
measure "mjpeg-360p-ffmpeg" ffrec mjpeg 640x360 30 "$(feed "$small" 2)"
measure "mjpeg-720p-cravey" crrec "$(feed "$large" 3)"
measure "mjpeg-720p-ffmpeg" ffrec mjpeg 1280x720 30 "$(feed "$large" 4)"
measure "mjpeg-480p-cravey" crrec "$(feed "$middle" 5)"
n=$(feed "$middle" 6); CRAVEY_JPEG_DECODER=libv4l2 measure "mjpeg-480p-libv4l2" crrec "$n"
measure "yuyv-360p-cravey" crrec /dev/video0 640x360
measure "yuyv-360p-ffmpeg" ffrec yuyv422 640x360 30 /dev/video0
# The preview at two sizes: 640x360, which the recording alone already keeps the two emulated
# CPUs busy with, and 320x180, which leaves them time to spare.
for size in 640x360 320x180; do
  measure "preview-none-$size" crrec /dev/video0 $size off
  measure "preview-terminal-$size" crterm /dev/video0 $size
done
# The window: Xvfb, SDL's software renderer (the VM has no GPU), and one run first that is not
# measured (the first window's libraries take seconds to load over the VM's share).
Xvfb :7 -nolock -screen 0 1024x768x24 -nolisten tcp 2>/dev/null &
sleep 2
export SDL_RENDER_DRIVER=software
DISPLAY=:7 crrec /dev/video0 640x360 window >/dev/null 2>&1
for size in 640x360 320x180; do DISPLAY=:7 measure "preview-window-$size" crrec /dev/video0 $size window; done
VM
sudo_=""; [ "$(id -u)" -eq 0 ] || sudo_=sudo
$sudo_ bash Tests/vm/rig.sh run "$work/results" -- /bin/bash "$work/vm.sh" "$cravey" "$work/tone.raw" "$preset" "$crf" "$threads" "$params" \
  2> "$work/errors" > "$work/figures" || { cat "$work/errors" >&2; exit 1; }
grep "^FAILED" "$work/figures" >&2 || true
get() { awk -v l="$1" -v k="$2" '$1 == l {print $k}' "$work/figures"; }
row() {  # row TITLE A B: CPU, RSS and frames of run A next to run B, with the ratios
  printf '%-34s %7.3f %7.3f %6.2f   %7d %7d %5.2f   %4s %4s\n' "$1" "$(get "$2" 2)" "$(get "$3" 2)" \
    "$(echo "$(get "$2" 2)/$(get "$3" 2)" | bc -l)" "$(get "$2" 3)" "$(get "$3" 3)" "$(echo "$(get "$2" 3)/$(get "$3" 3)" | bc -l)" \
    "$(get "$2" 4)" "$(get "$3" 4)"
}
echo "webcam recording in the VM rig, 8 s each, x264 $preset crf $crf threads $threads, release build (emulated CPU)"
printf '%-34s %23s   %21s   %9s\n' "" "CPU-s per recorded s" "peak RSS (KiB)" "frames"
printf '%-34s %7s %7s %6s   %7s %7s %5s   %4s %4s\n' "" "cravey" "anchor" "ratio" "cravey" "anchor" "ratio" "crv" "anc"
row "MJPEG 640x360@30 vs ffmpeg" mjpeg-360p-cravey mjpeg-360p-ffmpeg
row "MJPEG 1280x720@30 4:2:2 vs ffmpeg" mjpeg-720p-cravey mjpeg-720p-ffmpeg
row "MJPEG 640x480: FFmpeg vs libv4l2" mjpeg-480p-cravey mjpeg-480p-libv4l2
row "YUYV 640x360@30 (vivid) vs ffmpeg" yuyv-360p-cravey yuyv-360p-ffmpeg
echo
echo "the live camera preview, YUYV at 30 fps from vivid, 8 s each (cravey; the preview's cost; shown = pictures shown;"
echo "opened = ms the window took to open, before the recording started)"
printf '%-34s %12s %9s %8s %8s %8s %8s\n' "" "CPU-s per s" "vs none" "frames" "dropped" "shown" "opened"
for size in 640x360 320x180; do
  for run in none terminal window; do
    printf '%-34s %12.3f %9.2f %8s %8s %8s %8s\n' "preview $size: $run" "$(get "preview-$run-$size" 2)" \
      "$(echo "$(get "preview-$run-$size" 2)/$(get "preview-none-$size" 2)" | bc -l)" \
      "$(get "preview-$run-$size" 4)" "$(get "preview-$run-$size" 5)" "$(get "preview-$run-$size" 6)" "$(get "preview-$run-$size" 7)"
  done
done
