import CraveyTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// A message counts as played (in its play count and in a craving's played list) only when the
/// speaker accepted a second of its sound (ALSA's `file` plugin), or when its words were shown
/// instead; a speaker that does not exist with no words to show credits nothing. A PocketSphinx
/// draft is never shown as the person's words (only in `cravey show`); a Whisper draft is, labelled.
final class CreditOnlyWhatWasHeardTests: TranscriptTestCase {
    override var timing: String { "later" }

    let noSpeaker = "cravey_no_such_speaker"

    func play(_ arguments: [String], heardInto file: String = "/dev/null") throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try run(arguments, ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_OUTFILE": file])
    }

    func playCount() throws -> String { try sql("SELECT playCount FROM recording") }
    /// Each craving's played list, oldest first ("-": none).
    func played() throws -> [String] {
        try sql("SELECT ifnull(nullif(played, ''), '-') FROM craving ORDER BY at").components(separatedBy: "\n")
    }
    /// The words of `text` on one line, however the terminal wrapped them.
    func flat(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
    /// Stores a finished transcript of `id` made by `engine`, a word a second.
    func transcribe(_ id: String, engine: String, text: String) throws {
        let words = text.split(separator: " ").enumerated().map { "[\"\($0.element)\",\($0.offset),\($0.offset + 1)]" }
        _ = try sql(
            "DELETE FROM transcript; INSERT INTO transcript (recordingId, state, text, words, engine, model, madeAt) "
                + "VALUES ('\(id)', 'done', '\(text)', '[\(words.joined(separator: ","))]', '\(engine)', 'test', "
                + "'2026-11-20T10:00:00.000Z')")
    }

    func testAPlayCountsOnlyWhatWasHeardOrRead() throws {
        let id = try importSpeech()

        // Through ALSA's file plugin: the speaker accepted the whole message, so it counts.
        let heard = base + "/heard.raw"
        XCTAssertEqual(try play(["play", id, "--speaker", "cravey_capture"], heardInto: heard).status, 0)
        let bytes = (try FileManager.default.attributesOfItem(atPath: heard)[.size] as? Int) ?? 0
        XCTAssertGreaterThanOrEqual(bytes, 48000 * 2, "at least a second reached the speaker")
        XCTAssertEqual(try playCount(), "1")

        // No speaker and no transcript: nothing heard, nothing read, nothing counted; what helps
        // without a speaker is offered instead.
        let lost = try play(["play", id, "--speaker", noSpeaker])
        XCTAssertEqual(lost.status, 1)
        XCTAssertTrue(lost.stdout.contains("has no transcript yet"), lost.stdout)
        XCTAssertTrue(flat(lost.stdout).contains("breathe with the ride's guide"), lost.stdout)
        XCTAssertEqual(try playCount(), "1", "not heard: not counted")
        XCTAssertEqual(try play(["craving", "6", "--at", "-3h", "--play", "1", "--speaker", noSpeaker]).status, 1)
        XCTAssertEqual(try played(), ["-"], "the craving keeps no play that did not happen")

        // A PocketSphinx draft is someone else's sentence: not shown as the words, not counted.
        let guess = "you got it the cause read on when you get"
        try transcribe(id, engine: "PocketSphinx 5prealpha", text: guess)
        let rough = try play(["play", id, "--speaker", noSpeaker])
        XCTAssertEqual(rough.status, 1)
        XCTAssertFalse(rough.stdout.contains(guess), rough.stdout)
        XCTAssertTrue(flat(rough.stdout).contains("only a rough automatic draft"), rough.stdout)
        XCTAssertEqual(try playCount(), "1")
        let shown = try run(["show", id]).stdout
        XCTAssertTrue(shown.contains("Transcript (automatic draft)") && shown.contains(guess), shown)

        // A Whisper draft is shown, labelled; read, it counts, in the craving too.
        try transcribe(id, engine: "faster-whisper", text: "You got this. Call Sam.")
        let read = try play(["play", id, "--speaker", noSpeaker])
        XCTAssertEqual(read.status, 1, "a script still hears the sound did not play")
        XCTAssertTrue(
            flat(read.stdout).contains("here are the words of 'Six sentences' (an automatic draft):"), read.stdout)
        XCTAssertTrue(read.stdout.contains("  You got this. Call Sam."), read.stdout)
        XCTAssertTrue(flat(read.stderr).contains("was not played aloud"), read.stderr)
        XCTAssertEqual(try playCount(), "2", "read: counted")
        XCTAssertEqual(try play(["craving", "7", "--at", "-4h", "--play", "1", "--speaker", noSpeaker]).status, 0)
        XCTAssertEqual(try played(), [id, "-"])
    }

    /// A speaker that stops taking samples before a second of the message (the `file` plugin
    /// writing into a FIFO that is never read) and a play stopped meanwhile: not counted.
    func testAPlayStoppedBeforeASecondReachedTheSpeakerIsNotCounted() throws {
        let id = try importSpeech()
        let fifo = base + "/speaker.fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)  // holds it open, reads nothing
        XCTAssertGreaterThanOrEqual(reader, 0)
        defer { close(reader) }
        let stopped = try runProcess(
            "/usr/bin/timeout",
            ["-s", "TERM", "2", cravey, "play", id, "--speaker", "cravey_capture", "--library", root],
            environment: [
                "ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_OUTFILE": fifo, "CRAVEY_TRANSCRIBE": "later",
                "CRAVEY_TIMINGS": "1",
            ])
        XCTAssertTrue(stopped.stdout.contains("Stopped 'Six sentences'"), stopped.stdout + stopped.stderr)
        let heard = try XCTUnwrap(
            stopped.stderr.split(separator: " ").first { $0.hasPrefix("heard_s=") }.flatMap {
                Double($0.dropFirst(8).trimmingCharacters(in: .whitespacesAndNewlines))
            }, stopped.stderr)
        XCTAssertLessThan(heard, 1, "the FIFO holds less than a second")
        XCTAssertEqual(try playCount(), "0", "less than a second heard: not counted")
    }

    /// A ride whose speaker fails and whose message has no words credits nothing, so "Your
    /// messages that help" does not count it once its window has closed.
    func testARideWithNoSpeakerAndNoWordsCreditsNothing() throws {
        let id = try importSpeech()
        XCTAssertEqual(
            try play(["craving", "6", "--at", "-5h", "--play", "1", "--speaker", "cravey_capture"]).status, 0)
        let now = Date().addingTimeInterval(-3 * 3600)
        let format = DateFormatter()
        format.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        let tmux = try TmuxSession(
            "env NO_COLOR=1 CRAVEY_TRANSCRIBE=later CRAVEY_RIDE_MINUTE_SECONDS=2 CRAVEY_NOW=\(format.string(from: now)) "
                + "\(shellQuote(cravey)) ride 5 --minutes 2 --speaker \(noSpeaker) --library \(shellQuote(root)); echo EXIT=$?; sleep 30",
            width: 100, height: 40)
        let screen = try tmux.waitFor("The sound can't play right now")
        XCTAssertTrue(flat(screen).contains("'Six sentences' has no transcript yet"), screen)
        XCTAssertTrue(try tmux.waitFor("EXIT=", timeout: 20).contains("EXIT=0"))
        tmux.close()
        XCTAssertEqual(try played(), [id, "-"], "the ride credits no play")
        XCTAssertEqual(try playCount(), "1")
        let messages = try XCTUnwrap((try json(["progress"]) as? [String: Any])?["messages"] as? [[String: Any]])
        XCTAssertTrue(messages.isEmpty, "played in one craving only: \(messages)")
    }
}
