#!/usr/bin/env bash
# Installs cravey like any other command-line tool, under a prefix (default ~/.local):
#   PREFIX/bin/cravey                                    the program
#   PREFIX/share/man/man1/cravey.1                       its manual page (man cravey)
#   PREFIX/share/bash-completion/completions/cravey      bash completion
#   PREFIX/share/zsh/site-functions/_cravey              zsh completion
#   PREFIX/share/fish/vendor_completions.d/cravey.fish   fish completion
#   PREFIX/share/applications/cravey.desktop             the launcher (home, and the actions ride,
#                                                        craving, play and checkin), with its icon in
#                                                        PREFIX/share/icons/hicolor/scalable/apps
#                                                        (Media/install-desktop.sh)
#   PREFIX/share/doc/cravey/                             the guides: README.md, udev-notes.md and
#                                                        docs/ (the guide, architecture, testing,
#                                                        benchmarks), laid out as in the source so
#                                                        their links hold
#   PREFIX/lib/cravey/whisper/                           the Whisper engine for transcripts (a
#                                                        private Python environment, ~550 MB)
# Use: bash Media/install.sh [PREFIX]
# It installs the Debian packages cravey needs (as root or through sudo), builds a release binary
# and generates the manual page with swift-argument-parser's generate-manual plugin.
# CRAVEY_INSTALL_CONFIGURATION=debug and CRAVEY_INSTALL_SCRATCH=DIR are for the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."

prefix=${1:-${HOME}/.local}
configuration=${CRAVEY_INSTALL_CONFIGURATION:-release}
scratch=(--scratch-path "${CRAVEY_INSTALL_SCRATCH:-.build}")
# A release binary carries the Swift runtime and Foundation inside it (no 12 shared objects to map
# and relocate at every start), so the library commands start in a few milliseconds.
static=(); [ "$configuration" = release ] && static=(--static-swift-stdlib)

bash Tests/install-deps.sh
# The manual page, from the command definitions themselves. First: the plugin builds the program
# its own way (without the runtime linked in), in the same build folder as the one installed.
marker=$(mktemp)
trap 'rm -f "$marker"' EXIT
swift package "${scratch[@]}" generate-manual --configuration "$configuration" >/dev/null
page=$(find "${CRAVEY_INSTALL_SCRATCH:-.build}/plugins" -name cravey.1 -newer "$marker" -print -quit 2>/dev/null || true)
[ -n "$page" ] || page=$(find "${CRAVEY_INSTALL_SCRATCH:-.build}/plugins" -name cravey.1 -print -quit)
[ -n "$page" ] || { echo "install: the manual page was not generated" >&2; exit 1; }

swift build "${scratch[@]}" "${static[@]}" -c "$configuration" --product cravey
bin="$(swift build "${scratch[@]}" "${static[@]}" -c "$configuration" --show-bin-path)/cravey"

install -d -m 0755 "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
  "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d"
# Stripped: the symbols are for debugging a build, not for running it (about 40% of its size).
install -s -m 0755 "$bin" "$prefix/bin/cravey"
install -m 0644 "$page" "$prefix/share/man/man1/cravey.1"
# The guides, where 'cravey doctor' finds them (../share/doc/cravey from the program). Only
# finished documents: docs/*.md and the pictures they show, not the folders under docs/.
install -d -m 0755 "$prefix/share/doc/cravey/docs"
install -m 0644 README.md udev-notes.md "$prefix/share/doc/cravey/"
install -m 0644 docs/*.md docs/*.png "$prefix/share/doc/cravey/docs/"
"$bin" --generate-completion-script bash > "$prefix/share/bash-completion/completions/cravey"
"$bin" --generate-completion-script zsh > "$prefix/share/zsh/site-functions/_cravey"
"$bin" --generate-completion-script fish > "$prefix/share/fish/vendor_completions.d/cravey.fish"
# The launcher, naming the program just installed by its absolute path.
bash Media/install-desktop.sh "$prefix"

# The transcript engine. Without it (no PyPI here, another Python) cravey still works, with
# PocketSphinx's drafts; the reason is said.
if bash Whisper/install.sh "$prefix/lib/cravey/whisper"; then
  engine="the Whisper engine for transcripts"
else
  engine="no Whisper engine (see above; transcripts are made with PocketSphinx)"
fi

echo "Installed cravey in $prefix/bin, its manual page (man cravey), its guides in $prefix/share/doc/cravey, bash, zsh and fish completions, a launcher (cravey in your applications: home, ride, craving, play, check-in) and $engine."
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "Add $prefix/bin to your PATH to run it as 'cravey'." ;; esac
