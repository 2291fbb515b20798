import CraveyTestSupport
import Foundation
import XCTest

@testable import cravey

/// The recording, playing and check-in screens in a real terminal (tmux), with a microphone paced
/// like a real one and ALSA's file plugin as the speaker: the video icon, the screen before
/// recording (00:00 and RECORD until started), the preview that loads paused, an edit that starts
/// on a clear screen, the check-in that keeps the day's mood and rides a craving out with `o`, and
/// every one of them fitting its window down to 60x12.
final class RecordingAndCheckInScreensTests: CommandTestCase {
    var feeders: [Process] = []
    var speakerOut: String { base + "/speaker.raw" }

    override func tearDownWithError() throws {
        for feeder in feeders { feeder.terminate() }
        try super.tearDownWithError()
    }

    /// A FIFO microphone paced at real time, fed with a tone (again each time it is opened).
    func pacedMic() throws -> String {
        let tone = base + "/tone.raw"
        if !FileManager.default.fileExists(atPath: tone) { try makeTone(tone, seconds: 40) }
        let fifo = base + "/mic-\(feeders.count).fifo"
        feeders.append(try pacedFIFO(fifo, feeding: tone, repeating: true))
        return fifo
    }

    /// `cravey ARGUMENTS` in tmux with the paced microphone and the file speaker; the shell says
    /// EXIT= when it ends.
    func start(_ arguments: String, now: String? = nil, width: Int = 120, height: Int = 30) throws -> TmuxSession {
        let env =
            [
                "CRAVEY_ALSA_INFILE=" + shellQuote(try pacedMic()), "NO_COLOR=1", "TZ=Europe/Berlin",
                "CRAVEY_TRANSCRIBE=later", "ALSA_CONFIG_PATH=" + shellQuote(testALSAConfig),
                "CRAVEY_ALSA_OUTFILE=" + shellQuote(speakerOut), "CRAVEY_LIBRARY=" + shellQuote(root),
            ] + (now.map { ["CRAVEY_NOW=" + $0] } ?? [])
        return try TmuxSession(
            "cd \(shellQuote(base)) && env \(env.joined(separator: " ")) \(shellQuote(cravey)) \(arguments) "
                + "--mic cravey_file --speaker cravey_capture; echo EXIT=$?; sleep 60", width: width, height: height)
    }

    func listed() throws -> [[String: Any]] {
        let out = try runProcess(cravey, ["list", "--json", "--library", root], environment: ["NO_COLOR": "1"])
        return try json(out.stdout) as! [[String: Any]]
    }

    /// Bytes the file speaker has been given so far.
    var played: Int {
        ((try? FileManager.default.attributesOfItem(atPath: speakerOut))?[.size] as? Int) ?? 0
    }

    func testVideosCarryTheVideoCameraIcon() throws {
        XCTAssertEqual(Format.icon(.video), "🎥")
        XCTAssertEqual(Format.icon(.audio), "🎙️")
        let tmux = try start("recordings")
        let empty = try tmux.waitFor("No recordings yet")
        XCTAssertTrue(empty.contains("🎥"), empty)
        XCTAssertFalse(empty.contains("🎬"), empty)
        try tmux.send("n", literal: true)
        let choice = try tmux.waitFor("Choose Recording Type")
        XCTAssertTrue(choice.contains("v  🎥 RECORD VIDEO"), choice)
        try tmux.send("Escape")
        try tmux.waitFor("No recordings yet")
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
    }

    /// From the recordings screen: 00:00 and RECORD until Space starts it; Esc or q asks to
    /// discard and return; after stopping, the preview waits paused for Play; `e` then starts on a
    /// clear screen.
    func testTheRecordScreenWaitsForRecordAndThePreviewForPlay() throws {
        let tmux = try start("recordings")
        try tmux.waitFor("No recordings yet")
        try tmux.send("n", literal: true)
        try tmux.waitFor("Choose Recording Type")
        try tmux.send("a", literal: true)
        // Not "RECORD" alone: the choice before it says "RECORD AUDIO".
        var screen = try tmux.waitFor("Space, Enter or r: record")
        XCTAssertTrue(screen.contains("00:00"), screen)
        sleep(2)
        screen = try tmux.screen()
        XCTAssertFalse(screen.contains("0:01 / 2:00"), "nothing records before RECORD: \(screen)")
        XCTAssertFalse(screen.contains("dBFS"), screen)
        // Esc asks; n stays; q asks again and y goes back to the library with nothing kept.
        try tmux.send("Escape")
        try tmux.waitFor("Discard and return to library?")
        try tmux.send("n", literal: true)
        try tmux.waitFor("Esc or q: back to the library")
        try tmux.send("q", literal: true)
        try tmux.waitFor("Discard and return to library?")
        try tmux.send("y", literal: true)
        screen = try tmux.waitFor("Nothing was recorded.", timeout: 20)
        XCTAssertTrue(screen.contains("No recordings yet"), screen)
        XCTAssertEqual(try listed().count, 0)
        // Again, started with Space this time.
        try tmux.send("n", literal: true)
        try tmux.waitFor("Choose Recording Type")
        try tmux.send("a", literal: true)
        try tmux.waitFor("RECORD")
        try tmux.send("Space")
        try tmux.waitFor("0:02 / 2:00", timeout: 20)
        try tmux.send("Enter")
        screen = try tmux.waitFor("paused", timeout: 20)
        XCTAssertTrue(screen.contains("space plays it back"), screen)
        XCTAssertTrue(screen.contains("space play ·"), screen)
        sleep(1)
        XCTAssertLessThan(played, 4800, "the preview loads paused: nothing reached the speaker")
        XCTAssertTrue(try tmux.screen().contains("0:00 / 0:0"), "still at the start")
        try tmux.send("Space")
        try tmux.waitFor("Title (Enter for", timeout: 20)
        XCTAssertGreaterThan(played, 48_000 * 2 * 3 / 2, "Play played the take")
        try tmux.send("Kept", literal: true)
        for prompt in ["Title (Enter for", "Notes", "Purpose"] {
            try tmux.waitFor(prompt)
            try tmux.send("Enter")
        }
        try tmux.waitFor("Save or discard?")
        try tmux.send("s", literal: true)
        try tmux.waitFor("Recording saved ✓", timeout: 20)
        XCTAssertEqual(try listed().map { $0["title"] as? String }, ["Kept"])
        // e: the form on a clear screen, not under the recording session.
        try tmux.send("e", literal: true)
        screen = try tmux.waitFor("Edit Recording")
        for earlier in ["Recorded ", "RECORD", "Save or discard?", "dBFS"] {
            XCTAssertFalse(screen.contains(earlier), "'\(earlier)' above the form: \(screen)")
        }
        try tmux.send("Escape")
        try tmux.waitFor("Recordings")
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
    }

    /// Leaving after the mood is chosen and coming back the same day finds it chosen; `o` on a
    /// check-in screen rides a craving out and comes back to the check-in.
    func testTheCheckInKeepsTheDaysMoodAndRidesACravingOut() throws {
        var tmux = try start("checkin", now: "2026-11-21T19:30:00")
        var screen = try tmux.waitFor("Take a moment for yourself")
        XCTAssertTrue(screen.contains("o  Ride it out"), screen)
        try tmux.send("Enter")
        screen = try tmux.waitFor("How does today feel")
        XCTAssertTrue(screen.contains("o  Ride it out"), screen)
        XCTAssertFalse(screen.contains("[ "), "nothing chosen yet: \(screen)")
        try tmux.send("4", literal: true)
        try tmux.send("Enter")
        try tmux.waitFor("Just one question for today")
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
        tmux.close()

        tmux = try start("checkin", now: "2026-11-21T20:15:00")
        screen = try tmux.waitFor("How does today feel")
        XCTAssertTrue(screen.contains("[ Happy ]"), "the day's mood is kept: \(screen)")
        // o: the ride, then back to the check-in where it was.
        try tmux.send("o", literal: true)
        try tmux.waitFor("How strong is it? 1–10")
        try tmux.send("6", literal: true)
        try tmux.waitFor("Riding it out")
        try tmux.send("q", literal: true)
        screen = try tmux.waitFor("How does today feel", timeout: 20)
        XCTAssertTrue(screen.contains("[ Happy ]"), screen)
        let logs = try runProcess(
            cravey, ["log", "list", "--json", "--library", root],
            environment: ["NO_COLOR": "1", "CRAVEY_NOW": "2026-11-21T20:16:00"])
        XCTAssertEqual(logs.status, 0, logs.stderr)
        XCTAssertTrue(logs.stdout.contains("\"intensity\" : 6") || logs.stdout.contains("\"intensity\":6"), logs.stdout)
        // Enter keeps the mood; the entry is recorded and saved; the close says no transcript was
        // saved, since none was made.
        try tmux.send("Enter")
        try tmux.waitFor("Just one question for today")
        try tmux.send("Enter")
        try tmux.waitFor("0:01", timeout: 20)
        try tmux.send("Enter")
        screen = try tmux.waitFor("Listen back", timeout: 20)
        XCTAssertTrue(screen.contains("Happy"), screen)
        XCTAssertFalse(screen.contains("Transcript saved automatically"), "none was saved: \(screen)")
        XCTAssertFalse(screen.contains("See more"), screen)
        try tmux.send("Enter")
        try tmux.waitFor("EXIT=0")
    }

    /// The recordings screen, its record choice and the check-in's screens at 60x12, 80x14 and
    /// 80x24: the title, the line in focus and the keys in view; below 60x12 one line, and q leaves.
    func testTheScreensKeepTitleFocusAndKeysFrom60x12() throws {
        for n in 1...7 {
            let out = try runProcess(
                cravey,
                ["record", "audio", "--mic", "cravey_file", "--max-seconds", "0.3", "--title", "Take \(n)", "--yes"]
                    + ["--library", root],
                environment: ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_INFILE": try pacedMic()])
            XCTAssertEqual(out.status, 0, out.stderr)
        }
        for (day, (width, height)) in [(60, 12), (80, 14), (80, 24)].enumerated() {
            let size = "\(width)x\(height)"
            var tmux = try start("recordings", width: width, height: height)
            try tmux.waitFor("q back")
            try tmux.send("End")  // the oldest, at the bottom of the list
            var screen = try tmux.waitFor("▸ 🎙️ Take 1")
            var rows = screen.trimmingCharacters(in: .newlines).components(separatedBy: "\n")
            XCTAssertTrue(rows.first?.hasPrefix("Recordings") == true, "\(size): the title first: \(screen)")
            XCTAssertTrue(screen.contains("q back") && screen.contains("Enter play"), "\(size): the keys: \(screen)")
            XCTAssertLessThanOrEqual(rows.count, height, size)
            try tmux.send("n", literal: true)
            screen = try tmux.waitFor("Choose Recording Type")
            XCTAssertTrue(screen.contains("v  🎥 RECORD VIDEO") && screen.contains("Esc  Cancel"), "\(size): \(screen)")
            try tmux.send("Escape")
            try tmux.waitFor("▸ 🎙️ Take 1")
            // e: the form's title, the field in focus and its keys; the last field scrolled to.
            try tmux.send("e", literal: true)
            screen = try tmux.waitFor("Esc: close")
            XCTAssertTrue(screen.hasPrefix("Edit Recording"), "\(size): \(screen)")
            XCTAssertTrue(screen.contains("▸ Title") && screen.contains("> Take 1"), "\(size): \(screen)")
            for _ in 0..<3 { try tmux.send("Down") }
            screen = try tmux.waitFor("▸ Made for")
            XCTAssertTrue(screen.contains("Paraphernalia") && screen.contains("Esc: close"), "\(size): \(screen)")
            XCTAssertTrue(screen.hasPrefix("Edit Recording"), "\(size): \(screen)")
            try tmux.send("Escape")
            try tmux.waitFor("▸ 🎙️ Take 1")
            try tmux.send("q", literal: true)
            try tmux.waitFor("EXIT=0")
            tmux.close()

            tmux = try start("checkin", now: "2026-11-2\(day)T19:30:00", width: width, height: height)
            screen = try tmux.waitFor("Take a moment for yourself")
            XCTAssertTrue(screen.contains("Enter  Start") && screen.contains("o  Ride it out"), "\(size): \(screen)")
            try tmux.send("Enter")
            try tmux.send("3", literal: true)
            screen = try tmux.waitFor("[ Okay ]")
            rows = screen.split(separator: "\n").map(String.init)
            XCTAssertTrue(rows.contains { $0.contains("How does today feel, overall?") }, "\(size): \(screen)")
            XCTAssertTrue(
                screen.contains("Enter to confirm") && screen.contains("o  Ride it out"), "\(size): \(screen)")
            try tmux.send("q", literal: true)
            try tmux.waitFor("EXIT=0")
            tmux.close()
        }
        // Below 60x12: one line, keys other than q do nothing, and q leaves.
        for arguments in ["recordings", "checkin"] {
            let tmux = try start(arguments, now: "2026-11-25T19:30:00", width: 59, height: 11)
            let screen = try tmux.waitFor("at least 60x12")
            XCTAssertEqual(
                screen.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.count, 1,
                "\(arguments): \(screen)")
            try tmux.send("Enter")
            try tmux.send("n", literal: true)
            usleep(300_000)
            XCTAssertTrue(try tmux.screen().contains("at least 60x12"), "nothing chosen unseen")
            try tmux.send("q", literal: true)
            try tmux.waitFor("EXIT=0")
            tmux.close()
        }
    }

    /// At 60x12 the live meter and the paused preview keep every line within the window: the
    /// keys shown, the clock on the bar's line.
    func testTheMeterAndThePreviewFitSixtyColumns() throws {
        let tmux = try start("recordings", width: 60, height: 12)
        try tmux.waitFor("No recordings yet")
        try tmux.send("n", literal: true)
        try tmux.waitFor("Choose Recording Type")
        try tmux.send("a", literal: true)
        try tmux.waitFor("RECORD")
        try tmux.send("r", literal: true)
        var screen = try tmux.waitFor("0:02 / 2:00", timeout: 20)
        XCTAssertTrue(screen.contains("Enter or q to stop"), screen)
        for line in screen.split(separator: "\n") where line.contains("Level [") {
            XCTAssertTrue(line.contains("dBFS  peak"), "the level line whole: \(line)")
        }
        try tmux.send("Enter")
        screen = try tmux.waitFor("space play ·", timeout: 20)
        let bar = screen.split(separator: "\n").first { $0.contains("────") }
        XCTAssertTrue(bar?.contains("0:00 / 0:0") == true, "the clock on the bar's line: \(screen)")
        try tmux.send("q", literal: true)
        for prompt in ["Title (Enter for", "Notes", "Purpose", "Save or discard?"] {
            try tmux.waitFor(prompt)
            try tmux.send("Enter")
        }
        try tmux.waitFor("Recording saved ✓", timeout: 20)
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
    }
}
