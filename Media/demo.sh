#!/usr/bin/env bash
# The main job, from nothing: install what cravey needs, build it, record a short video message,
# list the library, show it (with its thumbnail, drawn in the terminal), and play the most played
# message.
#
# It records 5 seconds from your webcam and microphone (the front camera and ALSA `default`, which
# reaches PipeWire/PulseAudio). On a machine without them (a server, CI) it records inside the VM
# rig (Tests/vm/rig.sh, needs root): Debian's own kernel under qemu with the `vivid` webcam and the
# `snd-aloop` sound card, into which the spoken phrase of Media/ is played. Where even that cannot
# run, it records the phrase as an audio message through ALSA's `file` plugin. Playback goes to your
# speakers, or else to the `file` plugin's speaker, which writes what it is sent to a file.
# The demo library is a temporary directory unless CRAVEY_LIBRARY is set.
set -euo pipefail
cd "$(dirname "$0")/.."

bash Tests/install-deps.sh
# The Whisper engine for transcripts, next to the build (the only download; cravey never fetches).
bash Whisper/install.sh .build/whisper
swift build -c release --static-swift-stdlib --product cravey
cravey=$(swift build -c release --static-swift-stdlib --show-bin-path)/cravey
export CRAVEY_LIBRARY=${CRAVEY_LIBRARY:-$(mktemp -d)/cravey-demo}
echo "== library: $CRAVEY_LIBRARY"
title="Remember why you started"

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

echo "== cravey record video (5 seconds)"
fed_phrase=1  # the phrase of Media/ is what was spoken (not on a real microphone)
if ls /dev/video* >/dev/null 2>&1 && "$cravey" record video --max-seconds 5 --title "$title" --purpose motivational 2>/dev/null; then
  fed_phrase=0
elif [ "$(id -u)" -eq 0 ] || sudo -n true 2>/dev/null; then
  echo "   (no webcam or microphone here: recording inside the VM rig from the kernel's vivid webcam and snd-aloop sound card,"
  echo "    8 s at 320x180, 30 fps — what the emulated CPU encodes in real time — with the phrase spoken into the loopback)"
  results=$(mktemp -d)
  as_root bash Tests/vm/rig.sh run "$results" -- bash Media/vm-record.sh "$cravey"
  mkdir -p "$(dirname "$CRAVEY_LIBRARY")"
  rm -rf "$CRAVEY_LIBRARY"
  as_root cp -a "$results/library" "$CRAVEY_LIBRARY"
  as_root chown -R "$(id -u):$(id -g)" "$CRAVEY_LIBRARY"
  as_root rm -rf "$results"
else
  echo "   (no camera, no microphone and no VM rig here: recording Media/phrase-48k-s16.raw through ALSA's file plugin)"
  ALSA_CONFIG_PATH=$PWD/Media/alsa/cravey-test.conf CRAVEY_ALSA_INFILE=$PWD/Media/phrase-48k-s16.raw \
    "$cravey" record audio --mic cravey_file --max-seconds 4 --title "$title" --purpose motivational
fi

echo "== cravey transcribe --all (offline: Whisper tiny.en on this machine, nothing leaves it)"
"$cravey" transcribe --all --wait
id=$("$cravey" list --json | sed -n 's/.*"id":"\([0-9A-F-]*\)".*/\1/p' | head -1)
if [ "$fed_phrase" = 1 ]; then
  echo "== checking the message holds the phrase it was given"
  "$cravey" show "$id" --json | python3 Media/check-phrase.py "$CRAVEY_LIBRARY" Media/phrase-48k-s16.raw
fi
echo "== cravey list"
"$cravey" list
echo "== cravey show (the newest message, with its thumbnail on a terminal)"
"$cravey" show "$id"
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
