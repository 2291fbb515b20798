#!/usr/bin/env python3
"""Checks that a recorded message holds the phrase that was spoken into it (the demo's own check).

usage: cravey show ID --json | check-phrase.py LIBRARY PHRASE.raw [--sound-only]

Two things, each failing with one line that names what went wrong:
- its sound (decoded by the ffmpeg CLI): the level (RMS) of its loudest 4 s, the phrase's length,
  is within 6 dB of the phrase's own, and nowhere in those 4 s is there a stretch of exact digital
  silence longer than 50 ms between its sounds (what a starved loopback hands over, or a recorder
  that lost sound and put silence in its place), named with where it starts in the take; and the
  phrase is not cut off by the end of the take (a phrase that began too late);
- its words: the transcript holds at least half of the phrase's words (not with --sound-only,
  where no transcript is made: inside the VM rig).
"""
import itertools, json, math, re, subprocess, sys

PHRASE = "Remember why you started. You are stronger than this craving."


def samples(path, raw=False):
    source = ["-f", "s16le", "-ar", "48000", "-ac", "1"] if raw else []
    out = subprocess.run(["ffmpeg", "-v", "error"] + source + ["-i", path, "-f", "s16le", "-ac", "1", "-ar", "48000", "-"],
                         check=True, stdout=subprocess.PIPE).stdout
    import array
    values = array.array("h")
    values.frombytes(out[: len(out) // 2 * 2])
    return values


def rms_db(values):
    if not values:
        return -120.0
    import math
    mean = sum(v * v for v in values) / len(values)
    return 10 * math.log10(mean / 32768.0 ** 2) if mean > 0 else -120.0


def main():
    library, phrase_path = sys.argv[1], sys.argv[2]
    sound_only = "--sound-only" in sys.argv[3:]
    shown = json.load(sys.stdin)
    recorded = samples(library + "/" + shown["filePath"])
    phrase = samples(phrase_path, raw=True)
    span = len(phrase)
    # The loudest span of the phrase's length, in 50 ms steps, from running sums of the squares
    # (exact integers: the same levels as summing each span, in one pass, which an emulated CPU
    # needs seconds for instead of a minute).
    step = 2400
    sums = [0]
    sums.extend(itertools.accumulate(v * v for v in recorded))
    best, best_at = -200.0, 0
    for at in range(0, max(1, len(recorded) - span + 1), step):
        end = min(at + span, len(recorded))
        mean = (sums[end] - sums[at]) / (end - at) if end > at else 0
        level = 10 * math.log10(mean / 32768.0 ** 2) if mean > 0 else -120.0
        if level > best:
            best, best_at = level, at
    own = rms_db(phrase)
    window = recorded[best_at:best_at + span]
    # Exact digital silence inside the phrase: the longest run of zeros between sounds (the
    # feeder's own silence before and after the phrase is not inside it).
    leading = next((i for i, v in enumerate(window) if v != 0), len(window))
    longest = run = longest_end = 0
    for index, value in enumerate(window):
        if value == 0:
            run += 1
            continue
        if run > longest and index - run > 0:  # a run that ends in sound and began after sound
            longest, longest_end = run, index
        run = 0
    problems = []
    if abs(best - own) > 6:
        problems.append("its loudest 4 s are %.1f dB against the phrase's %.1f dB" % (best, own))
    if leading > 2400 and best_at + span >= len(recorded) - step:
        # The loudest 4 s are the take's last and begin in silence: the phrase began late and the
        # take ended before it did (a recording that started slowly, not a starved microphone).
        problems.append("the phrase was cut off by the end of the take: it began %.2f s into a %.2f s take"
                        % ((best_at + leading) / 48000, len(recorded) / 48000))
    if longest > 2400:
        problems.append("it holds %d ms of exact digital silence inside the phrase at %.2f s of the take (the microphone was starved)"
                        % (longest * 1000 // 48000, (best_at + longest_end - longest) / 48000))
    text = ((shown.get("transcript") or {}).get("text") or "")
    heard = set(re.findall(r"[a-z']+", text.lower()))
    words = re.findall(r"[a-z']+", PHRASE.lower())
    found = [w for w in words if w in heard]
    if not sound_only and len(found) * 2 < len(words):
        problems.append("its transcript has %d of the phrase's %d words: %r" % (len(found), len(words), text.replace("\n", " ")))
    if problems:
        print("demo: the saved message does not hold the phrase: " + "; ".join(problems), file=sys.stderr)
        return 1
    print("   the message holds the phrase: %.1f dB (the phrase: %.1f dB), its longest gap %d ms%s"
          % (best, own, longest * 1000 // 48000, "" if sound_only else ", transcript: " + text.replace("\n", " ")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
