#!/usr/bin/env bash
# The whole test suite: installs what it needs, builds, and runs every test (unit,
# fault-injection, SIGKILL, concurrency, real-ALSA recording, terminal and end-to-end tests of the
# built binary). Ends with one summary line: "tests: N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/.."

bash Tests/install-deps.sh
# The Whisper engine next to the build, where cravey finds it (the transcript tests use the real one).
bash Whisper/install.sh .build/whisper
swift build --build-tests
# The code is kept as the toolchain's formatter writes it (.swift-format: 120 columns); a file it
# would change fails the run at the end ('swift format format --in-place --recursive Sources Tests
# Package.swift Plugins' applies it).
format_status=0
swift format lint --strict --recursive --parallel Sources Tests Package.swift Plugins || format_status=$?
# Most tests record or import clips and check something else: their transcripts are left for
# later, so they do not wait for the recognizer. The transcript tests turn it back on themselves.
export CRAVEY_TRANSCRIBE=later
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
swift test --skip-build --disable-swift-testing 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
# XCTest's last line: "Executed N tests, with [S tests skipped and] F failures (U unexpected) …"
summary=$(grep -E "Executed [0-9]+ tests?, with " "$log" | tail -1)
total=$(sed -nE 's/.*Executed ([0-9]+) tests?.*/\1/p' <<<"$summary")
skipped=$(sed -nE 's/.*with ([0-9]+) tests? skipped.*/\1/p' <<<"$summary")
failed=$(sed -nE 's/.* ([0-9]+) failures?.*/\1/p' <<<"$summary")
total=${total:-0}; skipped=${skipped:-0}; failed=${failed:-0}
# The fault campaign's figures (FaultCampaignTests prints them when its class finishes).
grep -E "^fault campaign: " "$log" | tail -1 || true
# What failed, again at the end where a shortened log still shows it.
grep -E "^Test Case .* failed|: error: " "$log" | grep -v "^Test Suite" | tail -n 40 || true
echo "tests: $((total - skipped - failed)) passed, $failed failed, $skipped skipped"
if [ "$format_status" -ne 0 ]; then
    echo "format: files differ from what 'swift format' writes (see the lines above the tests)"
    [ "$status" -ne 0 ] || status=$format_status
fi
exit "$status"
