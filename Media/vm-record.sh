#!/usr/bin/env bash
# Inside the VM rig (Tests/vm/rig.sh): record a short video message from the kernel's vivid webcam
# and snd-aloop sound card — the spoken phrase of Media/ is played into the loopback, which is the
# microphone — then copy the library out through the rig's results share.
#   Media/vm-record.sh CRAVEY_BINARY
# The emulated CPU is slow: the video is 320x180 (which it encodes at 30 fps without dropping), and
# the loopback is fed as one stream with a 2 s buffer by a high-priority feeder started before the
# recorder (Media/loopback-feeder.py), so the phrase reaches the recorder whole, never in bursts.
set -euo pipefail
cravey=$1
library=$TMPDIR/demo-library
# The transcript is made on the host afterwards ('cravey transcribe --all --wait').
export CRAVEY_TRANSCRIBE=later
flag=$TMPDIR/speak-now
rm -f "$flag"
nice -n -10 python3 Media/loopback-feeder.py Media/phrase-48k-s16.raw "$flag" hw:Loopback,0,0 2>"$TMPDIR/feeder.log" &
feeder=$!
sleep 1
"$cravey" record video --library "$library" --mic hw:Loopback,1,0 --size 320x180 --max-seconds 8 \
  --title "Remember why you started" --purpose motivational &
recorder=$!
# Programs start slowly on the emulated CPU: speak once the recording has begun (its temporary
# file exists before the devices open; the writer puts its header in once they have). The phrase
# is heard 2 s later (the feeder's buffer) and lasts 4 s: inside the 8 s recording.
for _ in $(seq 300); do
  part=$(ls "$library/.incoming"/rec_video_* 2>/dev/null | head -1 || true)
  [ -n "$part" ] && [ -s "$part" ] && break
  sleep 0.1
done
touch "$flag"
wait "$recorder"
kill "$feeder"
status=0; wait "$feeder" || status=$?
cp -a "$library" "$CRAVEY_VM_RESULTS/library"
cp "$TMPDIR/feeder.log" "$CRAVEY_VM_RESULTS/feeder.log"
[ "$status" -eq 0 ] || echo "vm-record: the loopback underran while the phrase played ($(wc -l < "$TMPDIR/feeder.log") underruns)" >&2
