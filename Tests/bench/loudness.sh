#!/usr/bin/env bash
# Loudness benchmark: measuring a 120 s recording as cravey does at every save (decode, EBU R128
# integrated loudness and true peak with libebur128, waveform, playback gain — measured a second
# time through the limiter when it will shape the peaks), side by side with
# `ffmpeg -i FILE -af ebur128=peak=true -f null -` on the same file. Whole processes, wall time
# and peak RSS, the median of the runs.
# Usage: Tests/bench/loudness.sh [runs]
set -euo pipefail
trap 'status=$?; echo "${0##*/}: line $LINENO failed (status $status): $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/../.."
runs=${1:-5}
swift build -c release --static-swift-stdlib --product writer-bench >/dev/null
bench=$(swift build -c release --static-swift-stdlib --show-bin-path)/writer-bench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A spoken 120 s message at a laptop microphone's level (peaks limited) and at a headset's.
espeak-ng -w "$work/voice.wav" "Remember why you started. You are stronger than this moment, and it will pass. Breathe slowly, drink some water and wait ten minutes."
sox "$work/voice.wav" -r 48000 -c 1 "$work/long.wav" repeat 20 trim 0 120
ffmpeg -v error -y -i "$work/long.wav" -af volume=-20dB -c:a aac -b:a 96k "$work/quiet.m4a"
ffmpeg -v error -y -i "$work/long.wav" -c:a aac -b:a 96k "$work/loud.m4a"
med() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}'; }
# wall ms and peak RSS (KiB) of one run
measure() { /usr/bin/time -f '%e %M' -o "$work/time" "$@" >/dev/null 2>&1; awk '{printf "%d %d\n", $1 * 1000, $2}' "$work/time"; }
printf '%-24s %12s %12s %8s %14s %14s\n' "120 s AAC message" "cravey (ms)" "ffmpeg (ms)" "ratio" "cravey RSS" "ffmpeg RSS"
for input in quiet.m4a loud.m4a; do
  c=(); f=(); cr=(); fr=()
  for i in $(seq "$runs"); do
    read -r t m < <(measure "$bench" loudness "$work/$input"); c+=("$t"); cr+=("$m")
    read -r t m < <(measure ffmpeg -v error -nostats -i "$work/$input" -af ebur128=peak=true -f null -); f+=("$t"); fr+=("$m")
  done
  cm=$(med "${c[@]}"); fm=$(med "${f[@]}")
  printf '%-24s %12d %12d %8.2f %11d KiB %11d KiB\n' "$input" "$cm" "$fm" "$(echo "$cm/$fm" | bc -l)" "$(med "${cr[@]}")" "$(med "${fr[@]}")"
done
echo "cravey's figures: $("$bench" loudness "$work/quiet.m4a") (quiet); $("$bench" loudness "$work/loud.m4a") (loud)"
