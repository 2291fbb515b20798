#!/usr/bin/env bash
# The whole test suite: installs what it needs, builds, and runs every test
# (unit, fault-injection, SIGKILL, concurrency, and end-to-end tests of the built binary).
set -euo pipefail
cd "$(dirname "$0")/.."

bash Tests/install-deps.sh
swift build --build-tests
swift test --skip-build
