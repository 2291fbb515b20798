#!/usr/bin/env python3
"""Speaks the phrase into the VM rig's snd-aloop microphone without a gap: one aplay, one stream.

usage: loopback-feeder.py PHRASE.raw START_FLAG [DEVICE] [--buffer-ms N] [--stall-ms N]

Plays silence into DEVICE (default hw:Loopback,0,0; its sound is captured on hw:Loopback,1,N) from
the start, then, once the file START_FLAG exists, the phrase (48 kHz mono S16_LE raw), then silence
again until it is stopped. One aplay runs the whole time with a 2-second buffer kept full, so a
busy (emulated) CPU that stalls this program for up to 2 s never starves the loopback: stopping and
starting a player, or letting its buffer run dry, hands the recorder stretches of digital silence
(an underrun). The phrase is heard about 2 s after START_FLAG appears (the buffer ahead of it).
aplay's underrun reports are passed on, and the feeder watches its own pace: a write that returns
more than half the buffer after the one before is a late write. Each is a line on stderr, timed
from the moment START_FLAG appeared ("loopback-feeder: underrun at 3.10 s: …", "loopback-feeder:
late write at 2.40 s: 1400 ms after the last"). The last line sums up what could have reached the
microphone as silence: "loopback-feeder: behind N ms while the phrase played" (N: the milliseconds a
write came later than the buffer could cover, and the length of any underrun aplay reported), and
the exit status is 1 when N is above 0. --buffer-ms (default 2000) and --stall-ms (a
pause this long in the middle of the phrase, default none) exist to starve the loopback on
purpose, the way to see that the checks downstream catch an underrun: the pause must outlast the
pipe to aplay (about 0.7 s of sound) and its buffer, e.g. --buffer-ms 100 --stall-ms 2000.
"""
import os, re, subprocess, sys, time

RATE, CHUNK = 48000, 48000 // 50 * 2  # 20 ms of S16 mono


def main():
    args = sys.argv[1:]
    options = {}
    for name in ("--buffer-ms", "--stall-ms"):
        if name in args:
            at = args.index(name)
            options[name] = int(args[at + 1])
            del args[at:at + 2]
    phrase_path, flag = args[0], args[1]
    device = args[2] if len(args) > 2 else "hw:Loopback,0,0"
    buffer_ms, stall_ms = options.get("--buffer-ms", 2000), options.get("--stall-ms", 0)
    phrase = open(phrase_path, "rb").read()
    player = subprocess.Popen(
        ["aplay", "-D", device, "-f", "S16_LE", "-r", str(RATE), "-c", "1", "-t", "raw", "--buffer-time=%d" % (buffer_ms * 1000)],
        stdin=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    os.set_blocking(player.stderr.fileno(), False)
    silence = bytes(CHUNK)
    reports, behind_ms = [], 0.0
    started = time.monotonic()
    flagged = [None]  # when START_FLAG appeared
    last_write = [time.monotonic()]

    def since_flag():
        return time.monotonic() - (flagged[0] or started)

    def write(chunk, in_phrase):
        nonlocal behind_ms
        player.stdin.write(chunk)
        now = time.monotonic()
        gap = (now - last_write[0]) * 1000
        last_write[0] = now
        if gap > buffer_ms / 2:
            reports.append("late write at %.2f s: %d ms after the last" % (since_flag(), gap))
            if in_phrase and gap > buffer_ms:
                behind_ms += gap - buffer_ms
        read_reports(in_phrase)

    def read_reports(in_phrase):
        nonlocal behind_ms
        try:
            text = player.stderr.read() or b""
        except (BlockingIOError, TypeError):
            text = b""
        for line in text.decode(errors="replace").splitlines():
            if "underrun" in line:
                reports.append("underrun at %.2f s: %s" % (since_flag(), line.strip()))
                if in_phrase:
                    # aplay says "underrun!!! (at least 123.456 ms long)"; an unmeasured one counts a period.
                    found = re.search(r"at least ([0-9.]+) ms", line)
                    behind_ms += float(found.group(1)) if found else 20.0
    try:
        # Writes block while aplay's buffer is full: the stream is paced by the sound card.
        while not os.path.exists(flag):
            write(silence, False)
        flagged[0] = time.monotonic()
        for at in range(0, len(phrase), CHUNK):
            write(phrase[at:at + CHUNK], True)
            if stall_ms and at // CHUNK == len(phrase) // CHUNK // 2:
                player.stdin.flush()
                time.sleep(stall_ms / 1000)
        # The phrase is still in the buffer for 2 s: underruns then still cut into it.
        until = time.monotonic() + 2.5
        while True:
            write(silence, time.monotonic() < until)
    except (BrokenPipeError, KeyboardInterrupt):
        pass
    finally:
        for line in reports:
            print("loopback-feeder: " + line, file=sys.stderr)
        print("loopback-feeder: behind %d ms while the phrase played" % behind_ms, file=sys.stderr)
    return 1 if behind_ms > 0 else 0


if __name__ == "__main__":
    import signal
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    sys.exit(main())
