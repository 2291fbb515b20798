#!/usr/bin/env bash
# Playback benchmark: time from starting `cravey play --top` to the first audio reaching the
# speaker, side by side with `ffplay -nodisp -autoexit` and `mpv --no-video` on the same file. All
# play to the same ALSA device — the `file` plugin speaker of Media/alsa (cravey_capture; ffplay
# through SDL's ALSA driver, mpv through its own) — and the first bytes appearing in its output
# file mark the first sample. Then the first video frame in a window (under Xvfb).
# Usage: Tests/bench/play.sh [runs]
set -euo pipefail
trap 'status=$?; echo "${0##*/}: line $LINENO failed (status $status): $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/../.."
runs=${1:-10}
swift build -c release --static-swift-stdlib --product cravey >/dev/null
cravey=$(swift build -c release --static-swift-stdlib --show-bin-path)/cravey
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ALSA_CONFIG_PATH=$PWD/Media/alsa/cravey-test.conf
CRAVEY_ALSA_INFILE=$PWD/Media/phrase-48k-s16.raw "$cravey" record audio --mic cravey_file --max-seconds 4 \
  --title bench --library "$work/lib" >/dev/null 2>&1
file=$(ls "$work"/lib/Recordings/*.m4a)
command -v mpv >/dev/null || { [ "$(id -u)" -eq 0 ] && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mpv >/dev/null 2>&1; } || true
ffmpeg -v error -y -f lavfi -i testsrc2=s=1280x720:r=30:d=4 -f lavfi -i sine=d=4 -c:v libx264 -c:a aac "$work/clip.mp4"
"$cravey" import "$work/clip.mp4" --title clip --library "$work/vlib" >/dev/null

python3 - "$cravey" "$work" "$file" "$runs" <<'PY'
import os, subprocess, sys, time, statistics
cravey, work, media, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])

def first_audio(cmd, env):
    out = f"{work}/speaker.raw"
    if os.path.exists(out): os.remove(out)
    env = dict(os.environ, CRAVEY_ALSA_OUTFILE=out, **env)
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while p.poll() is None or not os.path.exists(out):
        if os.path.exists(out) and os.path.getsize(out) > 0: break
        if p.poll() is not None: break
        time.sleep(0.0005)
    t = time.monotonic() - t0
    p.wait()
    return t if os.path.exists(out) and os.path.getsize(out) > 0 else None

rows = [
    ("cravey play --top", [cravey, "play", "--top", "--speaker", "cravey_capture", "--library", f"{work}/lib"], {}),
    ("ffplay -nodisp -autoexit", ["ffplay", "-v", "quiet", "-nodisp", "-autoexit", media],
     {"SDL_AUDIODRIVER": "alsa", "AUDIODEV": "cravey_capture"}),
    ("mpv --no-video", ["mpv", "--really-quiet", "--no-video", "--no-config", "--ao=alsa", "--audio-device=alsa/cravey_capture", media], {}),
]
import shutil
if not shutil.which("mpv"): rows.pop()
results = {}
for name, cmd, env in rows:
    times = [t for t in (first_audio(cmd, env) for _ in range(runs)) if t is not None]
    results[name] = statistics.median(times) if times else None
    shown = f"{results[name]:.4f} s" if times else "did not play"
    print(f"{'first audio at the speaker, ' + name:60s} {shown}   (median of {len(times)})")
a, b = results[rows[0][0]], results[rows[1][0]]
if a and b: print(f"{'ratio cravey / ffplay':60s} {a / b:.2f}   (target: first sample < 0.15 s)")

# The first video frame in a window: a 720p clip under Xvfb, from the command to the frame shown.
import re
xvfb = subprocess.Popen(["Xvfb", ":97", "-screen", "0", "1280x800x24", "-nolisten", "tcp"], stderr=subprocess.DEVNULL)
time.sleep(1)
frames = []
for i in range(runs):
    fifo = f"{work}/speaker{i}.fifo"  # a speaker paced like a real one, so the clip plays in real time
    os.mkfifo(fifo)
    drain = subprocess.Popen(f"exec pv -q -B 4096 -L 96000 < {fifo} > /dev/null", shell=True)
    env = dict(os.environ, DISPLAY=":97", CRAVEY_TIMINGS="1", CRAVEY_ALSA_OUTFILE=fifo)
    t0 = time.monotonic_ns()
    p = subprocess.run([cravey, "play", "--top", "--speaker", "cravey_capture", "--library", f"{work}/vlib"],
                       env=env, capture_output=True, text=True)
    drain.kill()
    m = re.search(r"first_frame_ns=(\d+)", p.stderr)
    if m and int(m.group(1)) > 0: frames.append((int(m.group(1)) - t0) / 1e9)
xvfb.kill()
if frames: print(f"{'first video frame in a window (720p, Xvfb), cravey play':60s} {statistics.median(frames):.4f} s   (median of {len(frames)})")
PY
# From a shell prompt, `cravey` then `1`: start to the top message's first sound (target < 1 s);
# the library has had its first run.
sqlite3 "$work/lib/library.sqlite" "INSERT OR IGNORE INTO setting (key, value) VALUES ('welcomed', '2026-01-01T00:00:00.000Z')"
printf '%-34s %8s s   (cravey home on a terminal, 1 typed at once; target < 1 s)\n' "cravey, then 1" \
  "$(python3 Tests/bench/home.py "$cravey" "$work/lib" Media/alsa/cravey-test.conf "$runs")"
