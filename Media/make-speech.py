#!/usr/bin/env python3
"""Speaks sentences with flite (its "slt" voice) or espeak-ng into one WAV file at known places,
for the transcript tests and the transcript benchmark.

usage: make-speech.py SENTENCES_FILE OUT.wav [--voice flite|espeak-ng] [--first N] [--gap SECONDS]
                      [--seconds TOTAL]

Each sentence (a line of SENTENCES_FILE) is spoken on its own, its silence at both ends cut, and
placed after the previous one with GAP seconds of silence between them (0.8 by default). With
--seconds the sentences are repeated until the file is that long (cut at a sentence's end).
Next to OUT.wav, OUT.json lists each sentence with its start and end in seconds, the reference
a transcript is measured against.
"""
import array, json, os, subprocess, sys, tempfile, wave

RATE = 16000  # the voices are resampled to this rate
VOICES = {
    "flite": lambda text, path: ["flite", "-voice", "slt", "-t", text, "-o", path],
    "espeak-ng": lambda text, path: ["espeak-ng", "-v", "en-us", "-s", "150", "-w", path, text],
}


def speak(text, voice):
    with tempfile.TemporaryDirectory() as scratch:
        spoken, resampled = scratch + "/spoken.wav", scratch + "/16k.wav"
        subprocess.run(VOICES[voice](text, spoken), check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["sox", spoken, "-r", str(RATE), "-c", "1", "-b", "16", resampled], check=True)
        with wave.open(resampled) as w:
            samples = array.array("h", w.readframes(w.getnframes()))
    loud = [i for i, s in enumerate(samples) if abs(s) > 300]
    return samples[loud[0]:loud[-1] + 1] if loud else array.array("h")


def silence(seconds):
    return array.array("h", [0]) * int(RATE * seconds)


def main():
    args = sys.argv[1:]
    source, out = args[0], args[1]
    first = int(args[args.index("--first") + 1]) if "--first" in args else None
    gap = float(args[args.index("--gap") + 1]) if "--gap" in args else 0.8
    total = float(args[args.index("--seconds") + 1]) if "--seconds" in args else None
    voice = args[args.index("--voice") + 1] if "--voice" in args else "flite"
    sentences = [line.strip() for line in open(source) if line.strip()][:first]
    spoken = [speak(s, voice) for s in sentences]

    samples = silence(0.5)
    placed = []
    index = 0
    while True:
        text, voice = sentences[index % len(sentences)], spoken[index % len(sentences)]
        if total is not None and (len(samples) + len(voice)) / RATE > total - 0.3:
            break
        start = len(samples) / RATE
        samples.extend(voice)
        placed.append({"text": text, "start": round(start, 3), "end": round(len(samples) / RATE, 3)})
        samples.extend(silence(gap))
        index += 1
        if total is None and index == len(sentences):
            break
    if total is not None:
        samples.extend(silence(max(0.0, total - len(samples) / RATE)))
        del samples[int(RATE * total):]
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(samples.tobytes())
    with open(os.path.splitext(out)[0] + ".json", "w") as f:
        json.dump({"seconds": len(samples) / RATE, "sentences": placed}, f, indent=1)


main()
