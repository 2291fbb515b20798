#!/usr/bin/env bash
# Inside the VM rig (Tests/vm/rig.sh): record a short video message from the kernel's vivid webcam
# and snd-aloop sound card — the spoken phrase of Media/ is played into the loopback, which is the
# microphone — then copy the library out through the rig's results share.
#   Media/vm-record.sh CRAVEY_BINARY
set -euo pipefail
cravey=$1
library=$TMPDIR/demo-library
# The transcript is made on the host afterwards ('cravey transcribe --all'): the emulated CPU is slow.
export CRAVEY_TRANSCRIBE=later
# The loopback carries silence until the phrase starts (both ends must run at the same format).
aplay -q -D hw:Loopback,0,0 -f S16_LE -r 48000 -c 1 -t raw /dev/zero &
silence=$!
"$cravey" record video --library "$library" --mic hw:Loopback,1,0 --size 640x360 --max-seconds 5 \
  --title "Remember why you started" --purpose motivational &
recorder=$!
# Programs start slowly on the emulated CPU: speak once the recording has begun (its temporary
# file exists before the devices open; the writer puts its header in once they have).
for _ in $(seq 300); do
  part=$(ls "$library/.incoming"/rec_video_* 2>/dev/null | head -1 || true)
  [ -n "$part" ] && [ -s "$part" ] && break
  sleep 0.1
done
sleep 0.5
kill "$silence"; wait "$silence" 2>/dev/null || true
aplay -q -D hw:Loopback,0,0 -f S16_LE -r 48000 -c 1 -t raw Media/phrase-48k-s16.raw
wait "$recorder"
cp -a "$library" "$CRAVEY_VM_RESULTS/library"
