#!/usr/bin/env bash
# The whole test suite: installs what it needs, builds, and runs every test (unit,
# fault-injection, SIGKILL, concurrency, real-ALSA recording, terminal and end-to-end tests of the
# built binary). Ends with one summary line: "tests: N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/.."

bash Tests/install-deps.sh
swift build --build-tests
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
swift test --skip-build --disable-swift-testing 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
summary=$(grep -E "Executed [0-9]+ tests?, with [0-9]+ failures?" "$log" | tail -1)
total=$(sed -E 's/.*Executed ([0-9]+) tests?.*/\1/' <<<"$summary")
failed=$(sed -E 's/.*with ([0-9]+) failures?.*/\1/' <<<"$summary")
echo "tests: $((${total:-0} - ${failed:-0})) passed, ${failed:-0} failed"
exit "$status"
