import CraveyTestSupport
import Foundation
import XCTest

/// The interactive record flow in a real terminal (tmux): live meter, Enter to stop, prompts
/// that re-ask on bad input, Discard's confirmation, Save, and the terminal mode restored.
final class RecordTerminalTests: CommandTestCase {
    var feeder: Process?

    override func setUpWithError() throws {
        try super.setUpWithError()
    }

    override func tearDownWithError() throws {
        feeder?.terminate()
        try super.tearDownWithError()
    }

    /// Starts `cravey record audio` in tmux from a microphone paced like a real one
    /// (a -6 dBFS tone, or silence).
    func startSession(_ extra: String = "", silent: Bool = false) throws -> TmuxSession {
        let tone = base + "/tone.raw"
        try makeTone(tone, seconds: 30, volume: silent ? 0 : 0.5)
        let fifo = base + "/mic.fifo"
        feeder = try pacedFIFO(fifo, feeding: tone)
        let command =
            "env ALSA_CONFIG_PATH=\(shellQuote(testALSAConfig)) CRAVEY_ALSA_INFILE=\(shellQuote(fifo)) NO_COLOR= "
            + "CRAVEY_ALSA_OUTFILE=\(shellQuote(base + "/preview.raw")) "
            + "\(shellQuote(cravey)) record audio --mic cravey_file --library \(shellQuote(root)) \(extra); "
            + "echo EXIT=$?; stty -a | grep -o -- '-\\?icanon' | sed 's/^/MODE=/'; sleep 60"
        return try TmuxSession(command)
    }

    func listed() throws -> [[String: Any]] {
        let out = try runProcess(cravey, ["list", "--json", "--library", root]).stdout
        return try JSONSerialization.jsonObject(with: Data(out.utf8)) as! [[String: Any]]
    }

    func testLiveMeterPreviewPromptsAndSave() throws {
        let tmux = try startSession("--speaker cravey_capture")
        let live = try tmux.waitFor("dBFS")
        XCTAssertTrue(live.contains("REC"), live)
        XCTAssertTrue(live.contains("left"), live)
        XCTAssertTrue(live.contains("Enter or q to stop"), live)
        try tmux.waitFor("0:02 / 2:00")  // a clock to the nearest second: at least 1.5 s
        try tmux.send("Enter")
        try tmux.waitFor("Title (Enter for")
        try tmux.send(String(repeating: "x", count: 41), literal: true)
        try tmux.send("Enter")
        try tmux.waitFor("at most 40")
        try tmux.send("Craving at night", literal: true)
        try tmux.send("Enter")
        try tmux.waitFor("Notes")
        try tmux.send("Call Sam first", literal: true)
        try tmux.send("Enter")
        try tmux.waitFor("Purpose")
        try tmux.send("bored", literal: true)
        try tmux.send("Enter")
        try tmux.waitFor("is not one of")
        try tmux.send("craving", literal: true)
        try tmux.send("Enter")
        try tmux.waitFor("Made for which triggers?")
        try tmux.send("Enter")
        try tmux.waitFor("Save or discard?")
        try tmux.send("d", literal: true)
        try tmux.send("Enter")
        try tmux.waitFor("Discard recording? This cannot be undone.")
        try tmux.send("n", literal: true)
        try tmux.send("Enter")
        try tmux.send("s", literal: true)
        try tmux.send("Enter")
        let done = try tmux.waitFor("EXIT=")
        XCTAssertTrue(done.contains("Saved 'Craving at night'"), done)
        XCTAssertTrue(done.contains("EXIT=0"), done)
        XCTAssertTrue(try tmux.waitFor("MODE=").contains("MODE=icanon"), "the terminal is back in canonical mode")
        let rows = try listed()
        XCTAssertEqual(rows.count, 1)
        XCTAssertEqual(rows.first?["title"] as? String, "Craving at night")
        XCTAssertEqual(rows.first?["notes"] as? String, "Call Sam first")
        XCTAssertEqual(rows.first?["purpose"] as? String, "craving")
        let duration = rows.first?["duration"] as? Double ?? 0
        XCTAssertGreaterThan(duration, 1.0)
        // The preview played the take to the speaker, and a preview is not a play.
        // (after the 120 ms of silence the speaker is given while it is waited for)
        let written = try readS16(base + "/preview.raw")
        let lead = 48_000 * 120 / 1000
        XCTAssertEqual(written.prefix(lead).filter { $0 != 0 }.count, 0, "the lead-in is silence")
        let previewed = Array(written.dropFirst(lead))
        XCTAssertEqual(Double(previewed.count), duration * 48_000, accuracy: 1024)
        XCTAssertEqual(rmsDecibels(previewed), -9.03, accuracy: 1.0)
        XCTAssertEqual(rows.first?["playCount"] as? Int, 0)
    }

    func testCountdownSilenceWarningAndLastSeconds() throws {
        let tmux = try startSession("--max-seconds 14 --countdown 2 --title Quiet", silent: true)
        try tmux.waitFor("Recording in 2")
        let silent = try tmux.waitFor("No sound for 3 s")
        XCTAssertTrue(silent.contains("is the microphone muted?"), silent)
        // The meter reads the silence floor (waited for: a screen can be caught mid-redraw).
        _ = silent
        try tmux.waitFor("-96.0 dBFS", timeout: 5)
        try tmux.waitFor("seconds left", timeout: 20)
        let done = try tmux.waitFor("EXIT=", timeout: 20)
        XCTAssertTrue(done.contains("EXIT=0"), done)
        let rows = try listed()
        XCTAssertEqual(rows.first?["duration"] as? Double ?? 0, 14, accuracy: 1024.0 / 48_000, "stopped by the cap")
    }

    func testDiscardAfterConfirmationLeavesNothing() throws {
        let tmux = try startSession()
        try tmux.waitFor("0:01 / 2:00")
        try tmux.send("q", literal: true)
        for prompt in ["Title (Enter for", "Notes", "Purpose"] {
            try tmux.waitFor(prompt)
            try tmux.send("Enter")
        }
        try tmux.waitFor("Save or discard?")
        try tmux.send("d", literal: true)
        try tmux.send("Enter")
        try tmux.waitFor("Discard recording? This cannot be undone.")
        try tmux.send("y", literal: true)
        try tmux.send("Enter")
        let done = try tmux.waitFor("EXIT=")
        XCTAssertTrue(done.contains("Discarded."), done)
        XCTAssertTrue(done.contains("EXIT=0"), done)
        XCTAssertEqual(try listed().count, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root + "/.incoming"), [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root + "/Recordings"), ["Thumbnails"])
    }

    func testCtrlCDuringThePromptsSavesWithTheDetailsSoFar() throws {
        let tmux = try startSession()
        try tmux.waitFor("0:01 / 2:00")
        try tmux.send("C-c")
        try tmux.waitFor("Title (Enter for")
        try tmux.send("C-c")
        let done = try tmux.waitFor("EXIT=")
        XCTAssertTrue(done.contains("EXIT=0"), done)
        XCTAssertTrue(try tmux.waitFor("MODE=").contains("MODE=icanon"))
        let rows = try listed()
        XCTAssertEqual(rows.count, 1, "Ctrl-C keeps the recording")
        XCTAssertTrue((rows.first?["title"] as? String ?? "").hasPrefix("Recording "))
    }

    func testPauseStopsTheClockAndTheFileHasNoGap() throws {
        let tmux = try startSession("--title Paused")
        try tmux.waitFor("0:02 / 2:00")  // at least 1.5 s (to the nearest second)
        try tmux.send("p", literal: true)
        let paused = try tmux.waitFor("PAUSED")
        XCTAssertTrue(paused.contains("p or space resumes"), paused)
        let pausedAt = Date()
        sleep(2)
        let still = try tmux.screen()
        XCTAssertTrue(still.contains("PAUSED"), still)
        XCTAssertFalse(still.contains("0:04 / 2:00"), "the elapsed time stands still while paused: \(still)")
        try tmux.send("Space")
        try tmux.waitFor("REC")
        let resumedAt = Date()
        try tmux.waitFor("0:04 / 2:00", timeout: 10)
        try tmux.send("Enter")
        let done = try tmux.waitFor("EXIT=", timeout: 30)
        XCTAssertTrue(done.contains("EXIT=0"), done)
        let row = try XCTUnwrap(try listed().first)
        let duration = try XCTUnwrap(row["duration"] as? Double)
        let pausedFor = resumedAt.timeIntervalSince(pausedAt)
        XCTAssertGreaterThan(pausedFor, 1.9)
        XCTAssertGreaterThanOrEqual(duration, 3.0, "recorded time only: 1 s + 2 s at least")
        XCTAssertLessThan(duration, 5.0, "the \(pausedFor) s paused are not in it")
        // No gap: the tone runs through the whole file, every 10 ms of it.
        let sound = try decodeAudio(root + "/" + (row["filePath"] as! String))
        let windows = stride(from: 2400, to: sound.count - 2400, by: 480).map { rmsDecibels(sound[$0..<$0 + 480]) }
        XCTAssertGreaterThan(windows.min() ?? -99, -15, "no silence was put in for the pause")
    }

    func testSIGUSR1PausesWithoutATerminal() throws {
        let tone = base + "/tone.raw"
        try makeTone(tone, seconds: 30)
        let fifo = base + "/mic.fifo"
        feeder = try pacedFIFO(fifo, feeding: tone)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: cravey)
        process.arguments = ["record", "audio", "--mic", "cravey_file", "--library", root, "--yes", "--json"]
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_INFILE": fifo]) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Timed from the take's first bytes (a busy machine starts a process late).
        XCTAssertTrue(waitForTakeFile(in: root), "the take began")
        usleep(1_200_000)
        kill(process.processIdentifier, SIGUSR1)
        usleep(2_000_000)
        kill(process.processIdentifier, SIGUSR1)
        usleep(1_500_000)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let row = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: out.fileHandleForReading.readDataToEndOfFile()) as? [String: Any])
        let duration = try XCTUnwrap(row["duration"] as? Double)
        XCTAssertEqual(duration, 3.0, accuracy: 0.6, "5 s of wall time, 2 of them paused")
    }

    func testThePreviewOffersToTrimTheSilenceAtTheEnds() throws {
        // The microphone hears 1.5 s of silence, 3 s of tone, then silence.
        let tone = base + "/tone.raw"
        try makeTone(tone, seconds: 3)
        let shaped = base + "/shaped.raw"
        let padded = try runProcess(
            "/usr/bin/sox",
            [
                "-t", "raw", "-r", "48000", "-e", "signed", "-b", "16", "-c", "1", tone,
                "-t", "raw", shaped, "pad", "1.5", "30",
            ])
        XCTAssertEqual(padded.status, 0, padded.stderr)
        let fifo = base + "/mic.fifo"
        feeder = try pacedFIFO(fifo, feeding: shaped)
        let command =
            "env ALSA_CONFIG_PATH=\(shellQuote(testALSAConfig)) CRAVEY_ALSA_INFILE=\(shellQuote(fifo)) NO_COLOR= "
            + "CRAVEY_ALSA_OUTFILE=/dev/null \(shellQuote(cravey)) record audio --mic cravey_file --speaker cravey_capture "
            + "--library \(shellQuote(root)); echo EXIT=$?; sleep 60"
        let tmux = try TmuxSession(command)
        try tmux.waitFor("0:06 / 2:00", timeout: 20)
        try tmux.send("Enter")
        let offer = try tmux.waitFor("Trim the silence:", timeout: 30)
        XCTAssertTrue(offer.contains("at the start") && offer.contains("at the end?"), offer)
        try tmux.send("y", literal: true)
        try tmux.send("Enter")
        let trimmed = try tmux.waitFor("Title (Enter for")
        XCTAssertTrue(trimmed.contains("trimmed"), trimmed)
        for _ in 0..<4 { try tmux.send("Enter"); usleep(300_000) }  // title, notes, purpose, save
        let done = try tmux.waitFor("EXIT=", timeout: 20)
        XCTAssertTrue(done.contains("EXIT=0"), done)
        let duration = try XCTUnwrap(try listed().first?["duration"] as? Double)
        XCTAssertEqual(duration, 3.4, accuracy: 0.15, "the tone and 0.2 s each side")
    }
}
