#!/usr/bin/env bash
# The main job, from nothing: install what cravey needs, build it, record a short message,
# list the library, and play the most played message.
#
# It records 5 seconds from your microphone (ALSA `default`, which reaches PipeWire/PulseAudio).
# On a machine without one (a server, CI), it records the spoken phrase in Media/ through ALSA's
# `file` plugin instead — the same ALSA capture path a real microphone takes — and plays to the
# `file` plugin's speaker, which writes what it is sent to a file.
# The demo library is a temporary directory unless CRAVEY_LIBRARY is set.
set -euo pipefail
cd "$(dirname "$0")/.."

bash Tests/install-deps.sh
swift build -c release --product cravey
cravey=$(swift build -c release --show-bin-path)/cravey
export CRAVEY_LIBRARY=${CRAVEY_LIBRARY:-$(mktemp -d)/cravey-demo}
echo "== library: $CRAVEY_LIBRARY"

echo "== cravey record audio (5 seconds)"
if ! "$cravey" record audio --max-seconds 5 --title "Remember why you started" --purpose motivational 2>/dev/null; then
  echo "   (no usable microphone here: recording Media/phrase-48k-s16.raw through ALSA's file plugin)"
  ALSA_CONFIG_PATH=$PWD/Media/alsa/cravey-test.conf CRAVEY_ALSA_INFILE=$PWD/Media/phrase-48k-s16.raw \
    "$cravey" record audio --mic cravey_file --max-seconds 4 --title "Remember why you started" --purpose motivational
fi

echo "== cravey list"
"$cravey" list
echo "== cravey top"
"$cravey" top
echo "== cravey play --top"
if ! "$cravey" play --top 2>/dev/null; then
  out=$(mktemp)
  echo "   (no usable speaker here: playing through ALSA's file plugin into $out)"
  ALSA_CONFIG_PATH=$PWD/Media/alsa/cravey-test.conf CRAVEY_ALSA_OUTFILE=$out "$cravey" play --top --speaker cravey_capture
  echo "   $(stat -c %s "$out") bytes of 48 kHz audio reached the speaker"
fi
"$cravey" top
