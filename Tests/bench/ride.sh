#!/usr/bin/env bash
# Ride benchmark: the time from starting `cravey ride 8` on a terminal (a pty) to its first
# message's first sample at the speaker — the ALSA `file` plugin of Media/alsa (cravey_capture)
# writing a file, whose first bytes mark the first sample — next to `cravey play --top` started the
# same way on the same library. The ride first logs the craving and keeps its first rating (both
# fsynced), then plays. Rule: ride ≤ 1 s.
# Usage: Tests/bench/ride.sh [runs]
set -euo pipefail
trap 'status=$?; echo "${0##*/}: line $LINENO failed (status $status): $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/../.."
runs=${1:-10}
swift build -c release --static-swift-stdlib --product cravey >/dev/null
cravey=$(swift build -c release --static-swift-stdlib --show-bin-path)/cravey
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ALSA_CONFIG_PATH=$PWD/Media/alsa/cravey-test.conf
# The message: the spoken phrase of Media, imported.
sox -t raw -r 48000 -e signed-integer -b 16 -c 1 Media/phrase-48k-s16.raw "$work/phrase.wav"
"$cravey" import "$work/phrase.wav" --title bench --library "$work/lib" >/dev/null

python3 - "$cravey" "$work/lib" "$runs" <<'PY'
import os, pty, select, statistics, sys, tempfile, time
cravey, library, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])

def first_sample(arguments):
    """Seconds from the start of `cravey ARGUMENTS` on a pty to the first bytes at the speaker."""
    out = tempfile.mktemp()
    env = dict(os.environ, CRAVEY_ALSA_OUTFILE=out, CRAVEY_LIBRARY=library, NO_COLOR="1", TERM="xterm")
    start = time.monotonic()
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(cravey, [cravey] + arguments + ["--speaker", "cravey_capture"], env)
    while not (os.path.exists(out) and os.path.getsize(out) > 0):
        try:
            if select.select([fd], [], [], 0)[0]:
                os.read(fd, 65536)  # the screen, drained so the program never waits on it
        except OSError:
            pass
        if time.monotonic() - start > 10:
            break
        time.sleep(0.0005)
    elapsed = time.monotonic() - start
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    os.close(fd)
    if os.path.exists(out): os.unlink(out)
    return elapsed

results = {}
for name, arguments in [("cravey play --top", ["play", "--top"]), ("cravey ride 8", ["ride", "8"])]:
    times = [first_sample(arguments) for _ in range(runs)]
    results[name] = statistics.median(times)
    print(f"{'first sample at the speaker, ' + name:60s} {results[name]:.4f} s   (median of {runs}, max {max(times):.4f})")
ride, play = results["cravey ride 8"], results["cravey play --top"]
print(f"{'ratio ride / play --top':60s} {ride / play:.2f}   (rule: ride ≤ 1 s: {'met' if ride <= 1 else 'NOT met'})")
PY
