import CraveyTestSupport
import Foundation
import XCTest

/// What trying cravey as a new user found: purposes with their meaning and a notes counter, a
/// countdown that can be cancelled, `show` by a title's start, check-ins never counted as plays,
/// and a check-in whose microphone fails saying what to do and keeping the day's mood.
final class PolishTests: CommandTestCase {
    var feeder: Process?

    override func tearDownWithError() throws {
        feeder?.terminate()
        try super.tearDownWithError()
    }

    func session(_ arguments: String) throws -> TmuxSession {
        let tone = base + "/tone.raw"
        try makeTone(tone, seconds: 30)
        let fifo = base + "/mic.fifo"
        feeder = try pacedFIFO(fifo, feeding: tone)
        return try TmuxSession(
            "env ALSA_CONFIG_PATH=\(shellQuote(testALSAConfig)) CRAVEY_ALSA_INFILE=\(shellQuote(fifo)) NO_COLOR=1 "
                + "CRAVEY_TRANSCRIBE=later \(shellQuote(cravey)) \(arguments) --library \(shellQuote(root)); echo EXIT=$?; sleep 60"
        )
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try runProcess(
            cravey, arguments + ["--library", root],
            environment: ["CRAVEY_TRANSCRIBE": "later"].merging(environment) { $1 })
    }

    func listed(_ extra: [String] = []) throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(try run(["list", "--json"] + extra).stdout.utf8))
            as! [[String: Any]]
    }

    func testPurposesSayWhatTheyAreForAndNotesCountFrom150() throws {
        let tmux = try session("record audio --mic cravey_file")
        defer { tmux.close() }
        try tmux.waitFor("0:01 / 2:00")
        try tmux.send("Enter")
        try tmux.waitFor("Title (Enter for")
        try tmux.send("Big day", literal: true)
        try tmux.send("Enter")
        try tmux.waitFor("Notes (optional)")
        try tmux.send(String(repeating: "a", count: 149), literal: true)
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertFalse(try tmux.screen().contains("/200"), "no counter under 150 characters")
        try tmux.send("bc", literal: true)
        try tmux.waitFor("151/200")
        try tmux.send(String(repeating: "z", count: 60), literal: true)
        try tmux.waitFor("200/200")  // no more than 200 are taken
        try tmux.send("Enter")
        let purposes = try tmux.waitFor("Purpose (1–4")
        for line in [
            "Motivational", "Why you're taking a break", "Milestone", "Celebrate progress (e.g., 30 days)",
            "Reflection",
            "How you're feeling today", "During Craving", "Record during a craving moment",
        ] {
            XCTAssertTrue(purposes.contains(line), "\(line): \(purposes)")
        }
        try tmux.send("4", literal: true)
        try tmux.send("Enter")
        // A message for craving moments is asked which triggers it is for.
        try tmux.waitFor("Made for which triggers?")
        try tmux.send("lonely, nope", literal: true)
        try tmux.send("Enter")
        try tmux.waitFor("'nope' is not one of")
        try tmux.send("BORED,lonely", literal: true)
        try tmux.send("Enter")
        try tmux.waitFor("Save or discard")
        try tmux.send("Enter")
        try tmux.waitFor("EXIT=0", timeout: 20)
        let row = try XCTUnwrap(try listed().first)
        XCTAssertEqual(row["purpose"] as? String, "craving")
        XCTAssertEqual(row["forTriggers"] as? String, "lonely,bored")
        XCTAssertEqual((row["notes"] as? String)?.count, 200)
        let shown = try run(["show", "big"])  // by the start of its title, as play finds it
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("During Craving — Record during a craving moment"), shown.stdout)
        XCTAssertEqual(
            try run(["edit", row["id"] as! String, "--purpose", "Milestone"]).status, 0, "a purpose by its name")
        XCTAssertTrue(try run(["show", "Big"]).stdout.contains("Milestone — Celebrate progress (e.g., 30 days)"))
        XCTAssertTrue(try run(["show", "nothing like it"]).stderr.contains("no recording matches"))
    }

    func testTheCountdownCancelsAndRecordsNothing() throws {
        for key in ["q", "Escape", "C-c"] {
            let tmux = try session("record audio --mic cravey_file --countdown 5")
            defer { tmux.close() }
            try tmux.waitFor("Recording in")
            try tmux.send(key)
            let screen = try tmux.waitFor("EXIT=", timeout: 5)
            XCTAssertTrue(screen.contains("Cancelled; nothing was recorded."), "\(key): \(screen)")
            XCTAssertTrue(screen.contains("EXIT=0"), screen)
            XCTAssertFalse(screen.contains("REC"), "\(key): the recording never started: \(screen)")
            XCTAssertEqual(try listed().count, 0, key)
            XCTAssertEqual(
                try FileManager.default.contentsOfDirectory(atPath: root + "/.incoming"), [], "\(key): no file")
            feeder?.terminate()
        }
    }

    func testACheckInIsNeverCountedAsAPlay() throws {
        let checkIn = try run(
            ["checkin", "--mood", "3", "--mic", "cravey_file", "--max-seconds", "1", "--json"],
            environment: ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_INFILE": phraseFixture])
        XCTAssertEqual(checkIn.status, 0, checkIn.stderr)
        let entry = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(try run(["checkin", "list", "--json"]).stdout.utf8))
                as? [[String: Any]]
        ).first
        let id = try XCTUnwrap(entry?["id"] as? String)
        let played = try run(
            ["play", id, "--speaker", "cravey_capture"],
            environment: ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_OUTFILE": base + "/out.raw"])
        XCTAssertEqual(played.status, 0, played.stderr)
        XCTAssertGreaterThan(
            (try? FileManager.default.attributesOfItem(atPath: base + "/out.raw")[.size] as? Int) ?? 0, 48_000,
            "it was played")
        let shown =
            try JSONSerialization.jsonObject(with: Data(try run(["show", id, "--json"]).stdout.utf8)) as! [String: Any]
        XCTAssertEqual(shown["playCount"] as? Int, 0)
    }

    func testAMicrophoneFailingInTheCheckInSaysWhatToDoAndKeepsTheMood() throws {
        let tmux = try TmuxSession(
            "env NO_COLOR=1 CRAVEY_NOW=2026-03-02T10:00:00 \(shellQuote(cravey)) checkin --mic no_such_microphone "
                + "--library \(shellQuote(root)); echo EXIT=$?; sleep 60")
        defer { tmux.close() }
        try tmux.waitFor("Take a moment for yourself")
        try tmux.send("Enter")
        try tmux.waitFor("How does today feel")
        try tmux.send("2", literal: true)
        try tmux.send("Enter")
        try tmux.waitFor("Just one question for today")
        try tmux.send("Enter")
        // One line, wrapped by the terminal.
        let failed = try tmux.waitFor("EXIT=").replacingOccurrences(of: "\n", with: "")
        XCTAssertTrue(failed.contains("cravey: cannot record from the microphone"), failed)
        XCTAssertTrue(
            failed.contains("run 'cravey doctor' to see why") && failed.contains("mood and question are kept"), failed)
        XCTAssertFalse(failed.contains("EXIT=0"))
        let again = try TmuxSession(
            "env NO_COLOR=1 CRAVEY_NOW=2026-03-02T10:05:00 \(shellQuote(cravey)) checkin --mic no_such_microphone "
                + "--library \(shellQuote(root)); sleep 60")
        defer { again.close() }
        // (The greeting was seen today: the flow starts at the mood, the one chosen before already chosen.)
        XCTAssertTrue(try again.waitFor("How does today feel").contains("[ Down ]"), "the mood chosen before is kept")
    }
}
