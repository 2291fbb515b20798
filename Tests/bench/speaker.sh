#!/usr/bin/env bash
# Speaker benchmark: how fast a play ends when its speaker does not answer. The speaker is ALSA's
# `file` plugin writing into a FIFO (Media/alsa/cravey-test.conf, cravey_capture): nobody reading
# it, the plugin waits in open(2) inside its configuration, as a stuck device does; a reader that
# opens it and never reads, every write waits once the pipe is full. Measured: the words shown
# after the speaker's deadline (2 s), SIGTERM while the speaker is waited for, and SIGTERM while a
# playback is held in a write — next to `aplay` on the same FIFO killed the same way (it stays
# in open(2) after SIGTERM: killed after 5 s). Goal: a stop ends cravey within 0.5 s.
# Usage: Tests/bench/speaker.sh [runs]   (CRAVEY_BIN: a built cravey; else a release build first)
set -euo pipefail
trap 'status=$?; echo "${0##*/}: line $LINENO failed (status $status): $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/../.."
runs=${1:-9}
if [ -z "${CRAVEY_BIN:-}" ]; then
  swift build -c release --static-swift-stdlib --product cravey >/dev/null
  CRAVEY_BIN=$(swift build -c release --static-swift-stdlib --show-bin-path)/cravey
fi
work=$(mktemp -d)
reader=
trap '[ -n "$reader" ] && kill "$reader" 2>/dev/null; rm -rf "$work"' EXIT
export CRAVEY_TRANSCRIBE=later NO_COLOR=1 ALSA_CONFIG_PATH=$PWD/Media/alsa/cravey-test.conf
export CRAVEY_ALSA_OUTFILE=$work/speaker.fifo CRAVEY_LIBRARY=$work/lib
mkfifo "$CRAVEY_ALSA_OUTFILE"
ffmpeg -v error -f lavfi -i sine=d=4 "$work/walk.wav"
"$CRAVEY_BIN" import "$work/walk.wav" --title Walk >/dev/null

# Median seconds from SIGTERM (sent `$1` seconds after the start) to the exit of the rest of the
# line; a process still there 5 s after the signal is killed and counted as "> 5".
stopped() {
  local after=$1 times=()
  shift
  for _ in $(seq "$runs"); do
    "$@" >/dev/null 2>&1 &
    local pid=$! t0 t1
    sleep "$after"
    t0=$(date +%s%N)
    kill -TERM "$pid"
    while kill -0 "$pid" 2>/dev/null && [ $(( $(date +%s%N) - t0 )) -lt 5000000000 ]; do sleep 0.005; done
    if kill -0 "$pid" 2>/dev/null; then
      kill -KILL "$pid"; wait "$pid" 2>/dev/null || true
      echo "> 5 (killed)"; return
    fi
    wait "$pid" 2>/dev/null || true
    t1=$(date +%s%N)
    times+=($(( (t1 - t0) / 1000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.4f", a[int((NR+1)/2)]/1e6}'
}
source Tests/bench/median.sh
row() { printf '%-56s %8s s   %-20s %s s\n' "$@"; }
play=("$CRAVEY_BIN" play --top --speaker cravey_capture)
aplay=(aplay -q -D cravey_capture -f S16_LE -r 48000 -c 1 -t raw /dev/zero)

words() { "${play[@]}" 2>/dev/null || true; }  # the play ends with status 1 after the words
row "nobody reads: the words after the deadline" "$(median words)" "" ""
row "nobody reads: SIGTERM while the speaker is waited for" "$(stopped 0.5 "${play[@]}")" \
  "aplay, killed alike" "$(stopped 0.5 "${aplay[@]}")"
python3 -c 'import os, sys, time; fd = os.open(sys.argv[1], os.O_RDONLY); time.sleep(3600)' \
  "$CRAVEY_ALSA_OUTFILE" &
reader=$!
row "a reader that never reads: SIGTERM while a write waits" "$(stopped 1.5 "${play[@]}")" \
  "aplay, killed alike" "$(stopped 1.5 "${aplay[@]}")"
