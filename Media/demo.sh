#!/usr/bin/env bash
# The main job, from nothing: install what cravey needs, build it, record a short message,
# list the library, and show the most played message.
#
# It records 5 seconds from your microphone (ALSA `default`, which reaches PipeWire/PulseAudio).
# On a machine without one (a server, CI), it records the spoken phrase in Media/ through ALSA's
# `file` plugin instead — the same ALSA capture path a real microphone takes.
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
echo "== cravey show (the top clip)"
top=$("$cravey" top 1 --json | sed -n 's/.*"id":"\([^"]*\)".*/\1/p' | head -1)
"$cravey" show "$top"
