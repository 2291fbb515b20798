#!/usr/bin/env bash
# Installs the Debian 12 packages cravey builds and tests with (skips what is already there).
# Runs apt-get as root, or through sudo.
set -euo pipefail

packages=(
  # build: SQLite for the library, ALSA, V4L2 and the FFmpeg libraries for capture and encoding (the
  # headers; the executable opens the media libraries only when a command first needs them)
  libsqlite3-dev libasound2-dev libv4l-dev
  libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libswresample-dev
  # the playback window for videos
  libsdl2-dev
  # loudness (EBU R128) for playback at one level
  libebur128-dev
  # the report's PDF, drawn in cravey's own process (cairo for the pages, pango for the text)
  libcairo2-dev libpango1.0-dev
  # the check-in reminder's desktop notification (D-Bus, through sd-bus)
  libsystemd-dev
  # offline transcripts: PocketSphinx and its US English model (read from disk, never fetched), the
  # fallback; Python's venv for the Whisper engine's private environment (Whisper/install.sh)
  libpocketsphinx-dev libsphinxbase-dev pocketsphinx-en-us python3-venv
  # tests, demo and benchmarks: the ffmpeg CLI to check files, sox/espeak-ng/flite for fixtures
  # (spoken sentences), pv to pace a FIFO like a real microphone, script (util-linux) and tmux for
  # terminal tests, pocketsphinx's own CLI as the transcript benchmark's anchor
  ffmpeg sox espeak-ng flite pocketsphinx pv tmux util-linux sqlite3 alsa-utils
  # the fault campaign: valgrind for invalid memory accesses, strace for the order of durable steps
  valgrind strace
  # the reminder tests: a private session bus, its monitor, a notification server (python3-gi, and
  # dunst: one people use, answered with dunstctl), systemd-analyze for the timer units
  dbus-daemon dbus-bin python3-gi dunst systemd
  # the desktop shortcut tests: GNOME's keybinding schema, gsettings over a real dconf (its service
  # and backend), and dconf's own reader to check what was written
  gnome-settings-daemon-common libglib2.0-bin dconf-service dconf-gsettings-backend dconf-cli
  # the install test reads the installed manual page
  man-db
  # the desktop launcher: its entry checked (desktop-file-validate), the screens opened in a real
  # xterm under Xvfb and typed into (xdotool)
  xterm desktop-file-utils xdotool
  # recordings' own tags read by an MP4 reader that is not FFmpeg
  mediainfo
  # a display server without a screen, for the video window test (python3 drives its window)
  xvfb xauth python3
  # the progress page rendered as a reader sees it (headless, its network log read), and the
  # report benchmark's comparison of the PDF with the page printed by a browser
  chromium
  # the report's PDF read back: its pages as pictures, its text, its page count
  poppler-utils
  # the sync tests: two real Syncthing instances (Debian 12's, 1.19) on loopback; git for the folder
  # carried through a repository; a stick's file systems: exFAT (made by exfatprogs, mounted through
  # exfat-fuse where the kernel has no exFAT) and FAT (dosfstools; mounted in the VM rig's kernel)
  syncthing git exfatprogs exfat-fuse dosfstools
  # load beside the suite, to check it stays green when the machine is busy (docs/TESTING.md)
  stress-ng
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
echo "Installing: ${missing[*]}"
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
