import CraveyMedia
import CraveyTestSupport
import XCTest

/// The writer, remux and probe through the real FFmpeg libraries, checked with the ffmpeg CLI.
final class MediaFileTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.path + "/cravey-media-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if ProcessInfo.processInfo.environment["CRAVEY_KEEP_TEST_FILES"] == nil {
            try? FileManager.default.removeItem(atPath: dir)
        }
    }

    func tone(seconds: Double, amplitude: Float = 0.5) -> [Float] {
        (0..<Int(seconds * 48_000)).map { amplitude * sin(2 * .pi * 440 * Float($0) / 48_000) }
    }

    /// Writes samples fragmented, remuxes, and returns the final path.
    func encode(_ samples: [Float], name: String) throws -> String {
        let part = dir + "/\(name).m4a.part"
        let writer = try MediaWriter(audioPath: part, sampleRate: 48_000)
        for chunk in stride(from: 0, to: samples.count, by: 960) {
            try writer.write(samples[chunk..<min(samples.count, chunk + 960)])
        }
        XCTAssertEqual(writer.samplesWritten, samples.count)
        try writer.finish()
        let final = dir + "/\(name).m4a"
        XCTAssertGreaterThan(try remuxChecked(part, to: final), 0)
        return final
    }

    func testDurationIsExactToTheSample() throws {
        for seconds in [3.0, 3.01, 0.5, 120.0] {
            let path = try encode(tone(seconds: seconds), name: "t\(seconds)")
            let info = try MediaFile.probe(path)
            XCTAssertEqual(info.duration, seconds, accuracy: 1.0 / 48_000, "probe of \(seconds) s")
            XCTAssertEqual(info.audioCodec, "aac")
            XCTAssertEqual(info.sampleRate, 48_000)
            XCTAssertEqual(info.channels, 1)
            let probe = try ffprobe(path)
            XCTAssertEqual(probe.codecs, ["aac"])
            XCTAssertEqual(probe.duration, seconds, accuracy: 0.001, "ffprobe of \(seconds) s")
        }
        // Between two milliseconds the file's length is the millisecond before (its edit list):
        // the facts the remux tells say the same (`encode` compares them with a probe).
        XCTAssertEqual(
            try MediaFile.probe(try encode(tone(seconds: 3.0105), name: "between")).duration, 3.010, accuracy: 1e-9)
    }

    func testDecodedAudioMatchesTheSource() throws {
        let source = try readS16(phraseFixture)
        let path = try encode(source, name: "phrase")
        let decoded = try decodeAudio(path)
        XCTAssertEqual(Double(decoded.count), Double(source.count), accuracy: 1024)
        XCTAssertEqual(rmsDecibels(decoded), rmsDecibels(source), accuracy: 1.0)
    }

    func testTruncatedFragmentedFileIsRecoveredUpToItsLastFragment() throws {
        let part = dir + "/crash.m4a.part"
        let writer = try MediaWriter(audioPath: part, sampleRate: 48_000)
        try writer.write(tone(seconds: 10))
        try writer.flush()
        // A crash: no trailer, and the last bytes cut off mid-fragment.
        let size = try FileManager.default.attributesOfItem(atPath: part)[.size] as! Int
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: part))
        try handle.truncate(atOffset: UInt64(size - 3000))
        try handle.close()
        let recovered = dir + "/crash.m4a"
        _ = try remuxChecked(part, to: recovered)
        let info = try MediaFile.probe(recovered)
        XCTAssertGreaterThan(info.duration, 7.5, "at most about a second (and the unflushed tail) lost")
        XCTAssertLessThanOrEqual(info.duration, 10)
        XCTAssertEqual(try ffprobe(recovered).codecs, ["aac"])
    }

    func testNothingPlayableIsInvalidData() throws {
        let text = dir + "/notes.txt"
        try Data("just some words, not media".utf8).write(to: URL(fileURLWithPath: text))
        XCTAssertThrowsError(try MediaFile.probe(text)) { error in
            XCTAssertTrue((error as? MediaError)?.kind == .invalidData, "\(error)")
        }
        let empty = dir + "/empty.m4a.part"
        _ = try MediaWriter(audioPath: empty, sampleRate: 48_000)  // header only, then "crash"
        XCTAssertThrowsError(try MediaFile.remux(empty, to: dir + "/empty.m4a"))
        XCTAssertThrowsError(try MediaFile.probe(dir + "/missing.m4a")) { error in
            XCTAssertTrue("\(error)".contains("No such file"), "\(error)")
        }
    }
}
