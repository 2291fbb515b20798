import CraveyMedia
import CraveyTestSupport
import Foundation
import XCTest

/// Whisper, the real engine and model (installed next to the build by Whisper/install.sh, as the
/// test command does), on speech whose words and places are known: the project's corpus spoken by
/// flite and by espeak-ng, and with short pauses; a two-minute message; a stop; broken installs.
final class WhisperRecognizerTests: XCTestCase {
    private var directory: String!

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "whisper-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    /// The installation next to the build.
    static func installation() throws -> WhisperInstallation {
        guard case let .installed(installation) = WhisperInstallation.find(named: nil) else {
            throw XCTSkip(
                "no Whisper engine next to the build: bash Whisper/install.sh .build/whisper (the test command does)")
        }
        return installation
    }

    /// The corpus with one voice: WER ≤ 0.10; every sentence's first word starts, and last word
    /// ends, within 0.3 s of where it was placed; sentences keep their capitals and full stops.
    func corpus(voice: String) throws {
        let path = directory + "/corpus-\(voice).wav"
        let sentences = try makeSpeech(path, voice: voice)
        let whisper = WhisperRecognizer(try Self.installation())
        var fractions: [Double] = []
        let speech = try XCTUnwrap(
            whisper.recognize(path: path) {
                fractions.append($0); return true
            })
        let reference = sentences.map(\.text).joined(separator: " ")
        let wer = wordErrorRate(reference: reference, hypothesis: speech.text)
        print("whisper \(voice): WER \(String(format: "%.3f", wer)) on \(spokenWords(reference).count) words")
        XCTAssertLessThanOrEqual(wer, 0.10, speech.text)
        XCTAssertEqual(whisper.engine.hasPrefix("faster-whisper "), true, whisper.engine)
        XCTAssertEqual(fractions.last, 1)
        XCTAssertEqual(fractions, fractions.sorted(), "progress only goes forward")
        XCTAssertTrue(speech.lines.allSatisfy { $0.text.first?.isUppercase == true }, speech.text)
        XCTAssertTrue(speech.text.contains("."), speech.text)
        // Each sentence's words: found by their times, first and last within 0.3 s.
        let words = speech.words
        XCTAssertEqual(words.map(\.start), words.map(\.start).sorted())
        for sentence in sentences {
            let inside = words.filter {
                ($0.start + $0.end) / 2 >= sentence.start - 0.3 && ($0.start + $0.end) / 2 <= sentence.end + 0.3
            }
            guard let first = inside.first, let last = inside.last else {
                XCTFail("no words for '\(sentence.text)'"); continue
            }
            XCTAssertEqual(first.start, sentence.start, accuracy: 0.3, "\(sentence.text): \(first)")
            XCTAssertEqual(last.end, sentence.end, accuracy: 0.3, "\(sentence.text): \(last)")
        }
        // Words carry no punctuation (they are what search and play --from-word match).
        XCTAssertTrue(
            words.allSatisfy { $0.word.allSatisfy { $0.isLetter || $0.isNumber || $0 == "'" } }, "\(words.map(\.word))")
    }

    func testTheCorpusSpokenByFlite() throws { try corpus(voice: "flite") }

    func testTheCorpusSpokenByEspeakNG() throws { try corpus(voice: "espeak-ng") }

    func testSpeechWithShortPausesIsKeptWhole() throws {
        let path = directory + "/close.wav"
        let sentences = try makeSpeech(path, voice: "flite", gap: 0.3, seconds: 72)
        let speech = try XCTUnwrap(WhisperRecognizer(try Self.installation()).recognize(path: path))
        let wer = wordErrorRate(reference: sentences.map(\.text).joined(separator: " "), hypothesis: speech.text)
        print("whisper 0.3 s pauses: WER \(String(format: "%.3f", wer)), \(speech.words.count) words")
        XCTAssertLessThanOrEqual(wer, 0.10, speech.text)
        XCTAssertEqual(speech.words.first!.start, sentences.first!.start, accuracy: 0.3)
        XCTAssertEqual(speech.words.last!.end, sentences.last!.end, accuracy: 0.3)
    }

    /// A message at the cap: all of it heard; the real-time factor and the helper's peak memory
    /// printed (measured, not asserted: the benchmark compares them).
    func testATwoMinuteMessage() throws {
        let path = directory + "/long.wav"
        let sentences = try makeSpeech(path, voice: "flite", seconds: 120)
        let whisper = WhisperRecognizer(try Self.installation())
        let started = Date()
        try whisper.start()
        let loaded = Date()
        let speech = try XCTUnwrap(whisper.recognize(path: path))
        let seconds = Date().timeIntervalSince(loaded)
        let peak =
            try String(contentsOfFile: "/proc/\(try XCTUnwrap(whisper.helperProcess))/status", encoding: .utf8)
            .split(separator: "\n").first { $0.hasPrefix("VmHWM:") }.map(String.init) ?? "?"
        let wer = wordErrorRate(reference: sentences.map(\.text).joined(separator: " "), hypothesis: speech.text)
        print(
            String(
                format: "whisper 120 s: load %.2f s, %.1f s (RTF %.3f), WER %.3f, helper %@",
                loaded.timeIntervalSince(started), seconds, seconds / 120, wer,
                peak.replacingOccurrences(of: "\t", with: " ")))
        XCTAssertLessThanOrEqual(wer, 0.10)
        XCTAssertGreaterThan(speech.words.last!.end, 115)
    }

    /// The same helper serves one recording after another.
    func testOneHelperForManyRecordingsAndSilenceHearsNothing() throws {
        let speech = directory + "/speech.wav", silence = directory + "/silence.wav"
        _ = try makeSpeech(speech, sentences: 2)
        XCTAssertEqual(
            try runProcess("/usr/bin/sox", ["-n", "-r", "48000", "-c", "1", "-b", "16", silence, "trim", "0", "3"])
                .status, 0)
        let whisper = WhisperRecognizer(try Self.installation())
        XCTAssertEqual(try whisper.recognize(path: silence)?.words, [])
        XCTAssertNil(whisper.helperProcess, "silence alone needs no engine")
        let first = try XCTUnwrap(whisper.recognize(path: speech))
        let helper = whisper.helperProcess
        let second = try XCTUnwrap(whisper.recognize(path: speech))
        XCTAssertEqual(whisper.helperProcess, helper)
        XCTAssertEqual(first, second)
        XCTAssertEqual(
            spokenWords(first.text),
            spokenWords(
                "remember why you started this journey you have done hard things before and you can do this too"))
    }

    func testAStopKillsTheHelperAtOnce() throws {
        let path = directory + "/long.wav"
        try makeSpeech(path, seconds: 60)
        let whisper = WhisperRecognizer(try Self.installation())
        try whisper.start()
        let helper = try XCTUnwrap(whisper.helperProcess)
        var asked = 0
        let started = Date()
        XCTAssertNil(
            try whisper.recognize(path: path) { _ in
                asked += 1; return asked < 5
            })
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "a stop does not wait for the engine")
        XCTAssertNil(whisper.helperProcess)
        XCTAssertEqual(kill(helper, 0), -1, "the helper is gone (and reaped)")
        // It starts again for the next one.
        XCTAssertNotNil(try whisper.recognize(path: path))
    }

    /// A copy of the installation with one part changed.
    func brokenCopy(_ change: (String) throws -> Void) throws -> WhisperInstallation {
        let real = try Self.installation()
        let copy = directory + "/whisper"
        try FileManager.default.createDirectory(atPath: copy + "/model", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: copy + "/venv", withDestinationPath: real.directory + "/venv")
        try FileManager.default.copyItem(atPath: real.helper, toPath: copy + "/cravey-whisper.py")
        for file in try FileManager.default.contentsOfDirectory(atPath: real.modelDirectory) {
            try FileManager.default.createSymbolicLink(
                atPath: copy + "/model/" + file, withDestinationPath: real.modelDirectory + "/" + file)
        }
        try change(copy)
        return WhisperInstallation(directory: copy)
    }

    func testAModelWhoseChecksumDoesNotMatchIsRefused() throws {
        let installation = try brokenCopy { copy in
            try FileManager.default.removeItem(atPath: copy + "/model/model.bin")
            // The real weights with one byte changed at the end.
            var bytes = try Data(
                contentsOf: URL(fileURLWithPath: try Self.installation().modelDirectory + "/model.bin"))
            bytes[bytes.count - 1] ^= 0x01
            try bytes.write(to: URL(fileURLWithPath: copy + "/model/model.bin"))
        }
        XCTAssertEqual(WhisperInstallation.find(named: installation.directory), .installed(installation))
        XCTAssertThrowsError(try WhisperRecognizer(installation).start()) { error in
            XCTAssertTrue("\(error)".contains("checksum does not match"), "\(error)")
        }
    }

    func testAMissingInterpreterOrModelIsABrokenInstallation() throws {
        let installation = try brokenCopy { copy in try FileManager.default.removeItem(atPath: copy + "/venv") }
        guard case let .broken(_, reason) = WhisperInstallation.find(named: installation.directory) else {
            return XCTFail("a missing interpreter is a broken installation")
        }
        XCTAssertTrue(reason.contains("Python interpreter"), reason)
        try FileManager.default.createSymbolicLink(
            atPath: installation.directory + "/venv", withDestinationPath: try Self.installation().directory + "/venv")
        try FileManager.default.removeItem(atPath: installation.modelDirectory + "/model.bin")
        guard case let .broken(_, model) = WhisperInstallation.find(named: installation.directory) else {
            return XCTFail("a missing model is a broken installation")
        }
        XCTAssertTrue(model.contains("model"), model)
        XCTAssertEqual(WhisperInstallation.find(named: "off"), .off)
        XCTAssertEqual(
            WhisperInstallation.find(named: directory + "/nothing-here"),
            .broken(
                directory: directory + "/nothing-here",
                reason: "its Python interpreter (\(directory!)/nothing-here/venv/bin/python) is missing"))
    }
}
