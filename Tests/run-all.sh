#!/usr/bin/env bash
# The whole test suite: installs what it needs, builds, and runs every test (unit,
# fault-injection, SIGKILL, concurrency, real-ALSA recording, terminal and end-to-end tests of the
# built binary, the VM device rig). Ends with a line per part (seconds each) and one summary line:
# "tests: N passed, M failed, S skipped".
#
#   bash Tests/run-all.sh          everything (what CI runs)
#   bash Tests/run-all.sh fast     the fast ring: every test that took under a second when it last
#                                  ran here (before any run, the unit targets without their slow
#                                  classes); no VM, no transcripts, no tmux; about a minute
#   bash Tests/run-all.sh PART…    only those parts (unit binary screens faults transcripts install vm)
#
# The VM rig (qemu emulating a machine), the install test and then the unit tests run in a lane of
# their own beside the other parts (CRAVEY_LANES=2, the default), and the parts of many short
# tests run as several bundles side by side (CRAVEY_SHARDS, see shards()): with
# `stress-ng --cpu 1` beside it, three bundles instead of two (and 150 reference-model histories
# instead of 500) made a whole run 1,436 s instead of 1,674 s. On two cores the emulated machine
# may get too little of the host to keep 30 fps: its camera checks compare what cravey kept with
# the CPU the host gave the machine, and are skipped with the host's figures (never passed) when
# other work starved it. CRAVEY_LANES=1 runs every part one after another (the VM last), where
# the camera checks always count. Each part is the test bundle run with its classes (what
# `swift test --filter` would pick), so several can run at once on the same build.
set -euo pipefail
cd "$(dirname "$0")/.."

all_parts=(unit binary screens faults transcripts install vm)
wanted=("$@")
fast=0
if [ "${1:-}" = fast ]; then fast=1 wanted=(); fi
[ ${#wanted[@]} -gt 0 ] || wanted=("${all_parts[@]}")
for part in "${wanted[@]}"; do
    [[ " ${all_parts[*]} " == *" $part "* ]] || { echo "run-all.sh: no part named '$part' (${all_parts[*]}, or fast)" >&2; exit 2; }
done

if [ "$fast" = 0 ]; then
    bash Tests/install-deps.sh
    # The Whisper engine next to the build, where cravey finds it (the transcript tests use the real one).
    bash Whisper/install.sh .build/whisper
fi
swift build --build-tests
# The code is kept as the toolchain's formatter writes it (.swift-format: 120 columns); a file it
# would change fails the run at the end ('swift format format --in-place --recursive Sources Tests
# Package.swift Plugins' applies it).
format_status=0
if [ "$fast" = 0 ]; then
    swift format lint --strict --recursive --parallel Sources Tests Package.swift Plugins || format_status=$?
    # The program the tests run, end to end and in the VM: the release build, made as
    # Media/install.sh makes it for a person (a run on two cores is bound by the processor, and
    # the debug build's commands cost it far more). The fast ring, and a test run by itself, use
    # the debug build next to the test bundle.
    swift build -c release --static-swift-stdlib --product cravey
    CRAVEY_UNDER_TEST="$(swift build -c release --static-swift-stdlib --show-bin-path)/cravey"
    export CRAVEY_UNDER_TEST
fi
# The install test installs the debug build the bundle came with (it is built: nothing is
# compiled again); under `swift test`, which holds this folder, it builds in one of its own.
export CRAVEY_INSTALL_SCRATCH="$PWD/.build"
# Most tests record or import clips and check something else: their transcripts are left for
# later, so they do not wait for the recognizer. The transcript tests turn it back on themselves.
export CRAVEY_TRANSCRIBE=later
bundle=$(ls -d "$(swift build --build-tests --show-bin-path)"/*PackageTests.xctest | head -1)
logs=$(mktemp -d)
# Stopped, interrupted or ended: every part still running is stopped with its whole process group
# (the VM rig's qemu stops with its part), and nothing is left behind.
stop_parts() {
    local file pid
    for file in "$logs"/*.pid; do
        [ -e "$file" ] || continue
        pid=$(cat "$file")
        kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    done
    [ -z "${vm_lane:-}" ] || kill -TERM "$vm_lane" 2>/dev/null || true
    # The test bundle starts the VM rig in a process group of its own: it is stopped by its path in
    # this checkout (the rig stops its qemu when it is stopped).
    pkill -TERM -f -- "$PWD/Tests/vm/rig.sh run " 2>/dev/null || true
}
trap 'stop_parts; rm -rf "$logs"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
"$bundle" --list-tests 2>/dev/null | sed -nE 's/^([A-Za-z]+\.[A-Za-z]+\/test[A-Za-z0-9_]*)$/\1/p' > "$logs/tests"
# Each test's seconds in the last whole run, for the fast ring ("Class.test seconds").
times=.build/test-times.txt

# The media target's tests of the transcript engines (they belong to the transcripts part).
engines='SpeechRecognizerTests|WhisperRecognizerTests|TranscriptIsolationTests'

# The classes of a part, comma-separated (what the test bundle takes as its filter).
classes() {
    local pattern
    case "$1" in
        unit) pattern='^(CraveyLibraryTests|CraveyMediaTests|CraveyPlayerTests|CraveyRecorderTests|CraveyTrackerTests|CraveyMessagesTests|TerminalKitTests)\.' ;;
        binary) pattern='^CraveyTests\.' ;;
        screens) pattern='^CraveyScreenTests\.' ;;
        faults) pattern='^CraveyFaultTests\.' ;;
        transcripts) pattern="^CraveyTranscriptTests\\.|^CraveyMediaTests\\.($engines)/" ;;
        install) pattern='^CraveyTests\.InstallTests/' ;;
        vm) pattern='^CraveyVMTests\.VMRigTests/' ;;
    esac
    local skip="^CraveyTests\\.InstallTests/|^CraveyMediaTests\\.($engines)/"
    [ "$1" = install ] || [ "$1" = transcripts ] && skip='^$'
    grep -E "$pattern" "$logs/tests" | grep -vE "$skip" | sed 's/\/.*//' | sort -u | paste -sd, -
}

# Each part's time limit, seconds: about three times what it took in a loaded whole run, so only
# a part that hangs meets it. The whole run also ends by CRAVEY_RUN_MINUTES (80) after it began,
# before CI's limit of 90: a part starts with no more time than is left.
limit() {
    case "$1" in
        unit | screens) echo 600 ;;
        binary) echo 1800 ;;
        faults | transcripts) echo 1500 ;;
        install | fast) echo 900 ;;
        vm) echo 2400 ;;  # the rig's own limit (30 min) and its preparation
    esac
}
deadline=$((SECONDS + ${CRAVEY_RUN_MINUTES:-80} * 60))

# How many bundles a part runs side by side (CRAVEY_SHARDS for every part that has several; 1: one
# after another). Their classes share nothing (each test has its own folders, library and tmux
# server); the VM and install tests take the machine, and the transcript tests keep one bundle:
# Whisper already uses both cores, and two at once made the part 428 s instead of 330 s.
shards() {
    case "$1" in
        binary | screens | faults) echo "${CRAVEY_SHARDS:-3}" ;;
        unit) echo "${CRAVEY_SHARDS:-2}" ;;
        *) echo 1 ;;
    esac
}

# deal SELECTION N: the classes in N comma-separated lines of about equal seconds (the last whole
# run's, from $times; a class not measured counts 5 s), the longest classes placed first.
deal() {
    tr , '\n' <<<"$1" | awk -v times="$times" '
        FILENAME == times { split($1, name, "."); seconds[name[1]] += $2; next }
        { class = $0; sub(/^[A-Za-z]+\./, "", class); cost = (class in seconds) ? seconds[class] : 5
          printf "%012.3f %s\n", cost, $0 }' "$times" - | sort -r | awk -v n="$2" '
        { best = 1; for (i = 2; i <= n; i++) if (load[i] < load[best]) best = i
          load[best] += $1; shard[best] = shard[best] (shard[best] == "" ? "" : ",") $2 }
        END { for (i = 1; i <= n; i++) if (shard[i] != "") print shard[i] }'
}

# run PART SELECTION: the bundle over the selection (in shards side by side, see shards()), each in
# a process group of its own (`timeout` makes one) stopped at the part's limit; each shard's log in
# $logs/PART.N.log, its status in $logs/PART.N.status; the part's seconds in $logs/PART.time.
run() {
    local part=$1 selection=$2 started=$SECONDS status=0 pid n=0 group bundles=()
    local seconds=$(limit "$part")
    [ "$seconds" -le $((deadline - SECONDS)) ] || seconds=$((deadline - SECONDS))
    if [ -z "$selection" ]; then
        echo "Executed 0 tests, with 0 failures (0 unexpected) in 0.0 (0.0) seconds" > "$logs/$part.1.log"
        echo 0 > "$logs/$part.1.status"
    elif [ "$seconds" -lt 60 ]; then
        echo "run-all.sh: part $part not started: the run's time ($((${CRAVEY_RUN_MINUTES:-80})) min) was up" > "$logs/$part.1.log"
        echo 124 > "$logs/$part.1.status"
    else
        touch "$times"
        while IFS= read -r group; do
            n=$((n + 1))
            (
                status=0
                timeout --kill-after=30 "$seconds" "$bundle" "$group" > "$logs/$part.$n.log" 2>&1 &
                pid=$!
                echo "$pid" > "$logs/$part.$n.pid"
                wait "$pid" || status=$?
                rm -f "$logs/$part.$n.pid"
                if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
                    echo "run-all.sh: part $part stopped at its time limit ($seconds s): it hung or ran far too long" >> "$logs/$part.$n.log"
                fi
                echo "$status" > "$logs/$part.$n.status"
            ) &
            bundles+=($!)
        done < <(deal "$selection" "$(shards "$part")")
        # Its own bundles only: a bare wait would wait for the other lane too.
        wait "${bundles[@]}"
    fi
    for file in "$logs/$part".*.status; do
        [ "$(cat "$file")" -eq 0 ] || [ "$status" -ne 0 ] || status=$(cat "$file")
    done
    echo $((SECONDS - started)) > "$logs/$part.time"
    echo "$status" > "$logs/$part.status"
    echo "part $part: done in $((SECONDS - started)) s"
}

lane() {  # lane PART…: the parts one after another
    for part in "$@"; do
        [[ " ${wanted[*]} " == *" $part "* ]] && run "$part" "$(classes "$part")"
    done
    return 0
}

started=$SECONDS
if [ "$fast" = 1 ]; then
    wanted=(fast)
    if [ -s "$times" ]; then
        # Every test under a second last time, outside the VM, transcripts and tmux screens.
        awk '$2 < 1 {print $1}' "$times" > "$logs/quick"
        selection=$(grep -vE "^(CraveyVMTests|CraveyTranscriptTests|CraveyScreenTests)\\.|^CraveyMediaTests\\.($engines)/" "$logs/tests" \
            | awk -F'[./]' 'NR == FNR {quick[$0] = 1; next} quick[$2 "." $3] {print}' "$logs/quick" - | paste -sd, -)
    else
        # No whole run yet: the unit targets without their slow classes (the kill-at-every-step
        # atomicity test, the media files' exact durations).
        selection=$(classes unit | tr , '\n' | grep -vE '^CraveyLibraryTests\.AtomicityTests$|^CraveyMediaTests\.MediaFileTests$' \
            | paste -sd, -)
    fi
    run fast "$selection"
else
    if [ "${CRAVEY_LANES:-2}" = 2 ]; then
        lane vm install unit > "$logs/lane-vm" &
        vm_lane=$!
        lane binary screens faults transcripts
        wait "$vm_lane"
        cat "$logs/lane-vm"
    else
        lane unit binary screens faults transcripts vm install
    fi
fi

# XCTest's last line: "Executed N tests, with [S tests skipped and] F failures (U unexpected) …"
total_all=0 skipped_all=0 failed_all=0 status=0
summary_lines=()
for part in "${wanted[@]}"; do
    total=0 skipped=0
    for log in "$logs/$part".*.log; do
        cat "$log"
        # Each shard's own last summary line.
        summary=$(grep -E "Executed [0-9]+ tests?, with " "$log" | tail -1 || true)
        count=$(sed -nE 's/.*Executed ([0-9]+) tests?.*/\1/p' <<<"$summary")
        skips=$(sed -nE 's/.*with ([0-9]+) tests? skipped.*/\1/p' <<<"$summary")
        total=$((total + ${count:-0})) skipped=$((skipped + ${skips:-0}))
    done
    # Tests that failed (XCTest's own count is of failed assertions: one test may fail twice).
    failed=$(cat "$logs/$part".*.log | grep -cE "^Test Case '.*' failed \(" || true)
    failed=${failed:-0}
    part_status=$(cat "$logs/$part.status")
    # A bundle that crashed or ended without its summary failed, whatever it counted.
    if [ "$part_status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
    [ "$part_status" -eq 0 ] || status=$part_status
    # A part stopped before its summary counts its one failure as a test.
    passed=$((total - skipped - failed))
    [ "$passed" -ge 0 ] || passed=0 total=$((skipped + failed))
    total_all=$((total_all + total)) skipped_all=$((skipped_all + skipped)) failed_all=$((failed_all + failed))
    stopped=""
    [ "$part_status" -ne 124 ] && [ "$part_status" -ne 137 ] || stopped=" (stopped: out of time)"
    summary_lines+=("$(printf 'part %-12s %4d passed, %d failed, %d skipped in %d s%s' "$part" \
        "$passed" "$failed" "$skipped" "$(cat "$logs/$part.time")" "$stopped")")
    if [ "$part" = vm ]; then
        # The rig counts as one test; what ran inside the emulated machine, each check by itself.
        inside() { cat "$logs/vm".*.log | grep -cE "^in the VM: Test Case '.*' $1 \(" || true; }
        summary_lines+=("$(printf '  inside the VM     %4d passed, %d failed, %d skipped (the host starved the emulated machine)' \
            "$(inside passed)" "$(inside failed)" "$(inside skipped)")")
    fi
done
# The fault campaign's figures: each bundle prints its own so far as each campaign class ends; the
# last line of each, added up.
for log in "$logs"/*.log; do grep -E "^fault campaign: " "$log" | tail -1 || true; done | awk '
    { faults += $3; cases += $6; lost += $9; touched += $12 }
    END { if (NR) printf "fault campaign: %d faults injected, %d cases checked, %d recordings lost, %d foreign files touched\n", faults, cases, lost, touched }'

# What failed, again at the end where a shortened log still shows it.
cat "$logs"/*.log | grep -E "^Test Case .* failed|: error: |^run-all\.sh: part " | grep -v "^Test Suite" | tail -n 40 || true
{
    # Each test's seconds, for the next fast ring ("Test Case 'Class.test' passed (0.123 seconds)"),
    # over what earlier runs measured of the tests that did not run this time.
    # (the VM's tests are its rig's lines "in the VM: Test Case …").
    cat "$logs"/*.log | sed -nE "s/^(in the VM: )?Test Case '([A-Za-z]+\.test[A-Za-z0-9_]*)' passed \(([0-9.]+) seconds\)$/\2 \3/p" \
        > "$logs/times"
    touch "$times"
    awk 'NR == FNR {now[$1] = $2; next} !($1 in now) {print} END {for (t in now) print t, now[t]}' "$logs/times" "$times" \
        | sort > "$logs/merged" && cp "$logs/merged" "$times"
}
printf '%s\n' "${summary_lines[@]}"
echo "all parts: $((SECONDS - started)) s"
echo "tests: $((total_all - skipped_all - failed_all)) passed, $failed_all failed, $skipped_all skipped"
if [ "$format_status" -ne 0 ]; then
    echo "format: files differ from what 'swift format' writes (see the lines above the tests)"
    [ "$status" -ne 0 ] || status=$format_status
fi
[ "$failed_all" -eq 0 ] || [ "$status" -ne 0 ] || status=1
exit "$status"
