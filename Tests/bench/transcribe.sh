#!/usr/bin/env bash
# Transcript benchmark: word error rate on the project's own spoken corpus (Media/speech-corpus.txt,
# 24 sentences, spoken by flite's "slt" voice and by espeak-ng, 0.8 s apart, and by flite with only
# 0.3 s pauses), and the real-time factor and peak memory of a transcript of 10 s, 60 s and 120 s of
# speech — cravey with Whisper (tiny.en, its helper), cravey with PocketSphinx (the fallback, the
# sound cut at its pauses) and the ffmpeg CLI's asr filter (the same PocketSphinx and model, its own
# segmentation) side by side on the same files. Whole processes (model load included), wall time
# and peak RSS (the largest process: for Whisper, its helper), the median of the runs. WER counts
# words as spoken (case and punctuation do not count, "7" is "seven").
# Usage: Tests/bench/transcribe.sh [runs]
set -euo pipefail
trap 'status=$?; echo "${0##*/}: line $LINENO failed (status $status): $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/../.."
runs=${1:-3}
bash Whisper/install.sh .build/whisper >/dev/null
swift build -c release --static-swift-stdlib --product writer-bench >/dev/null
bench=$(swift build -c release --static-swift-stdlib --show-bin-path)/writer-bench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Word error rate of HYP against REF (word-level edit distance over the reference's words).
wer() {
  python3 - "$1" "$2" <<'PY'
import re, sys
numbers = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty".split()
def words(path):
    return [numbers[int(w)] if w.isdigit() and int(w) <= 20 else w for w in re.findall(r"[a-z0-9']+", open(path).read().lower())]
r = words(sys.argv[1]); h = words(sys.argv[2])
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
printf '%-34s %10s %13s %11s\n' "word error rate" "whisper" "pocketsphinx" "ffmpeg asr"
for voice in flite espeak-ng; do
  python3 Media/make-speech.py Media/speech-corpus.txt "$work/corpus-$voice.wav" --voice "$voice"
  "$bench" transcribe "$work/corpus-$voice.wav" whisper > "$work/whisper-$voice.txt"
  "$bench" transcribe "$work/corpus-$voice.wav" pocketsphinx > "$work/sphinx-$voice.txt"
  bash -c 'asr "$0"' "$work/corpus-$voice.wav" | tr '\n' ' ' > "$work/ffmpeg-$voice.txt"
  printf '%-34s %10s %13s %11s\n' "24 sentences ($words words), $voice" "$(wer "$work/reference.txt" "$work/whisper-$voice.txt")" \
    "$(wer "$work/reference.txt" "$work/sphinx-$voice.txt")" "$(wer "$work/reference.txt" "$work/ffmpeg-$voice.txt")"
done
# Speech with short pauses only (0.3 s, never 1 s): how much of it each one keeps.
python3 Media/make-speech.py Media/speech-corpus.txt "$work/close.wav" --seconds 72 --gap 0.3
python3 -c 'import json,sys; print(" ".join(s["text"] for s in json.load(open(sys.argv[1]))["sentences"]))' "$work/close.json" > "$work/close-reference.txt"
"$bench" transcribe "$work/close.wav" whisper > "$work/whisper-close.txt"
"$bench" transcribe "$work/close.wav" pocketsphinx > "$work/sphinx-close.txt"
bash -c 'asr "$0"' "$work/close.wav" | tr '\n' ' ' > "$work/ffmpeg-close.txt"
printf '%-34s %10s %13s %11s\n' "72 s, 0.3 s pauses ($(wc -w < "$work/close-reference.txt") words)" "$(wer "$work/close-reference.txt" "$work/whisper-close.txt")" \
  "$(wer "$work/close-reference.txt" "$work/sphinx-close.txt")" "$(wer "$work/close-reference.txt" "$work/ffmpeg-close.txt")"
printf '%-34s %10s %13s %11s\n' "  words heard" "$(wc -w < "$work/whisper-close.txt")" "$(wc -w < "$work/sphinx-close.txt")" "$(wc -w < "$work/ffmpeg-close.txt")"

echo
printf '%-8s | %9s %7s %9s | %9s %7s %9s | %9s %7s %9s\n' "speech" "whisper" "RTF" "RSS" "sphinx" "RTF" "RSS" "ffmpeg" "RTF" "RSS"
for seconds in 10 60 120; do
  python3 Media/make-speech.py Media/speech-corpus.txt "$work/s$seconds.wav" --seconds "$seconds"
  w=(); s=(); f=(); wr=(); sr=(); fr=()
  for _ in $(seq "$runs"); do
    read -r t m < <(measure "$bench" transcribe "$work/s$seconds.wav" whisper); w+=("$t"); wr+=("$m")
    read -r t m < <(measure "$bench" transcribe "$work/s$seconds.wav" pocketsphinx); s+=("$t"); sr+=("$m")
    read -r t m < <(measure bash -c 'asr "$0"' "$work/s$seconds.wav"); f+=("$t"); fr+=("$m")
  done
  row() { local ms; ms=$(med "$@"); printf '%7d ms %7.3f' "$ms" "$(echo "$ms/1000/$seconds" | bc -l)"; }
  printf '%-8s | %s %6d MB | %s %6d MB | %s %6d MB\n' "$seconds s" "$(row "${w[@]}")" "$(( $(med "${wr[@]}") / 1024 ))" \
    "$(row "${s[@]}")" "$(( $(med "${sr[@]}") / 1024 ))" "$(row "${f[@]}")" "$(( $(med "${fr[@]}") / 1024 ))"
done

# Save to prompt: `cravey import` of a 120 s message until the shell prompt is back — with the
# transcript made in the foreground (CRAVEY_TRANSCRIBE=now, as before the background worker) and
# by the background worker (the default).
swift build -c release --static-swift-stdlib --product cravey >/dev/null
cravey=$(swift build -c release --static-swift-stdlib --show-bin-path)/cravey
echo
printf '%-40s %12s %12s\n' "import of 120 s of speech, to the prompt" "now" "background"
n=(); b=()
for _ in $(seq "$runs"); do
  rm -rf "$work/lib"
  read -r t _ < <(measure env CRAVEY_TRANSCRIBE=now "$cravey" import "$work/s120.wav" --title Long --library "$work/lib"); n+=("$t")
  rm -rf "$work/lib"
  read -r t _ < <(measure env CRAVEY_TRANSCRIBE=background "$cravey" import "$work/s120.wav" --title Long --library "$work/lib"); b+=("$t")
  # The worker finishes before the next run (it holds the library's files).
  while pgrep -f "transcribe --worker --library $work/lib" >/dev/null; do sleep 0.2; done
done
printf '%-40s %9d ms %9d ms\n' "" "$(med "${n[@]}")" "$(med "${b[@]}")"
