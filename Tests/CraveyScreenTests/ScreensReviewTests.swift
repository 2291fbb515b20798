import CraveyTestSupport
import Foundation
import XCTest

/// What a second look at the screens found, in a real terminal (tmux): home keeps `c`, `u` and
/// `o` in view at 60x12 with its longest title and a note, the goal question still answers after
/// ↑/↓, and the cursor stays hidden after a ride taken from a check-in.
final class ScreensReviewTests: CommandTestCase {
    func start(_ arguments: String, now: String? = nil, width: Int = 100, height: Int = 30) throws -> TmuxSession {
        try TmuxSession(
            "cd \(shellQuote(base)) && env NO_COLOR=1 TZ=Europe/Berlin CRAVEY_TRANSCRIBE=later "
                + (now.map { "CRAVEY_NOW=\($0) " } ?? "")
                + "ALSA_CONFIG_PATH=\(shellQuote(testALSAConfig)) CRAVEY_LIBRARY=\(shellQuote(root)) "
                + "\(shellQuote(cravey)) \(arguments); echo EXIT=$?; sleep 60", width: width, height: height)
    }

    func run(_ arguments: [String]) throws {
        let result = try runProcess(
            cravey, arguments + ["--library", root], environment: ["NO_COLOR": "1", "TZ": "Europe/Berlin"])
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
    }

    /// Skip tour on `now` (today when nil).
    func skipTour(now: String? = nil) throws {
        let tmux = try start("", now: now)
        defer { tmux.close() }
        try tmux.waitFor("Get started")
        try tmux.send("s", literal: true)
        try tmux.waitFor("LOG CRAVING")
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
    }

    func assertHardMomentKeys(_ text: String, _ when: String) {
        for part in ["c  🧠 LOG CRAVING", "u  💨 LOG USAGE", "o  🌊 RIDE IT OUT", "q Quit"] {
            XCTAssertTrue(text.contains(part), "\(when): '\(part)' not in\n\(text)")
        }
    }

    /// Quitting, the last use two days ago (the first weeks' line wraps at 60 columns), and a note
    /// under the keys: `c`, `u` and `o` are all on screen at 60x12.
    func testHomeKeepsTheHardMomentKeysAt60x12() throws {
        try skipTour()
        try run(["settings", "goal", "quit"])
        try run(["use", "bowls", "2", "--at", "-50h"])
        let tmux = try start("home", width: 60, height: 12)
        defer { tmux.close() }
        var text = try tmux.waitFor("days in progress")  // the milestone reached, as a note
        assertHardMomentKeys(text, "home with a milestone's note")
        try tmux.send("o", literal: true)
        try tmux.waitFor("How strong is it? 1–10")
        try tmux.send("Escape")
        text = try tmux.waitFor("Nothing was logged.")
        assertHardMomentKeys(text, "home with a note")
        // The first weeks' line went into the body: ↓ shows it or what follows it, the keys stay.
        try tmux.send("Down")
        usleep(300_000)
        assertHardMomentKeys(try tmux.screen(), "home scrolled")
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
    }

    /// The skipped tour's goal question, the next day: ↓ scrolls, and `g` still chooses a goal.
    func testTheGoalQuestionStillAnswersAfterScrolling() throws {
        try skipTour(now: "2026-03-02T10:00:00")
        let tmux = try start("home", now: "2026-03-03T09:00:00")
        defer { tmux.close() }
        try tmux.waitFor("Would you like to choose a goal?")
        try tmux.send("Down")
        usleep(300_000)
        XCTAssertTrue(try tmux.screen().contains("Would you like to choose a goal?"), "the question stays")
        try tmux.send("g", literal: true)
        try tmux.waitFor("What brings you here today?")
        try tmux.send("Enter")
        try tmux.waitFor("Goal: ")
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
    }

    /// Whether the terminal in `tmux` shows its cursor.
    func cursorShown(_ tmux: TmuxSession) throws -> Bool {
        try runProcess("/usr/bin/tmux", ["-L", tmux.socket, "display", "-p", "-t", "0", "#{cursor_flag}"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    /// `o` on the check-in's greeting: the ride, and back on the greeting the cursor is hidden.
    func testTheCursorStaysHiddenAfterARideFromACheckIn() throws {
        let tmux = try start("checkin", now: "2026-11-21T19:30:00")
        defer { tmux.close() }
        try tmux.waitFor("Take a moment for yourself")
        XCTAssertFalse(try cursorShown(tmux), "hidden on the greeting")
        try tmux.send("o", literal: true)
        try tmux.waitFor("How strong is it? 1–10")
        try tmux.send("6", literal: true)
        try tmux.waitFor("Riding it out")
        try tmux.send("q", literal: true)
        try tmux.waitFor("Take a moment for yourself", timeout: 20)
        usleep(300_000)
        XCTAssertFalse(try cursorShown(tmux), "hidden after the ride")
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=")
    }

    /// `cravey privacy` on an 80-column terminal wraps its paragraphs between words (the terminal
    /// itself would break them inside a word).
    func testPrivacyWrapsBetweenWordsOnATerminal() throws {
        let tmux = try start("privacy", width: 80, height: 40)
        defer { tmux.close() }
        let screen = try tmux.waitFor("EXIT=0")
        let lines = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(lines.allSatisfy { $0.count < 80 }, screen)
        let words = Set(screen.split(whereSeparator: \.isWhitespace))
        for word in ["administrator", "accounts.", "included.", "Transcripts", "analytics,", "check'"] {
            XCTAssertTrue(words.contains(Substring(word)), "'\(word)' whole in\n\(screen)")
        }
    }
}
