import CraveyMedia
import CraveyTestSupport
import Foundation
import XCTest

/// PocketSphinx, the fallback recognizer, on speech whose words and places are known (flite,
/// Media/speech-corpus.txt).
final class SpeechRecognizerTests: XCTestCase {
    private var directory: String!

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "speech-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    func testTranscribesSpokenSentencesWithinTheErrorBoundAndTimesTheirWords() throws {
        let path = directory + "/speech.wav"
        let sentences = try makeSpeech(path, sentences: 8)
        let recognizer = try PocketSphinxRecognizer()
        var fractions: [Double] = []
        let speech = try XCTUnwrap(
            recognizer.recognize(path: path) {
                fractions.append($0); return true
            })

        let reference = sentences.map(\.text).joined(separator: " ")
        let wer = wordErrorRate(reference: reference, hypothesis: speech.words.map(\.word).joined(separator: " "))
        print("speech: WER \(wer) on \(reference.split(separator: " ").count) words: \(speech.text)")
        XCTAssertLessThan(wer, 0.35, speech.text)
        XCTAssertEqual(fractions.last, 1)
        XCTAssertEqual(fractions, fractions.sorted(), "progress only goes forward")

        // Each sentence is one line: its pauses split the sound there.
        XCTAssertEqual(speech.lines.count, sentences.count, speech.text)
        // Word times: each line's first word starts, and last word ends, where the sentence does.
        for (line, sentence) in zip(speech.lines, sentences) {
            XCTAssertEqual(line.words.first!.start, sentence.start, accuracy: 0.5, "\(sentence.text): \(line)")
            XCTAssertEqual(line.words.last!.end, sentence.end, accuracy: 0.5, "\(sentence.text): \(line)")
            XCTAssertEqual(line.words.map(\.start), line.words.map(\.start).sorted())
        }
    }

    func testLongSpeechIsNotCutShort() throws {
        // 60 s of speech: fed as one utterance, the recognizer would keep only its first words.
        let path = directory + "/long.wav"
        try makeSpeech(path, seconds: 60, gap: 0.4)
        let speech = try XCTUnwrap(try PocketSphinxRecognizer().recognize(path: path))
        XCTAssertGreaterThan(speech.words.count, 100, speech.text)
        XCTAssertGreaterThan(speech.words.last!.end, 55)
    }

    func testStoppingPartWayGivesNothing() throws {
        let path = directory + "/speech.wav"
        _ = try makeSpeech(path, sentences: 4)
        var calls = 0
        XCTAssertNil(
            try PocketSphinxRecognizer().recognize(path: path) { _ in
                calls += 1; return calls < 3
            })
        XCTAssertEqual(calls, 3)
    }

    func testSilenceHasNoWords() throws {
        let path = directory + "/silence.wav"
        XCTAssertEqual(
            try runProcess("/usr/bin/sox", ["-n", "-r", "48000", "-c", "1", "-b", "16", path, "trim", "0", "3"]).status,
            0)
        XCTAssertEqual(try PocketSphinxRecognizer().recognize(path: path)?.words, [])
    }

    func testAMissingModelIsAClearError() throws {
        XCTAssertThrowsError(try PocketSphinxRecognizer(modelDirectory: directory + "/no-model")) { error in
            XCTAssertEqual((error as? MediaError)?.kind, .missing)
            XCTAssertTrue("\(error)".contains("speech model"), "\(error)")
        }
    }
}
