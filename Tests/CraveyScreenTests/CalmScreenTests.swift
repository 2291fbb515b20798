import CraveyTestSupport
import Foundation
import XCTest

/// Calm screens (`TERM=dumb`, `CRAVEY_REDUCED_MOTION=1`) as a screen reader hears them: the
/// terminal's raw output captured with `script` inside tmux (which sends the keys) — plain lines,
/// no redrawing, a live screen's status at most once a second, each choice said as text.
final class CalmScreenTests: CommandTestCase {
    var feeder: Process?

    override func tearDownWithError() throws {
        feeder?.terminate()
        try super.tearDownWithError()
    }

    /// Runs `arguments` under `script` in tmux with `environment`; the raw bytes go to the returned path.
    func session(_ environment: [String], _ arguments: String) throws -> (TmuxSession, String) {
        let raw = base + "/raw-\(UUID().uuidString.prefix(4)).log"
        let command = "\(shellQuote(cravey)) \(arguments) --library \(shellQuote(root))"
        let tmux = try TmuxSession(
            "env \(environment.joined(separator: " ")) script -qfec \(shellQuote(command)) \(shellQuote(raw)); "
                + "echo EXIT=$?; sleep 60")
        return (tmux, raw)
    }

    func output(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }

    /// A microphone paced like a real one, playing a -6 dBFS tone.
    func microphone() throws -> [String] {
        let tone = base + "/tone.raw", fifo = base + "/mic.fifo"
        try makeTone(tone, seconds: 30, volume: 0.5)
        feeder = try pacedFIFO(fifo, feeding: tone)
        return ["ALSA_CONFIG_PATH=" + shellQuote(testALSAConfig), "CRAVEY_ALSA_INFILE=" + shellQuote(fifo)]
    }

    func statusClocks(_ text: String, _ prefix: String) -> [String] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            guard let range = line.range(of: prefix) else { return nil }
            return String(line[range.upperBound...].prefix(4))
        }
    }

    func testARecordingAndItsPlaybackSayTheirStatusOnceASecond() throws {
        let (tmux, raw) = try session(
            ["CRAVEY_REDUCED_MOTION=1", "CRAVEY_TRANSCRIBE=later"] + (try microphone()),
            "record audio --mic cravey_file --max-seconds 5 --countdown 2 --title Calm --yes")
        defer { tmux.close() }
        XCTAssertTrue(try tmux.waitFor("EXIT=", timeout: 30).contains("EXIT=0"))
        let recorded = try output(raw)
        XCTAssertFalse(recorded.contains("\u{1B}["), "no redrawing, no cursor moves: \(recorded.debugDescription)")
        XCTAssertTrue(recorded.contains("Recording in 2… (q cancels)\r\nRecording in 1… (q cancels)\r\n"), recorded)
        // One status line a second at most: 5 s recorded, each line a second after the one before.
        let clocks = statusClocks(recorded, "Recording ")
            .filter { $0.first?.isNumber == true }
        XCTAssertGreaterThanOrEqual(clocks.count, 4, recorded)
        XCTAssertLessThanOrEqual(clocks.count, 6, recorded)
        XCTAssertEqual(clocks, clocks.sorted(), recorded)
        XCTAssertEqual(Set(clocks).count, clocks.count, "never two lines in one second: \(recorded)")
        XCTAssertTrue(recorded.contains(" of 0:05, "), recorded)
        XCTAssertTrue(recorded.contains("level -"), recorded)

        // Played back: "Playing 'Calm' 0:01 of 0:05", a line a second, nothing redrawn.
        let (fifo, drain) = (base + "/speaker.fifo", try pacedFIFO(base + "/speaker.fifo"))
        defer { drain.terminate() }
        let (player, playRaw) = try session(
            ["TERM=dumb", "ALSA_CONFIG_PATH=" + shellQuote(testALSAConfig), "CRAVEY_ALSA_OUTFILE=" + shellQuote(fifo)],
            "play Calm --speaker cravey_capture")
        defer { player.close() }
        XCTAssertTrue(try player.waitFor("EXIT=", timeout: 30).contains("EXIT=0"))
        let played = try output(playRaw)
        XCTAssertFalse(played.contains("\u{1B}["), played.debugDescription)
        let positions = statusClocks(played, "Playing 'Calm' ")
        XCTAssertGreaterThanOrEqual(positions.count, 4, played)
        XCTAssertLessThanOrEqual(positions.count, 7, played)
        XCTAssertEqual(Set(positions).count, positions.count, played)
        XCTAssertTrue(played.contains("of 0:05"), played)
    }

    func testTheHomeScreenAndTheCheckInSayEachChoice() throws {
        let (home, raw) = try session(["TERM=dumb", "CRAVEY_TRANSCRIBE=later"], "home")
        defer { home.close() }
        // The first run's tour skipped: then home.
        try home.waitFor("Skip tour")
        try home.send("s", literal: true)
        try home.waitFor("LOG CRAVING")
        try home.send("p", literal: true)
        try home.waitFor("Days in Progress")
        try home.send("q", literal: true)
        try home.waitFor("→ leave")
        try home.send("q", literal: true)
        XCTAssertTrue(try home.waitFor("EXIT=").contains("EXIT=0"))
        let text = try output(raw)
        for announced in ["→ 📊 Progress\r\n", "→ leave\r\n", "→ Quit\r\n"] {
            XCTAssertTrue(text.contains(announced), "\(announced) in \(text)")
        }
        XCTAssertFalse(text.contains("\u{1B}[?1049h"), "no screen of its own")
        XCTAssertFalse(text.contains("\u{1B}[H"), "nothing drawn over")
        XCTAssertFalse(text.contains("\u{1B}[2J"), "nothing cleared")
        // Home is printed whole twice (before and after the progress page), each time as plain lines.
        XCTAssertEqual(text.components(separatedBy: "  c  🧠 LOG CRAVING\r\n").count - 1, 2, text)

        // The check-in: each key's choice, the mood chosen, the recording's time once a second.
        let (checkIn, checkInRaw) = try session(
            ["CRAVEY_REDUCED_MOTION=1", "CRAVEY_TRANSCRIBE=later"] + (try microphone()),
            "checkin --mic cravey_file")
        defer { checkIn.close() }
        try checkIn.waitFor("Take a moment for yourself")
        try checkIn.send("Enter")
        try checkIn.waitFor("How does today feel")
        try checkIn.send("Right")
        try checkIn.send("4", literal: true)
        try checkIn.waitFor("Selected: Happy (4 of 5)")
        try checkIn.send("Enter")
        try checkIn.waitFor("Just one question for today")
        try checkIn.send("Enter")
        try checkIn.waitFor("Recording 0:02", timeout: 20)
        try checkIn.send("Enter")
        try checkIn.waitFor("Listen back", timeout: 30)
        try checkIn.send("Enter")
        XCTAssertTrue(try checkIn.waitFor("EXIT=").contains("EXIT=0"))
        let flow = try output(checkInRaw)
        for announced in [
            "→ Start", "Selected: Okay (3 of 5)", "Selected: Happy (4 of 5)", "→ I'm ready", "→ Stop and keep",
            "→ Done",
        ] {
            XCTAssertTrue(flow.contains(announced + "\r\n"), "\(announced) in \(flow)")
        }
        let clocks = statusClocks(flow, "Recording ")
        XCTAssertEqual(Set(clocks).count, clocks.count, "a line a second: \(flow)")
        XCTAssertGreaterThanOrEqual(clocks.count, 2, flow)
        XCTAssertFalse(
            flow.contains("\u{1B}[2J") || flow.contains("\u{1B}[H") || flow.contains("▁▂"), "nothing redrawn: \(flow)")
    }
}
