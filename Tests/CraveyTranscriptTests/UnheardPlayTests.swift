import CraveyTestSupport
import Foundation
import XCTest

/// A message played when the speaker cannot open (a device name that does not exist): its words
/// are shown calmly — the transcript, or without one its title and notes — with one line on what
/// `cravey doctor` checks, never a device error alone; a video still shows its pictures.
final class UnheardPlayTests: TranscriptTestCase {
    override var timing: String { "later" }

    func testTheWordsInsteadOfTheSound() throws {
        let id = try importSpeech(["--notes", "For the evenings after work"])

        // No transcript yet: said kindly, with the title and the notes.
        let early = try run(["play", id, "--speaker", "nosuch"])
        let earlyText = early.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertEqual(early.status, 1, early.stderr)
        XCTAssertTrue(earlyText.contains("'Six sentences' has no transcript yet"), early.stdout)
        XCTAssertTrue(earlyText.contains("Your notes: For the evenings after work"), early.stdout)
        XCTAssertTrue(earlyText.contains("'cravey doctor --speaker nosuch' says how to fix it"), early.stdout)
        XCTAssertEqual(early.stderr.split(separator: "\n").count, 1, early.stderr)
        XCTAssertTrue(early.stderr.contains("'Six sentences' was not played"), early.stderr)
        XCTAssertFalse(early.stderr.contains("ALSA"), "no device error alone: \(early.stderr)")

        // With a PocketSphinx transcript: a rough draft is not shown as the person's words.
        XCTAssertEqual(try run(["transcribe", id, "--engine", "pocketsphinx"], ["CRAVEY_TRANSCRIBE": "now"]).status, 0)
        let text = try XCTUnwrap(try transcript(id)?["text"] as? String)
        let firstWords = text.split(separator: " ").prefix(3).joined(separator: " ")
        XCTAssertFalse(firstWords.isEmpty)
        let words = try run(["play", "Six", "--speaker", "nosuch"])
        XCTAssertEqual(words.status, 1)
        XCTAssertTrue(
            words.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains(
                "'Six sentences' has only a rough automatic draft"), words.stdout)
        XCTAssertFalse(words.stdout.contains("  " + firstWords), "not the transcript: \(words.stdout)")
        XCTAssertEqual(try sql("SELECT playCount FROM recording"), "0", "not heard: not counted")

        // The craving's offer plays through the same path.
        let craving = try run(["craving", "8", "--play", "1", "--speaker", "nosuch"])
        XCTAssertTrue(craving.stdout.contains("8 (strong)"), "the craving is logged: \(craving.stdout)")
        XCTAssertTrue(
            craving.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains(
                "only a rough automatic draft"), craving.stdout)

        // In a terminal the words stay until a key.
        let tmux = try TmuxSession(
            "env NO_COLOR=1 CRAVEY_TRANSCRIBE=later \(shellQuote(cravey)) play \(id) --speaker nosuch --library \(shellQuote(root)); echo EXIT=$?; sleep 30",
            width: 80, height: 30)
        let shown = try tmux.waitFor("Press any key when you're ready.")
        XCTAssertTrue(shown.contains("Your notes:"), shown)
        XCTAssertFalse(shown.contains("EXIT="), "waits for a key")
        try tmux.send("Enter")
        try tmux.waitFor("EXIT=1")
        tmux.close()

        // At the offer after a craving on a terminal, the craving stays logged: exit 0, one note.
        let offer = try TmuxSession(
            "env NO_COLOR=1 CRAVEY_TRANSCRIBE=later \(shellQuote(cravey)) craving 7 --speaker nosuch --library \(shellQuote(root)); echo EXIT=$?; sleep 30",
            width: 80, height: 30)
        try offer.waitFor("Play one of your messages?")
        try offer.send("1", literal: true)
        let read = try offer.waitFor("Press any key when you're ready.")
        XCTAssertFalse(read.contains("\u{FFFD}"), "the words read as sentences: \(read)")
        try offer.send("x", literal: true)
        let after = try offer.waitFor("EXIT=0")
        XCTAssertTrue(after.contains("'Six sentences' was not played"), after)
        offer.close()

        // doctor checks the speaker it names.
        let doctor = try run(["doctor", "--mic", "null", "--speaker", "nosuch"]).stdout
        XCTAssertTrue(doctor.contains("✗ speaker 'nosuch'"), doctor)
        XCTAssertTrue(
            try run(["doctor", "--mic", "null", "--speaker", "null"]).stdout.contains("✓ speaker 'null': opens"))
    }

    func testAVideoStillShowsWithoutItsSound() throws {
        let clip = base + "/clip.mp4"
        try makeTestVideo(clip, picture: "color=c=green", seconds: 2)
        XCTAssertEqual(try run(["import", clip, "--title", "Clip"]).status, 0)
        let result = try runInTerminal(
            "\(shellQuote(cravey)) play Clip --speaker nosuch --library \(shellQuote(root))",
            environment: ["CRAVEY_TRANSCRIBE": "later"])
        XCTAssertEqual(result.status, 0, String(result.screen.suffix(500)))
        XCTAssertTrue(result.screen.contains("'Clip' has no transcript yet"), String(result.screen.prefix(800)))
        XCTAssertGreaterThan(
            result.screen.components(separatedBy: "\u{1B}[38;2;").count, 100, "its pictures are drawn")
        XCTAssertEqual(try sql("SELECT playCount FROM recording"), "1", "seen: counted")
    }
}
