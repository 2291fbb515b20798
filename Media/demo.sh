#!/usr/bin/env bash
# The main job, from nothing: install what cravey needs, build it, then use it on a fresh
# demo library (kept in a temporary directory unless CRAVEY_LIBRARY is set).
set -euo pipefail
cd "$(dirname "$0")/.."

bash Tests/install-deps.sh
swift build -c release --product cravey
cravey=$(swift build -c release --show-bin-path)/cravey
library=${CRAVEY_LIBRARY:-$(mktemp -d)/cravey-demo}
export CRAVEY_LIBRARY=$library

echo "== cravey library at $library"
"$cravey" list
"$cravey" top
"$cravey" check
