#!/usr/bin/env python3
"""The emulated machine's own pace, measured from inside it while a test records.

usage: pace.py   (stops at SIGTERM or Ctrl-C; the summary goes to stdout)

Wakes every 20 ms. A wake-up that comes more than 50 ms late means the machine as a whole was held
up (run at nice -10, this program is the first the guest runs when it runs at all): the host did not
give the emulated CPUs their time. Ends with one line:
"vm-pace: held up N ms in S s (K stalls, the longest L ms)", where N sums what every late wake-up
came after the 50 ms allowed. A camera test sets the frames it expects by the seconds the machine
was not held up, so frames dropped while the host starved it do not count against cravey, and
frames dropped while it ran do.
"""
import signal, sys, time

TICK, ALLOWED = 0.020, 0.050


def main():
    started = last = time.monotonic()
    held, stalls, longest = 0.0, 0, 0.0
    try:
        while True:
            time.sleep(TICK)
            now = time.monotonic()
            late = now - last - TICK
            last = now
            if late > ALLOWED:
                held += late - ALLOWED
                stalls += 1
                longest = max(longest, late)
    except KeyboardInterrupt:
        pass
    print("vm-pace: held up %d ms in %.1f s (%d stalls, the longest %d ms)"
          % (held * 1000, time.monotonic() - started, stalls, longest * 1000), flush=True)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    main()
