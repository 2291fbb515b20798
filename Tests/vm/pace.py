#!/usr/bin/env python3
"""What the host gave the emulated machine, second by second, while the VM rig runs.

usage: pace.py PID OUT   (PID: the process that runs qemu, with its children; stops when it ends)

Once a second appends a line to OUT: "UNIX-TIME QEMU-CORES OTHER-CORES HOST-CORES", where
QEMU-CORES is the CPU time qemu (PID and its children) had in that second, OTHER-CORES the CPU time
everything else on the host had, and HOST-CORES how many the host has. The emulated machine reads
the file (its results share) to tell a host that starved it from frames its recorder dropped.
"""
import os, sys, time


def ticks_of(pid):
    total = 0
    pids = [pid]
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            pids += [int(p) for p in f.read().split()]
    except OSError:
        pass
    for p in pids:
        try:
            with open("/proc/%d/stat" % p) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
        except (OSError, IndexError, ValueError):
            pass
    return total


def busy_ticks():
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    return sum(values) - values[3] - values[4]  # all but idle and iowait


def main():
    pid, out = int(sys.argv[1]), sys.argv[2]
    hz = os.sysconf("SC_CLK_TCK")
    cores = os.cpu_count() or 1
    last = (time.monotonic(), ticks_of(pid), busy_ticks())
    while os.path.exists("/proc/%d" % pid):
        time.sleep(1)
        now = (time.monotonic(), ticks_of(pid), busy_ticks())
        seconds = now[0] - last[0]
        qemu = (now[1] - last[1]) / hz / seconds
        other = max(0.0, (now[2] - last[2]) / hz / seconds - qemu)
        last = now
        with open(out, "a") as f:
            f.write("%.3f %.2f %.2f %d\n" % (time.time(), qemu, other, cores))


if __name__ == "__main__":
    main()
