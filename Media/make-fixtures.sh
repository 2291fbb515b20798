#!/usr/bin/env bash
# Makes the sample media the tests and the demo use, from nothing but espeak-ng and sox.
#   phrase-48k-s16.raw   a spoken phrase, 48 kHz mono S16_LE raw, padded to exactly 4.000 s
#                        (committed: it is small; re-running makes the same kind of file)
#   <dir>/tone-125s.raw  a 440 Hz tone at -6 dBFS lasting 125 s, longer than cravey's 120 s cap
#                        (generated on demand into the directory given, as it is 12 MB)
# Usage: Media/make-fixtures.sh [DIR-FOR-GENERATED-FILES]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-}

if [ ! -s "$here/phrase-48k-s16.raw" ]; then
  tmp=$(mktemp -d)
  espeak-ng -v en-us -s 150 -w "$tmp/phrase.wav" "Remember why you started. You are stronger than this craving."
  sox "$tmp/phrase.wav" -r 48000 -c 1 -b 16 -e signed-integer -t raw "$tmp/phrase.raw" norm -3 pad 0.2 0 trim 0 4.0 pad 0 4.0 trim 0 4.0
  mv "$tmp/phrase.raw" "$here/phrase-48k-s16.raw"
  rm -rf "$tmp"
fi

if [ -n "$out" ]; then
  mkdir -p "$out"
  [ -s "$out/tone-125s.raw" ] || sox -n -r 48000 -c 1 -b 16 -e signed-integer -t raw "$out/tone-125s.raw" synth 125 sine 440 vol 0.5
fi
