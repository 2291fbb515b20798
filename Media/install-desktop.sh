#!/usr/bin/env bash
# Installs cravey's launcher for the desktop, for the program installed at PREFIX/bin/cravey:
#   PREFIX/share/applications/cravey.desktop               the launcher: home, and its actions ride,
#                                                          craving, play and checkin (a jump list;
#                                                          KDE Plasma binds a key to each)
#   PREFIX/share/icons/hicolor/scalable/apps/cravey.svg    its icon
# Every Exec line names the program by its absolute path: a desktop session's PATH may lack
# PREFIX/bin. Use: bash Media/install-desktop.sh PREFIX (Media/install.sh runs it).
set -euo pipefail
here=$(dirname "$0")
[ $# -eq 1 ] || { echo "use: bash Media/install-desktop.sh PREFIX" >&2; exit 2; }
case "$1" in *$'\n'*) echo "install-desktop: the prefix may not hold a line break" >&2; exit 2 ;; esac
prefix=$(realpath -m -- "$1")
program="$prefix/bin/cravey"

# The Exec value: the path in double quotes (\ " ` $ escaped within them), then the entry's own
# string escaping (\ doubled) and % doubled (a field code otherwise).
quoted=$(printf '%s' "$program" | sed -e 's/[\\"`$]/\\&/g' -e 's/\\/\\\\/g' -e 's/%/%%/g')
applications="$prefix/share/applications"
icons="$prefix/share/icons/hicolor/scalable/apps"
install -d -m 0755 "$applications" "$icons"
entry=$(mktemp)
trap 'rm -f "$entry"' EXIT
# sed's replacement: & and \ and the delimiter are special there.
replacement=$(printf '%s' "\"$quoted\"" | sed -e 's/[\\&|]/\\&/g')
sed -e "s|^Exec=cravey |Exec=$replacement |" "$here/cravey.desktop" > "$entry"
install -m 0644 "$entry" "$applications/cravey.desktop"
install -m 0644 "$here/cravey.svg" "$icons/cravey.svg"
