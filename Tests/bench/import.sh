#!/usr/bin/env bash
# Import benchmark: `cravey import` of a 120 s stereo 44.1 kHz WAV and MP3, side by side with
# `ffmpeg -i FILE -ac 1 -ar 48000 -c:a aac -b:a 96k OUT.m4a` (the same conversion), whole processes.
# Usage: Tests/bench/import.sh [runs]
set -euo pipefail
trap 'status=$?; echo "${0##*/}: line $LINENO failed (status $status): $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/../.."
runs=${1:-5}
swift build -c release --static-swift-stdlib --product cravey >/dev/null
cravey=$(swift build -c release --static-swift-stdlib --show-bin-path)/cravey
# The transcript that follows an import is the transcript benchmark's (transcribe.sh); here only the
# import itself is timed.
export CRAVEY_TRANSCRIBE=later
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ffmpeg -v error -y -f lavfi -i "sine=f=330:r=44100:d=120" -ac 2 "$work/in.wav"
ffmpeg -v error -y -i "$work/in.wav" "$work/in.mp3"
med() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}'; }
wall() { local t0 t1; t0=$(date +%s%N); "$@" >/dev/null 2>&1; t1=$(date +%s%N); echo "$(( (t1 - t0) / 1000 ))"; }
printf '%-22s %12s %12s %8s\n' "120 s input" "cravey (s)" "ffmpeg (s)" "ratio"
for input in in.wav in.mp3; do
  c=(); f=()
  for i in $(seq "$runs"); do
    c+=("$(wall "$cravey" import "$work/$input" --title bench --library "$work/lib$i-$input")")
    f+=("$(wall ffmpeg -v error -y -i "$work/$input" -ac 1 -ar 48000 -c:a aac -b:a 96k "$work/out.m4a")")
  done
  cm=$(med "${c[@]}"); fm=$(med "${f[@]}")
  printf '%-22s %12.3f %12.3f %8.2f\n' "$input" "$(echo "$cm/1000000" | bc -l)" "$(echo "$fm/1000000" | bc -l)" "$(echo "$cm/$fm" | bc -l)"
done
