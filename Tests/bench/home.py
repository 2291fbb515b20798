#!/usr/bin/env python3
"""From a shell prompt, `cravey` then `1`: the time from starting the program on a terminal (a
pty) to the top message's first sound at the speaker (ALSA's file plugin writing a file), median of
N runs.  usage: home.py CRAVEY LIBRARY ALSA_CONFIG N"""
import os, pty, statistics, sys, tempfile, time

cravey, library, alsa, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
times = []
for _ in range(runs):
    out = tempfile.mktemp()
    env = dict(os.environ, ALSA_CONFIG_PATH=alsa, CRAVEY_ALSA_OUTFILE=out, CRAVEY_LIBRARY=library, NO_COLOR="1", TERM="xterm")
    start = time.monotonic()
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(cravey, [cravey, "home", "--speaker", "cravey_capture"], env)
    os.write(fd, b"1")  # typed at once, as a person would
    while not (os.path.exists(out) and os.path.getsize(out) > 0):
        try:
            os.read(fd, 65536) if os.path.exists("/proc/%d" % pid) else None
        except OSError:
            pass
        if time.monotonic() - start > 10:
            break
        time.sleep(0.002)
    times.append(time.monotonic() - start)
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    os.close(fd)
    os.unlink(out) if os.path.exists(out) else None
print("%.4f" % statistics.median(times))
