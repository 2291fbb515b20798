#!/usr/bin/env bash
# Transcript benchmark: word error rate on the project's own spoken corpus (Media/speech-corpus.txt,
# 24 sentences, spoken by flite's "slt" voice and by espeak-ng, 0.8 s apart), and the real-time
# factor and peak memory of a transcript of 10 s, 60 s and 120 s of speech — cravey's recognizer
# (PocketSphinx, the sound cut at its pauses) side by side with the ffmpeg CLI's asr filter (the
# same PocketSphinx and model, its own segmentation) on the same files. Whole processes (model
# load included), wall time and peak RSS, the median of the runs.
# Usage: Tests/bench/transcribe.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-3}
swift build -c release --static-swift-stdlib --product writer-bench >/dev/null
bench=$(swift build -c release --static-swift-stdlib --show-bin-path)/writer-bench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Word error rate of HYP against REF (word-level edit distance over the reference's words).
wer() {
  python3 - "$1" "$2" <<'PY'
import sys
r = open(sys.argv[1]).read().split(); h = open(sys.argv[2]).read().split()
p = list(range(len(h) + 1))
for i in range(1, len(r) + 1):
    c = [i] + [0] * len(h)
    for j in range(1, len(h) + 1):
        c[j] = min(p[j] + 1, c[j - 1] + 1, p[j - 1] + (r[i - 1] != h[j - 1]))
    p = c
print("%.3f" % (p[-1] / len(r)))
PY
}
med() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}'; }
# wall ms and peak RSS (KiB) of one run; its output in $work/out
measure() { /usr/bin/time -f '%e %M' -o "$work/time" "$@" >"$work/out" 2>/dev/null; awk '{printf "%d %d\n", $1 * 1000, $2}' "$work/time"; }
asr() { ffmpeg -v error -nostats -i "$1" -af "aresample=16000,asr,ametadata=mode=print:file=$work/asr.txt" -f null - && sed -n 's/^lavfi.asr.text=//p' "$work/asr.txt"; }
export -f asr; export work

tr '\n' ' ' < Media/speech-corpus.txt > "$work/reference.txt"
words=$(wc -w < "$work/reference.txt")
printf '%-34s %10s %10s\n' "word error rate ($words words)" "cravey" "ffmpeg asr"
for voice in flite espeak-ng; do
  python3 Media/make-speech.py Media/speech-corpus.txt "$work/corpus-$voice.wav" --voice "$voice"
  "$bench" transcribe "$work/corpus-$voice.wav" > "$work/cravey-$voice.txt"
  bash -c 'asr "$0"' "$work/corpus-$voice.wav" | tr '\n' ' ' > "$work/ffmpeg-$voice.txt"
  printf '%-34s %10s %10s\n' "24 sentences, $voice" "$(wer "$work/reference.txt" "$work/cravey-$voice.txt")" "$(wer "$work/reference.txt" "$work/ffmpeg-$voice.txt")"
done
# Speech with short pauses only (0.3 s, never 1 s): how much of it each one keeps.
python3 Media/make-speech.py Media/speech-corpus.txt "$work/close.wav" --seconds 72 --gap 0.3
python3 -c 'import json,sys; print(" ".join(s["text"] for s in json.load(open(sys.argv[1]))["sentences"]))' "$work/close.json" > "$work/close-reference.txt"
"$bench" transcribe "$work/close.wav" > "$work/cravey-close.txt"
bash -c 'asr "$0"' "$work/close.wav" | tr '\n' ' ' > "$work/ffmpeg-close.txt"
printf '%-34s %10s %10s\n' "72 s, 0.3 s pauses ($(wc -w < "$work/close-reference.txt") words)" "$(wer "$work/close-reference.txt" "$work/cravey-close.txt")" "$(wer "$work/close-reference.txt" "$work/ffmpeg-close.txt")"
printf '%-34s %10s %10s\n' "  words heard" "$(wc -w < "$work/cravey-close.txt")" "$(wc -w < "$work/ffmpeg-close.txt")"

echo
printf '%-14s %11s %11s %7s %8s %8s %12s %12s %8s %8s\n' "speech (flite)" "cravey ms" "ffmpeg ms" "ratio" "RTF" "RTF ff" "cravey RSS" "ffmpeg RSS" "words" "words ff"
for seconds in 10 60 120; do
  python3 Media/make-speech.py Media/speech-corpus.txt "$work/s$seconds.wav" --seconds "$seconds"
  c=(); f=(); cr=(); fr=()
  for _ in $(seq "$runs"); do
    read -r t m < <(measure "$bench" transcribe "$work/s$seconds.wav"); c+=("$t"); cr+=("$m"); cw=$(wc -w < "$work/out")
    read -r t m < <(measure bash -c 'asr "$0"' "$work/s$seconds.wav"); f+=("$t"); fr+=("$m"); fw=$(wc -w < "$work/out")
  done
  cm=$(med "${c[@]}"); fm=$(med "${f[@]}")
  printf '%-14s %11d %11d %7.2f %8.3f %8.3f %8d KiB %8d KiB %8d %8d\n' "$seconds s" "$cm" "$fm" "$(echo "$cm/$fm" | bc -l)" \
    "$(echo "$cm/1000/$seconds" | bc -l)" "$(echo "$fm/1000/$seconds" | bc -l)" "$(med "${cr[@]}")" "$(med "${fr[@]}")" "$cw" "$fw"
done
