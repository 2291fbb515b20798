#!/usr/bin/env bash
# Hashing a backup: `cravey backup --verify` reads every file of a backup and checks its SHA-256
# (libavutil's av_sha), next to coreutils' sha256sum over the same file.
# Usage: Tests/bench/backup.sh [runs] [MiB]   (defaults 3 runs, a 512 MiB file; page cache warm)
set -euo pipefail
trap 'status=$?; echo "${0##*/}: line $LINENO failed (status $status): $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/../.."
runs=${1:-3} mib=${2:-512}
swift build -c release --static-swift-stdlib --product cravey >/dev/null
cravey=$(swift build -c release --static-swift-stdlib --show-bin-path)/cravey
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CRAVEY_LIBRARY=$work/lib
"$cravey" craving 5 >/dev/null
"$cravey" backup "$work/backup" >/dev/null
name=audio_00000000-0000-0000-0000-000000000001.m4a
mkdir -p "$work/backup/Recordings"
head -c $((mib << 20)) /dev/urandom > "$work/backup/Recordings/$name"
python3 - "$work/backup" "$name" <<'PY'
import hashlib, json, os, sys
backup, name = sys.argv[1], sys.argv[2]
path = os.path.join(backup, "Recordings", name)
digest = hashlib.sha256()
with open(path, "rb") as f:
    for block in iter(lambda: f.read(1 << 20), b""):
        digest.update(block)
manifest_path = os.path.join(backup, "cravey-backup.json")
manifest = json.load(open(manifest_path))
manifest["files"] = [{"path": "Recordings/" + name, "libraryPath": "Recordings/" + name,
                      "size": os.path.getsize(path), "sha256": digest.hexdigest()}]
json.dump(manifest, open(manifest_path, "w"))
PY
best() { local best=""; for _ in $(seq "$runs"); do
  local t; t=$( { /usr/bin/time -f %e "$@" >/dev/null; } 2>&1 | tail -1)
  if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi; done; echo "$best"; }
"$cravey" backup --verify "$work/backup" >/dev/null  # the file in the page cache for both
ours=$(best "$cravey" backup --verify "$work/backup")
anchor=$(best sha256sum "$work/backup/Recordings/$name")
printf '%-44s %8s %8s %8s\n' "" cravey sha256sum ratio
printf '%-44s %7.2fs %7.2fs %7.2f\n' "verify a backup of ${mib} MiB (best of $runs)" "$ours" "$anchor" "$(awk "BEGIN{print $ours/$anchor}")"
printf '%-44s %6.0fMB/s %6.0fMB/s\n' "throughput" "$(awk "BEGIN{print $mib*1.048576/$ours}")" "$(awk "BEGIN{print $mib*1.048576/$anchor}")"
