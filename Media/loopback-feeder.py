#!/usr/bin/env python3
"""Speaks the phrase into the VM rig's snd-aloop microphone without a gap: one aplay, one stream.

usage: loopback-feeder.py PHRASE.raw START_FLAG [DEVICE] [--buffer-ms N] [--stall-ms N]

Plays silence into DEVICE (default hw:Loopback,0,0; its sound is captured on hw:Loopback,1,N) from
the start, then, once the file START_FLAG exists, the phrase (48 kHz mono S16_LE raw), then silence
again until it is stopped. One aplay runs the whole time with a 2-second buffer kept full, so a
busy (emulated) CPU that stalls this program for up to 2 s never starves the loopback: stopping and
starting a player, or letting its buffer run dry, hands the recorder stretches of digital silence
(an underrun). The phrase is heard about 2 s after START_FLAG appears (the buffer ahead of it).
aplay's underrun reports are passed on: this prints "underrun" lines on stderr if any happened, and
exits 1 if one happened while the phrase played. --buffer-ms (default 2000) and --stall-ms (a
pause this long in the middle of the phrase, default none) exist to starve the loopback on
purpose, the way to see that the checks downstream catch an underrun: the pause must outlast the
pipe to aplay (about 0.7 s of sound) and its buffer, e.g. --buffer-ms 100 --stall-ms 2000.
"""
import os, subprocess, sys, time

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
    reports, during_phrase = [], False

    def read_reports(in_phrase):
        nonlocal during_phrase
        try:
            text = player.stderr.read() or b""
        except (BlockingIOError, TypeError):
            text = b""
        for line in text.decode(errors="replace").splitlines():
            if "underrun" in line:
                reports.append(line.strip())
                during_phrase = during_phrase or in_phrase
    try:
        # Writes block while aplay's buffer is full: the stream is paced by the sound card.
        while not os.path.exists(flag):
            player.stdin.write(silence)
            read_reports(False)
        for at in range(0, len(phrase), CHUNK):
            player.stdin.write(phrase[at:at + CHUNK])
            read_reports(True)
            if stall_ms and at // CHUNK == len(phrase) // CHUNK // 2:
                player.stdin.flush()
                time.sleep(stall_ms / 1000)
        # The phrase is still in the buffer for 2 s: underruns then still cut into it.
        until = time.monotonic() + 2.5
        while True:
            player.stdin.write(silence)
            read_reports(time.monotonic() < until)
    except (BrokenPipeError, KeyboardInterrupt):
        pass
    finally:
        for line in reports:
            print("loopback-feeder: " + line, file=sys.stderr)
    return 1 if during_phrase else 0


if __name__ == "__main__":
    import signal
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    sys.exit(main())
