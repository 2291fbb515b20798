#!/usr/bin/env python3
"""Runs the VM tests' checking and fixture-making programs on the host, for the emulated machine.

usage: host-checks.py PID SHARE REPOSITORY   (PID: qemu's; stops when it ends)

Under software emulation a program's start is most of what it costs: with the host quiet,
`ffprobe -version` takes 2.5 s of the machine's time, `python3 -c pass` 7 s, about twice that
with the host busy; the device tests start some forty checking programs (ffprobe, ffmpeg, the
phrase check) and fixture makers (sox's tone), which read and write files and need no device.
A test inside the machine copies the files a check reads into a folder of SHARE (the rig's
results share), writes its `request.json` there — {"argv": [...], "input": TEXT or null}, the
files named by their names in the folder — and waits for `answer.json` — {"status": N,
"stdout": TEXT, "stderr": TEXT} — and the files the check wrote, in the same folder.

Only ffprobe, ffmpeg, sox and the repository's own Media/*.py checks are run, one at a time, in the
request's folder, with that folder as their HOME, and each within a deadline. SHARE/ready says the
checks are served.
"""
import json, os, subprocess, sys, time

PROGRAMS = ("/usr/bin/ffprobe", "/usr/bin/ffmpeg", "/usr/bin/sox")
DEADLINE = 300


def allowed(argv, repository):
    if not argv:
        return False
    if argv[0] in PROGRAMS:
        return True
    script = os.path.realpath(argv[1]) if len(argv) > 1 else ""
    return (argv[0] == "/usr/bin/python3" and script.endswith(".py")
            and os.path.dirname(script) == os.path.join(repository, "Media"))


def answer(folder, status, stdout, stderr):
    with open(os.path.join(folder, "answer.tmp"), "w") as f:
        json.dump({"status": status, "stdout": stdout, "stderr": stderr}, f)
    os.rename(os.path.join(folder, "answer.tmp"), os.path.join(folder, "answer.json"))


def serve(folder, repository):
    try:
        with open(os.path.join(folder, "request.json")) as f:
            request = json.load(f)
        argv, given = request["argv"], request.get("input")
    except (OSError, ValueError, KeyError, TypeError) as error:
        return answer(folder, 125, "", "host-checks: unreadable request: %s\n" % error)
    if not allowed(argv, repository):
        return answer(folder, 126, "", "host-checks: not a checking program: %s\n" % argv[:2])
    environment = {"PATH": "/usr/bin:/bin", "HOME": folder, "LANG": "C.UTF-8"}
    try:
        done = subprocess.run(argv, cwd=folder, env=environment, input=(given or "").encode(),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=DEADLINE)
        answer(folder, done.returncode, done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace"))
    except subprocess.TimeoutExpired:
        answer(folder, 124, "", "host-checks: %s did not finish in %d s\n" % (argv[0], DEADLINE))
    except OSError as error:
        answer(folder, 127, "", "host-checks: %s\n" % error)


def main():
    pid, share, repository = int(sys.argv[1]), sys.argv[2], os.path.realpath(sys.argv[3])
    os.makedirs(share, exist_ok=True)
    open(os.path.join(share, "ready"), "w").close()
    served = set()
    while os.path.exists("/proc/%d" % pid):
        for name in sorted(set(os.listdir(share)) - served):
            folder = os.path.join(share, name)
            if os.path.isfile(os.path.join(folder, "request.json")):
                served.add(name)
                try:
                    serve(folder, repository)
                except OSError:
                    pass  # the test gave up on it and took its folder away
        time.sleep(0.02)


if __name__ == "__main__":
    main()
