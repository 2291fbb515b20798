import CraveyTestSupport
import Foundation
import XCTest

/// `cravey checkin` end to end: the five screens in a real terminal (tmux) with a microphone
/// paced like a real one (the ALSA file plugin over a FIFO), the clock injected through
/// CRAVEY_NOW; the scripted path's rules; recovery of a killed entry; export, purge and check.
final class CheckInFlowTests: CommandTestCase {
    var feeders: [Process] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        try makeTone(base + "/tone.raw", seconds: 40)
    }

    override func tearDownWithError() throws {
        for feeder in feeders { feeder.terminate() }
        _ = try? runProcess("/usr/bin/pkill", ["-f", base + "/mic-"])
        try super.tearDownWithError()
    }

    /// A FIFO microphone paced at real time, fed with the tone; fed again each time it is
    /// opened anew (a discarded take, then a new one).
    func pacedMic() throws -> String {
        let fifo = base + "/mic-\(feeders.count).fifo"
        feeders.append(try pacedFIFO(fifo, feeding: base + "/tone.raw", repeating: true))
        return fifo
    }

    func environment(now: String, mic: String) -> [String: String] {
        [
            "ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_INFILE": mic, "CRAVEY_ALSA_OUTFILE": base + "/speaker.raw",
            "CRAVEY_NOW": now, "NO_COLOR": "1", "CRAVEY_TRANSCRIBE": "later",
        ]
    }

    /// `cravey checkin ARGS` in tmux at the injected time; the shell prints EXIT= when it ends.
    func startFlow(now: String, _ arguments: String = "") throws -> TmuxSession {
        let env = environment(now: now, mic: try pacedMic()).map { "\($0.key)=\(shellQuote($0.value))" }.joined(
            separator: " ")
        return try TmuxSession(
            "env \(env) \(shellQuote(cravey)) checkin --mic cravey_file --speaker cravey_capture "
                + "--library \(shellQuote(root)) \(arguments); echo EXIT=$?; sleep 60")
    }

    /// `cravey checkin ARGS` without a terminal, recording from a paced microphone until signalled.
    func startScripted(_ arguments: [String], now: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: cravey)
        process.arguments = ["checkin"] + arguments + ["--mic", "cravey_file", "--library", root]
        process.environment = ProcessInfo.processInfo.environment.merging(environment(now: now, mic: try pacedMic())) {
            $1
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    func run(_ arguments: [String], now: String = "2026-11-21T10:00:00", mic: String? = nil) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try runProcess(
            cravey, arguments + ["--library", root], environment: environment(now: now, mic: mic ?? base + "/tone.raw"))
    }

    func json(_ arguments: [String], now: String = "2026-11-21T10:00:00") throws -> Any {
        let out = try run(arguments + ["--json"], now: now)
        XCTAssertEqual(out.status, 0, out.stderr)
        return try json(out.stdout)
    }

    func entries() throws -> [[String: Any]] { try json(["checkin", "list"]) as! [[String: Any]] }

    func testTheWholeFlowInATerminal() throws {
        XCTAssertEqual(try run(["settings", "name", "Ben"]).status, 0)
        let tmux = try startFlow(now: "2026-11-21T19:30:00")
        var screen = try tmux.waitFor("Take a moment for yourself")
        XCTAssertTrue(screen.contains("Saturday, 21 November"), screen)
        XCTAssertTrue(screen.contains("Good evening, Ben."), screen)
        try tmux.send("Enter")
        try tmux.waitFor("How does today feel, overall?")
        try tmux.send("Enter")  // nothing chosen yet: Enter does not advance
        usleep(300_000)
        XCTAssertTrue(try tmux.screen().contains("How does today feel"), "no mood, no next step")
        try tmux.send("Right")
        try tmux.waitFor("[ Okay ]")
        try tmux.send("Right")
        try tmux.waitFor("[ Happy ]")
        try tmux.send("Left")
        try tmux.waitFor("[ Okay ]")
        try tmux.send("5", literal: true)
        try tmux.waitFor("[ Amazing ]")
        usleep(300_000)
        XCTAssertTrue(try tmux.screen().contains("How does today feel"), "choosing never advances by itself")
        try tmux.send("Enter")
        screen = try tmux.waitFor("Just one question for today")
        let question = try XCTUnwrap(
            screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first {
                $0.hasSuffix("?") && !$0.contains("Just one")
            })
        try tmux.send("b", literal: true)
        try tmux.waitFor("[ Amazing ]")  // back at the mood, still chosen
        try tmux.send("Enter")
        XCTAssertTrue(try tmux.waitFor("Just one question").contains(question), "the same question all day")
        try tmux.send("Enter")
        try tmux.waitFor("You can stop anytime")
        try tmux.waitFor("0:02")
        try tmux.send("d", literal: true)
        try tmux.waitFor("Discard today's entry?")
        try tmux.send("Enter")  // Keep recording
        try tmux.waitFor("You can stop anytime")
        try tmux.waitFor("0:04")  // at least 3.5 s: the clock shows the nearest second
        try tmux.send("Enter")
        screen = try tmux.waitFor("Saved for today")
        XCTAssertTrue(screen.contains("Saturday, 21 November · Amazing"), screen)
        // Left for later here (TranscriptTests make it).
        XCTAssertTrue(screen.contains("Transcript not made yet"), screen)
        // The page stays on screen while the player starts: wait for the sound to reach the
        // speaker and stop, so the Enter below answers the page and not the player.
        let speakerFile = base + "/speaker.raw"
        func speakerBytes() -> Int {
            (try? FileManager.default.attributesOfItem(atPath: speakerFile)[.size] as? Int) ?? 0
        }
        let before = speakerBytes()
        try tmux.send("p", literal: true)  // listens back through the player
        var heard = before
        for step in 0..<120 {
            usleep(250_000)
            let now = speakerBytes()
            // At least 1.5 s: an Enter within a second of a key that answered is that key's own.
            if step >= 5 && now > before && now == heard { break }
            heard = now
        }
        try tmux.waitFor("Saved for today", timeout: 20)
        try tmux.send("Enter")
        XCTAssertTrue(try tmux.waitFor("EXIT=").contains("EXIT=0"))
        let speaker = (try? FileManager.default.attributesOfItem(atPath: base + "/speaker.raw")[.size] as? Int) ?? 0
        XCTAssertGreaterThan(speaker ?? 0, 96_000 * 2, "the entry was played back")

        let listed = try entries()
        XCTAssertEqual(listed.count, 1)
        XCTAssertEqual(listed.first?["checkinDay"] as? String, "2026-11-21")
        XCTAssertEqual(listed.first?["mood"] as? String, "amazing")
        XCTAssertEqual(listed.first?["prompt"] as? String, question)
        XCTAssertEqual(listed.first?["playCount"] as? Int, 0, "listening back is not a play")
        let duration = listed.first?["duration"] as? Double ?? 0
        XCTAssertGreaterThan(duration, 3)
        XCTAssertLessThan(duration, 8)
        // Not a message.
        XCTAssertEqual((try json(["list"]) as! [Any]).count, 0)
        XCTAssertEqual((try json(["top"]) as! [Any]).count, 0)
        XCTAssertNotEqual(try run(["play", "--top"]).status, 0)

        // Coming back the same day: it says so, and changes nothing.
        let again = try startFlow(now: "2026-11-21T21:10:00")
        screen = try again.waitFor("You checked in today")
        XCTAssertTrue(screen.contains("Amazing"), screen)
        try again.send("Enter")
        try again.waitFor("EXIT=0")
        XCTAssertEqual(try entries().count, 1)
    }

    func testGreetingByTheHourAndLater() throws {
        for (hour, words) in [
            ("07:15", "Good morning."), ("12:00", "Good afternoon."), ("17:00", "Good evening."),
            ("21:00", "Good night."), ("04:59", "Good night."),
        ] {
            let tmux = try startFlow(now: "2026-11-10T\(hour):00", "--library \(shellQuote(base + "/lib-\(hour)"))")
            let screen = try tmux.waitFor("Take a moment for yourself")
            XCTAssertTrue(screen.contains(words), "\(hour): \(screen)")
            XCTAssertTrue(screen.contains("Tuesday, 10 November"), screen)
            tmux.close()
        }
        // Later: not asked again that day (the flow starts at the mood), and the reminder stays quiet.
        let later = try startFlow(now: "2026-11-21T08:00:00")
        try later.waitFor("Good morning.")
        try later.send("l", literal: true)
        try later.waitFor("EXIT=0")
        let back = try startFlow(now: "2026-11-21T09:00:00")
        try back.waitFor("How does today feel, overall?")
        try back.send("q", literal: true)
        try back.waitFor("EXIT=0")
        let notify = try run(["checkin", "notify"], now: "2026-11-21T21:00:00")
        XCTAssertEqual(notify.status, 0, notify.stderr)
        XCTAssertTrue(notify.stdout.contains("put off"), notify.stdout)
        // The next day greets again.
        let tomorrow = try startFlow(now: "2026-11-22T08:00:00")
        try tomorrow.waitFor("Take a moment for yourself")
        try tomorrow.send("q", literal: true)
        try tomorrow.waitFor("EXIT=0")
        XCTAssertEqual(try entries().count, 0, "leaving before recording keeps nothing")
    }

    func testDiscardThenRecordAgainAndStopWithSignals() throws {
        let tmux = try startFlow(now: "2026-11-21T10:00:00")
        try tmux.waitFor("Take a moment")
        try tmux.send("Enter")
        try tmux.waitFor("How does today feel")
        try tmux.send("2", literal: true)
        try tmux.send("Enter")
        try tmux.waitFor("Just one question")
        try tmux.send("Enter")
        try tmux.waitFor("0:01")
        try tmux.send("d", literal: true)
        try tmux.waitFor("Discard today's entry?")
        try tmux.send("d", literal: true)
        try tmux.waitFor("Just one question")  // discarded: may be recorded again
        XCTAssertEqual(try entries().count, 0)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: root + "/Recordings").filter { $0.hasSuffix(".m4a") },
            [])
        try tmux.send("Enter")
        try tmux.waitFor("0:02")
        // SIGTERM stops and keeps it (as does being closed with the terminal: SIGHUP).
        let pids = try runProcess(
            "/usr/bin/pgrep", ["-f", "checkin --mic cravey_file --speaker cravey_capture --library \(root)"]
        ).stdout
        for pid in pids.split(separator: "\n").compactMap({ Int32($0) }) { kill(pid, SIGTERM) }
        try tmux.waitFor("Saved for today")
        try tmux.send("Enter")
        try tmux.waitFor("EXIT=0")
        XCTAssertEqual(try entries().first?["mood"] as? String, "down")

        // Ctrl-C in the terminal, and SIGHUP to a scripted one, also keep it.
        for (day, how) in [("2026-11-19", "ctrl-c"), ("2026-11-18", "hup")] {
            if how == "ctrl-c" {
                let flow = try startFlow(now: "2026-11-21T10:00:00", "--date \(day)")
                try flow.waitFor("How does today feel")  // a past day: no greeting
                try flow.send("1", literal: true)
                try flow.send("Enter")
                try flow.waitFor("Just one question")
                try flow.send("Enter")
                try flow.waitFor("0:01")
                try flow.send("C-c")
                try flow.waitFor("Saved")
                try flow.send("Enter")
                try flow.waitFor("EXIT=0")
            } else {
                let process = try startScripted(["--mood", "okay", "--date", day], now: "2026-11-21T10:00:00")
                usleep(2_000_000)
                kill(process.processIdentifier, SIGHUP)
                process.waitUntilExit()
                XCTAssertEqual(process.terminationStatus, 0)
            }
        }
        let days = try entries().map { "\($0["checkinDay"]!) \($0["mood"]!)" }
        XCTAssertEqual(days, ["2026-11-21 down", "2026-11-19 low", "2026-11-18 okay"])
    }

    func testScriptedRulesAndBadInputChangeNothing() throws {
        let saved =
            try json(["checkin", "--mood", "happy", "--mic", "cravey_file", "--max-seconds", "2"]) as! [String: Any]
        XCTAssertEqual(saved["checkinDay"] as? String, "2026-11-21")
        XCTAssertEqual(saved["duration"] as? Double ?? 0, 2, accuracy: 0.001, "the cap is exact")
        XCTAssertEqual(try ffprobe(root + "/" + (saved["filePath"] as! String)).codecs, ["aac"])
        let files = try FileManager.default.contentsOfDirectory(atPath: root + "/Recordings").sorted()
        for (arguments, message) in [
            (["checkin", "--mood", "okay", "--mic", "cravey_file"], "has its check-in already"),
            (["checkin", "--mood", "sad", "--mic", "cravey_file"], "invalid mood"),
            (["checkin", "--mood", "okay", "--date", "2026-11-22", "--mic", "cravey_file"], "in the future"),
            (["checkin", "--mood", "okay", "--date", "21/11/2026", "--mic", "cravey_file"], "YYYY-MM-DD"),
            (["checkin", "--mic", "cravey_file"], "without a terminal"),
            (["checkin", "show", "2026-11-20"], "no check-in on 2026-11-20"),
            (["checkin", "calendar", "2026-13"], "not a month"),
            (["settings", "name", String(repeating: "n", count: 41)], "1 to 40"),
            (["edit", saved["id"] as! String, "--title", "Changed"], "kept as it was saved"),
            (["trim", saved["id"] as! String, "--start", "0.5", "--end", "1.5"], "kept as it was saved"),
        ] {
            let out = try run(arguments)
            XCTAssertNotEqual(out.status, 0, "\(arguments)")
            XCTAssertTrue(out.stderr.contains(message), "\(arguments): \(out.stderr)")
            XCTAssertEqual(out.stderr.split(separator: "\n").count, 1, "one line: \(out.stderr)")
        }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: root + "/Recordings").sorted(), files, "nothing changed"
        )
        let entry = try XCTUnwrap(try entries().first)
        XCTAssertEqual(entry["title"] as? String, "Check-in 2026-11-21")
        XCTAssertEqual(entry["modifiedAt"] as? String, saved["modifiedAt"] as? String)
        // A past day is fine; show, calendar (letters without colour), play.
        XCTAssertEqual(
            try run(["checkin", "--mood", "low", "--date", "2026-11-02", "--mic", "cravey_file", "--max-seconds", "1"])
                .status, 0)
        let shown = try run(["checkin", "show", "2026-11-02"])
        XCTAssertTrue(shown.stdout.contains("Monday, 2 November") && shown.stdout.contains("Low"), shown.stdout)
        let calendar = try run(["checkin", "calendar", "2026-11"]).stdout
        XCTAssertTrue(calendar.contains("November 2026"), calendar)
        XCTAssertTrue(calendar.contains("  2L") && calendar.contains(" 21H*"), calendar)
        XCTAssertTrue(
            calendar.contains("  Mon  Tue  Wed  Thu  Fri  Sat  Sun\n                                1"), calendar)
        let grid = try json(["checkin", "calendar", "2026-11"]) as! [String: Any]
        XCTAssertEqual((grid["days"] as! [[String: Any]]).map { $0["day"] as! String }, ["2026-11-02", "2026-11-21"])
        let played = try run(["checkin", "play", "2026-11-02", "--speaker", "cravey_capture"])
        XCTAssertEqual(played.status, 0, played.stderr)
        XCTAssertTrue(played.stdout.contains("Played the check-in of 2026-11-02"), played.stdout)
    }

    func testMidnightDuringARecordingKeepsTheStartsDay() throws {
        let out = try runProcess(
            cravey,
            ["checkin", "--mood", "okay", "--mic", "cravey_file", "--max-seconds", "4", "--json", "--library", root],
            environment: environment(now: "2026-11-21T23:59:58", mic: try pacedMic()))
        XCTAssertEqual(out.status, 0, out.stderr)
        let entry = try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as! [String: Any]
        XCTAssertEqual(entry["checkinDay"] as? String, "2026-11-21", "the day at recording start")
        XCTAssertEqual(entry["duration"] as? Double ?? 0, 4, accuracy: 0.001)
        // The next day is free.
        XCTAssertNotEqual(try run(["checkin", "show", "2026-11-22"], now: "2026-11-22T00:00:30").status, 0)
        XCTAssertEqual(
            try run(
                ["checkin", "--mood", "happy", "--mic", "cravey_file", "--max-seconds", "1"], now: "2026-11-22T00:00:30"
            ).status, 0)
    }

    func testAKilledCheckInIsRecoveredAsThatDaysEntry() throws {
        let process = try startScripted(["--mood", "happy"], now: "2026-11-20T22:00:00")
        // Killed 2.5 s after its take's sound began to be written (a busy machine starts a process late).
        XCTAssertTrue(waitForTakeFile(in: root, growing: true), "the take's sound is being written")
        usleep(2_500_000)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let listed = try entries()  // opening the library recovers the take
        XCTAssertEqual(listed.count, 1)
        XCTAssertEqual(listed.first?["checkinDay"] as? String, "2026-11-20")
        XCTAssertEqual(listed.first?["mood"] as? String, "happy")
        XCTAssertGreaterThan(listed.first?["duration"] as? Double ?? 0, 1.5, "at most about a second lost")
        XCTAssertEqual((try json(["list"]) as! [Any]).count, 0, "recovered as a check-in, not a message")
        let check = try run(["check"])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
    }

    func testExportPurgeAndCheckCoverCheckIns() throws {
        XCTAssertEqual(
            try run(["checkin", "--mood", "amazing", "--mic", "cravey_file", "--max-seconds", "1"]).status, 0)
        XCTAssertEqual(try run(["settings", "name", "Ben"]).status, 0)
        let csv = parseCSV(try run(["export", "--format", "csv", "--output", "-"]).stdout)
        let header = try XCTUnwrap(csv.first)
        let row = try XCTUnwrap(csv.dropFirst().first)
        XCTAssertEqual(row[header.firstIndex(of: "checkinDay")!], "2026-11-21")
        XCTAssertEqual(row[header.firstIndex(of: "mood")!], "amazing")
        let exported =
            (try JSONSerialization.jsonObject(
                with: Data(try run(["export", "--format", "json", "--output", "-"]).stdout.utf8)) as! [String: Any])[
                "recordings"] as! [[String: Any]]
        XCTAssertEqual(exported.first?["mood"] as? String, "amazing")
        let check = try run(["check"])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        let purge = try run(["purge", "--yes"])
        XCTAssertEqual(purge.status, 0, purge.stderr)
        XCTAssertEqual(try entries().count, 0)
        XCTAssertEqual(
            try run(["settings", "name"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines), "(not set)")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: root + "/Recordings").filter { $0.hasSuffix(".m4a") },
            [])
    }
}
