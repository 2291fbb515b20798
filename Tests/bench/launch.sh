#!/usr/bin/env bash
# From the desktop: `cravey play --top` run as a desktop key runs it (no terminal, its own session,
# standard input, output and error closed) to the first sample at the speaker, next to the same
# command run from a shell; and `cravey launch ride` to the ride drawn in an xterm (under Xvfb;
# read through xterm's own log), next to xterm running `true` alone and xterm echoing a word (the
# terminal's own start-up). The speaker is ALSA's `file` plugin (cravey_capture): the first bytes
# in its output file mark the first sample.
# Usage: Tests/bench/launch.sh [runs]
set -euo pipefail
trap 'status=$?; echo "${0##*/}: line $LINENO failed (status $status): $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/../.."
runs=${1:-10}
source Tests/bench/message.sh

python3 - "$cravey" "$work" "$runs" <<'PY'
import os, pty, shlex, signal, subprocess, sys, threading, time, statistics
cravey, work, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])

def first_sample(closed):
    """Start to the first bytes at the speaker: from a shell (on a terminal: a pseudo-terminal,
    drained), or `closed`, as a desktop key runs it."""
    out = f"{work}/speaker.raw"
    if os.path.exists(out): os.remove(out)
    line = " ".join(shlex.quote(a) for a in [cravey, "play", "--top", "--speaker", "cravey_capture", "--library", f"{work}/lib"])
    if closed: line += " 0<&- 1>&- 2>&-"
    env = dict(os.environ, CRAVEY_ALSA_OUTFILE=out, TERM="xterm-256color")
    terminal = None if closed else pty.openpty()
    tty = {} if closed else dict(stdin=terminal[1], stdout=terminal[1], stderr=terminal[1])
    if terminal:
        def drain():  # the terminal's output, read until the play is over and its side closes
            try:
                while os.read(terminal[0], 65536): pass
            except OSError:
                pass
        threading.Thread(target=drain, daemon=True).start()
    t0 = time.monotonic()
    p = subprocess.Popen(["/bin/sh", "-c", "exec " + line], env=env, start_new_session=True, **tty)
    while not (os.path.exists(out) and os.path.getsize(out) > 0) and p.poll() is None:
        time.sleep(0.0005)
    t = time.monotonic() - t0
    p.wait()
    if terminal: os.close(terminal[1])
    return t if os.path.exists(out) and os.path.getsize(out) > 0 else None

def median(f):
    times = [t for t in (f() for _ in range(runs)) if t is not None]
    return (statistics.median(times), len(times)) if times else (None, 0)

rows = [("play --top, from a shell (a terminal)", lambda: first_sample(False)),
        ("play --top, as a desktop key (no terminal, 0-2 closed)", lambda: first_sample(True))]
found = {}
for name, f in rows:
    found[name], n = median(f)
    print(f"{'first sample, ' + name:70s} {found[name]:.4f} s   (median of {n})")
a, b = found[rows[0][0]], found[rows[1][0]]
print(f"{'difference, desktop key − shell':70s} {b - a:+.4f} s   (goal: within 0.05 s)")

# The ride in a terminal window, under Xvfb.
xvfb = subprocess.Popen(["Xvfb", ":96", "-screen", "0", "1024x768x24", "-nolisten", "tcp"], stderr=subprocess.DEVNULL)
time.sleep(1)
env = dict(os.environ, DISPLAY=":96")
bin = f"{work}/bin"
os.makedirs(bin, exist_ok=True)

def drawn(start, log, text):
    """Start `start()` (a process), then the time until the xterm log holds `text`; the xterm is ended."""
    if os.path.exists(log): os.remove(log)
    t0 = time.monotonic()
    p = start()
    t = None
    while time.monotonic() - t0 < 20:
        if os.path.exists(log) and text in open(log, "rb").read():
            t = time.monotonic() - t0
            break
        time.sleep(0.001)
    p.wait()
    # The xterm the launch started says its process id in a file (its wrapper), and is ended by it.
    pidfile = f"{work}/xterm.pid"
    if os.path.exists(pidfile):
        try: os.kill(int(open(pidfile).read()), signal.SIGTERM)
        except ProcessLookupError: pass
        os.remove(pidfile)
    time.sleep(0.2)
    return t

# xterm, as cravey finds it on $TERMINAL: a wrapper named xterm that logs and says its id.
with open(f"{bin}/xterm", "w") as w:
    w.write(f"#!/bin/sh\necho $$ > {work}/xterm.pid\nexec /usr/bin/xterm -l -lf {work}/xterm.log \"$@\"\n")
os.chmod(f"{bin}/xterm", 0o755)
launch = lambda: subprocess.Popen([cravey, "launch", "ride", "--library", f"{work}/lib"],
                                  env=dict(env, TERMINAL=f"{bin}/xterm"), stdout=subprocess.DEVNULL)
ride, n = median(lambda: drawn(launch, f"{work}/xterm.log", b"How strong is it?"))
print(f"{'launch ride, to the ride drawn in xterm':70s} {ride:.4f} s   (median of {n})")
echo = lambda: subprocess.Popen(["/usr/bin/xterm", "-l", "-lf", f"{work}/echo.log", "-e", "echo", "ready"], env=env)
alone, n = median(lambda: drawn(echo, f"{work}/echo.log", b"ready"))
print(f"{'xterm -e echo ready, to the word drawn (the terminal)':70s} {alone:.4f} s   (median of {n})")
def true_alone():
    t0 = time.monotonic()
    subprocess.run(["/usr/bin/xterm", "-e", "true"], env=env)
    return time.monotonic() - t0
whole, n = median(true_alone)
print(f"{'xterm -e true, start to exit':70s} {whole:.4f} s   (median of {n})")
print(f"{'launch ride − the terminal':70s} {ride - alone:+.4f} s")
xvfb.kill()
PY
