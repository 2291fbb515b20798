#!/usr/bin/env bash
# Every benchmark of Tests/bench in one run, each figure side by side with its anchor (the sqlite3
# CLI, ffmpeg, ffplay, mpv, ffmpeg's asr filter) and their ratio, measured in the same run:
#   library.sh    list/top/show start-up and queries vs sqlite3 (empty library: ≤ 5×, ≤ 25 MiB)
#   logs.sh       cravey craving 7 vs sqlite3's insert of the row (≤ 5×); log --json over 73,000 logs
#   play.sh       first sample at the speaker vs ffplay and mpv (target < 0.15 s)
#   ride.sh       cravey ride's first sample at the speaker vs play --top (rule: ≤ 1 s)
#   launch.sh     play --top from a desktop key vs from a shell; launch ride in xterm vs xterm alone
#   speaker.sh    a play stopped while its speaker does not answer vs aplay (goal ≤ 0.5 s)
#   report.sh     progress --json with prices vs without; report --html; report --pdf vs chromium alone
#   import.sh     120 s WAV/MP3 import vs ffmpeg -c:a aac (target ≤ 0.75×)
#   record.sh     audio recording CPU and RSS vs ffmpeg -f alsa
#   loudness.sh   a save's loudness measurement vs ffmpeg -af ebur128
#   video.sh      720p30 encoding (the recorder's writer) vs ffmpeg libx264
#   webcam.sh     webcam recording (MJPEG, YUYV) in the VM rig vs ffmpeg -f v4l2
#   transcribe.sh word error rate and speed vs ffmpeg's asr filter
#   backup.sh     backup --verify (SHA-256 by libavutil) vs sha256sum
#   status.sh     cravey status (a prompt's line) vs sqlite3 running the same queries (goal ≤ 3×)
#   sync.sh       sync bringing in 73,000 logs vs sqlite3 importing them (goal ≤ 2×); compaction;
#                 log --json and export vs sqlite3 -json (quick: 7,300 logs)
# Usage: Tests/bench/all.sh [quick]   (quick: fewer runs and a 30 s video; needs root for the VM)
set -euo pipefail
trap 'status=$?; echo "${0##*/}: line $LINENO failed (status $status): $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/../.."
runs=5 video=120
[ "${1:-}" = quick ] && runs=3 video=30
bash Tests/install-deps.sh >/dev/null
swift build -c release --static-swift-stdlib --product cravey >/dev/null
swift build -c release --static-swift-stdlib --product writer-bench >/dev/null
section() { printf '\n=== %s\n' "$1"; }
started=$SECONDS
section "library commands (library.sh $((runs * 3)))"; bash Tests/bench/library.sh $((runs * 3))
section "craving and use logs (logs.sh $((runs * 3)))"; bash Tests/bench/logs.sh $((runs * 3))
section "playback start (play.sh $((runs * 2)))"; bash Tests/bench/play.sh $((runs * 2))
section "ride start (ride.sh $((runs * 2)))"; bash Tests/bench/ride.sh $((runs * 2))
section "from the desktop (launch.sh $((runs * 2)))"; bash Tests/bench/launch.sh $((runs * 2))
section "a speaker that does not answer (speaker.sh $runs)"; bash Tests/bench/speaker.sh "$runs"
section "money kept and the report (report.sh $((runs * 2)))"; bash Tests/bench/report.sh $((runs * 2))
section "import (import.sh $runs)"; bash Tests/bench/import.sh "$runs"
section "audio recording (record.sh $runs)"; bash Tests/bench/record.sh "$runs"
section "loudness at save (loudness.sh $runs)"; bash Tests/bench/loudness.sh "$runs"
section "video encoding (video.sh $video)"; CRAVEY_BENCH_TABLE=0 bash Tests/bench/video.sh "$video"
section "backup hashing (backup.sh $runs)"; bash Tests/bench/backup.sh "$runs"
section "status line (status.sh $((runs * 5)))"; bash Tests/bench/status.sh $((runs * 5))
section "two machines (sync.sh $runs ${1:-})"; bash Tests/bench/sync.sh "$runs" "${1:-}"
section "webcam recording in the VM (webcam.sh)"; bash Tests/bench/webcam.sh
section "transcripts (transcribe.sh $runs)"; bash Tests/bench/transcribe.sh "$runs"
printf '\nall benchmarks: %d s\n' $((SECONDS - started))
