import CraveyTestSupport
import Foundation
import XCTest

/// Transcripts made by the background worker, through the built binary and the real Whisper
/// engine: the save returns first, the transcript follows; the worker outlives its terminal, is
/// alone per library, low in priority, never blocks a delete, and a kill at any step leaves the job
/// queued for the next one.
final class BackgroundTranscriptTests: TranscriptTestCase {
    override var timing: String { "background" }

    func importSpeech(_ file: String? = nil, _ environment: [String: String] = [:]) throws -> String {
        try importSpeech([], environment, file: file)
    }

    func helpers() -> [Int32] { whisperHelpers() }

    func state(_ id: String) throws -> String { try sql("SELECT state FROM transcript WHERE recordingId = '\(id)'") }
    func queued(_ id: String) throws -> Bool {
        try sql("SELECT count(*) FROM transcriptJob WHERE recordingId = '\(id)'") == "1"
    }

    func testASaveReturnsBeforeItsTranscriptWhichFollows() throws {
        let started = Date()
        let id = try importSpeech()
        let took = Date().timeIntervalSince(started)
        XCTAssertEqual(try state(id), "", "the import returned before its transcript was made")
        XCTAssertTrue(try queued(id))
        print(String(format: "background: import returned in %.2f s", took))
        // While it is made: on its way everywhere, and the worker runs low (nice 10, idle I/O).
        XCTAssertTrue(try run(["show", id]).stdout.contains("transcript on its way"))
        XCTAssertTrue(try run(["list"]).stdout.contains("transcript on its way"))
        let worker = try XCTUnwrap(workers().first, "a worker runs")
        let stat = try String(contentsOfFile: "/proc/\(worker)/stat", encoding: .utf8)
        let fields = stat[stat.range(of: ")")!.upperBound...].split(separator: " ")
        XCTAssertEqual(fields[16], "10", "nice 10: \(stat)")
        XCTAssertTrue(try runProcess("/usr/bin/ionice", ["-p", String(worker)]).stdout.contains("idle"))
        // doctor says the take is waiting while the worker makes it (a fast worker may have made
        // it already: then the queue is empty because its transcript is there).
        let doctor = try run(["doctor", "--mic", "null"]).stdout
        let made = try state(id) == "done"
        XCTAssertTrue(
            (doctor.contains("transcript queue: 1 waiting") && doctor.contains("a worker is making them"))
                || (made && doctor.contains("transcript queue: empty")), doctor)
        // Then it is there, out of the queue, and the worker is gone.
        XCTAssertTrue(try eventually { try state(id) == "done" })
        XCTAssertFalse(try queued(id))
        XCTAssertTrue(eventually(5) { workers().isEmpty })
        XCTAssertTrue(try run(["show", id]).stdout.contains("Remember why you started this journey."))
        XCTAssertTrue(try run(["doctor", "--mic", "null"]).stdout.contains("transcript queue: empty"))
    }

    func testTheWorkerOutlivesItsTerminal() throws {
        let long = base + "/long.wav"
        try makeSpeech(long, seconds: 60)
        let tmux = try TmuxSession(
            "env CRAVEY_TRANSCRIBE=background NO_COLOR=1 \(shellQuote(cravey)) import \(shellQuote(long)) --title Long "
                + "--library \(shellQuote(root)); sleep 60")
        _ = try tmux.waitFor("Imported 'Long'", timeout: 20)
        XCTAssertTrue(eventually(5) { !workers().isEmpty })
        tmux.close()  // the terminal goes: its session is hung up
        let id = try sql("SELECT id FROM recording")
        XCTAssertTrue(try eventually(60) { try state(id) == "done" }, "the worker finished after its terminal closed")
        XCTAssertGreaterThan(Int(try sql("SELECT json_array_length(words) FROM transcript")) ?? 0, 100)
    }

    func testAKilledWorkerLeavesTheJobQueuedForTheNext() throws {
        // One sentence: the worker recognizes it again after most of the kills.
        let short = base + "/one-sentence.wav"
        _ = try makeSpeech(short, saying: ["remember why you started this journey"])
        let id = try importSpeech(short, ["CRAVEY_TRANSCRIBE": "later"])
        XCTAssertTrue(try queued(id), "later: queued, no worker")
        XCTAssertTrue(workers().isEmpty)
        // Every library step of the worker, killed there (counted once the day's snapshot exists:
        // the first change of a day takes it, not every worker).
        XCTAssertEqual(try run(["transcribe", "--worker"]).status, 0)
        XCTAssertEqual(
            try sql(
                "DELETE FROM transcript; INSERT INTO transcriptJob (recordingId, queuedAt) VALUES ('\(id)', '2026-01-01T00:00:00.000Z')"
            ), "")
        let traced = try run(["transcribe", "--worker"], ["CRAVEY_FAULT_TRACE": "1"])
        let steps = traced.stderr.split(separator: "\n").filter { $0.hasPrefix("fault-site ") }.count
        XCTAssertGreaterThan(steps, 0, traced.stderr)
        for step in 1...steps {
            XCTAssertEqual(
                try sql(
                    "DELETE FROM transcript; INSERT INTO transcriptJob (recordingId, queuedAt) VALUES ('\(id)', '2026-01-01T00:00:00.000Z')"
                ), "")
            let killed = try run(["transcribe", "--worker"], ["CRAVEY_FAULT_KILL_AT": String(step)])
            XCTAssertEqual(killed.status, -SIGKILL, "step \(step)")
            // Made and out of the queue, or not made and still queued: never half of each.
            let made = try state(id) == "done", waiting = try queued(id)
            XCTAssertNotEqual(made, waiting, "step \(step)")
            XCTAssertEqual(try run(["transcribe", "--worker"]).status, 0)
            XCTAssertEqual(try state(id), "done", "step \(step): the next worker made it")
            XCTAssertFalse(try queued(id))
        }
        // Killed in the middle of the recognition: its helper goes with it, the job stays.
        XCTAssertEqual(
            try sql(
                "DELETE FROM transcript; INSERT INTO transcriptJob (recordingId, queuedAt) VALUES ('\(id)', '2026-01-01T00:00:00.000Z')"
            ), "")
        let worker = try start(["transcribe", "--worker"])
        XCTAssertTrue(eventually(10) { !helpers().isEmpty })
        let helper = helpers()[0]
        kill(worker.processIdentifier, SIGKILL)
        worker.waitUntilExit()
        XCTAssertTrue(waitUntilGone(helper), "the helper died with its worker")
        XCTAssertEqual(try state(id), "")
        XCTAssertTrue(try queued(id))
        // The next command (any) starts a worker for the queue left waiting.
        XCTAssertEqual(try run(["list"]).status, 0)
        XCTAssertTrue(try eventually { try state(id) == "done" })
        // A recording whose job was never written (a power cut between its save and its queueing):
        // the next command queues it, and its worker makes it.
        XCTAssertEqual(try sql("DELETE FROM transcript; DELETE FROM transcriptJob"), "")
        XCTAssertTrue(eventually(5) { workers().isEmpty })
        XCTAssertEqual(try run(["list"]).status, 0)
        XCTAssertTrue(try eventually { try state(id) == "done" })
    }

    func testTwoCommandsAtOnceStartOneWorker() throws {
        let first = try importSpeech(nil, ["CRAVEY_TRANSCRIBE": "later"])
        let second = try importSpeech(nil, ["CRAVEY_TRANSCRIBE": "later"])
        let a = try start(["transcribe", "--all"]), b = try start(["transcribe", "--all"])
        var most = 0
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            most = max(most, helpers().count)
            if try state(first) == "done" && state(second) == "done" && workers().isEmpty { break }
            usleep(20_000)
        }
        a.waitUntilExit(); b.waitUntilExit()
        XCTAssertEqual(a.terminationStatus, 0)
        XCTAssertEqual(b.terminationStatus, 0)
        XCTAssertEqual(most, 1, "one worker, one engine at a time")
        XCTAssertEqual(try state(first), "done")
        XCTAssertEqual(try state(second), "done")
        XCTAssertEqual(try sql("SELECT count(*) FROM transcriptJob"), "0")
    }

    func testADeleteDuringATranscriptionWins() throws {
        let long = base + "/long.wav"
        try makeSpeech(long, seconds: 60)
        let id = try importSpeech(long, ["CRAVEY_TRANSCRIBE": "later"])
        let worker = try start(["transcribe", "--worker"])
        XCTAssertTrue(eventually(10) { !helpers().isEmpty })
        let started = Date()
        XCTAssertEqual(try run(["delete", id, "--yes"]).status, 0)
        // Holding the library would make the delete wait for the lock (10 s) or the transcript.
        XCTAssertLessThan(Date().timeIntervalSince(started), 9, "the worker does not hold the library while it works")
        worker.waitUntilExit()
        XCTAssertEqual(worker.terminationStatus, 0)
        XCTAssertEqual(try sql("SELECT count(*) FROM transcript"), "0", "nothing stored for a deleted recording")
        XCTAssertEqual(try sql("SELECT count(*) FROM transcriptJob"), "0")
        XCTAssertEqual(try sql("SELECT count(*) FROM recordingSearch"), "0")
    }

    /// The check-in's close screen: a transcript ready within its wait is shown; a slow one is
    /// "on its way", and `checkin show today` has it once it is made.
    func testTheCheckInCloseScreenWithAFastAndASlowTranscript() throws {
        let raw = base + "/mic-speech.raw"
        try microphoneRaw(from: speech, to: raw)
        let fifo = base + "/mic.fifo"
        let feeder = try pacedFIFO(fifo, feeding: raw, repeating: true)
        defer { feeder.terminate() }
        // A wait long enough for Whisper on a loaded machine (the screen shows the transcript the
        // moment it is made), and none.
        for (day, wait) in [("2026-11-21", "30"), ("2026-11-22", "0")] {
            let (tmux, screen) = try checkInToItsClose(
                microphone: fifo, day: day, recordFor: "0:08", ["CRAVEY_CHECKIN_TRANSCRIPT_WAIT=\(wait)"])
            defer { tmux.close() }
            if wait == "30" {
                // The take starts wherever the looping microphone was: some sentence of it is shown.
                XCTAssertTrue(screen.contains("Transcript (automatic draft)"), screen)
                XCTAssertFalse(screen.contains("on its way"), screen)
                XCTAssertTrue(screen.contains("."), "sentences, as Whisper writes them\n" + screen)
            } else {
                XCTAssertTrue(screen.contains("Transcript on its way — cravey checkin show today"), screen)
                let entry = try sql("SELECT id FROM recording WHERE checkinDay = '\(day)'")
                XCTAssertTrue(try eventually { try state(entry) == "done" })
                let shown = try run(["checkin", "show", day], ["CRAVEY_NOW": "\(day)T10:05:00"]).stdout
                XCTAssertTrue(shown.contains("Transcript (automatic draft)") && !shown.contains("on its way"), shown)
                XCTAssertTrue(shown.contains("faster-whisper"), shown)
            }
            try tmux.send("Enter")
            XCTAssertTrue(try tmux.waitFor("EXIT=").contains("EXIT=0"))
        }
    }
}
