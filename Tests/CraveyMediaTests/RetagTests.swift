import CraveyMedia
import CraveyTestSupport
import XCTest

/// A finished file copied with new tags: the media comes out unchanged (the same decoded samples
/// and pictures, the same length, the edit list that skips the AAC priming kept), the tags read
/// back by cravey and by an MP4 reader that is not FFmpeg (MediaInfo).
final class RetagTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.path + "/cravey-retag-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if ProcessInfo.processInfo.environment["CRAVEY_KEEP_TEST_FILES"] == nil {
            try? FileManager.default.removeItem(atPath: dir)
        }
    }

    /// The MD5 of every decoded audio sample (or video picture) of `path`, by the ffmpeg CLI.
    func decodedMD5(_ path: String, _ stream: String) throws -> String {
        let result = try runProcess(
            "/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-map", "0:\(stream)", "-f", "md5", "-"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testTagsAreWrittenAndTheMediaIsUnchanged() throws {
        let part = dir + "/a.mov.part"
        let writer = try MediaWriter(
            videoPath: part, inputWidth: 160, inputHeight: 120,
            size: VideoSize.fitting(width: 160, height: 120), fps: 30, sampleRate: 48_000)
        for i in 0..<60 {
            let luma = [UInt8](repeating: UInt8(16 + i * 3), count: 160 * 120)
            let chroma = [UInt8](repeating: 128, count: 160 * 60)
            try writer.writeVideo(luma + chroma, at: Int64(i) * 1_000_000 / 30)
            let samples: [Float] = (0..<1600).map { n in
                let t = Float(i * 1600 + n) / 48_000
                return 0.4 * sin(2 * Float.pi * 440 * t)
            }
            try writer.write(samples)
        }
        try writer.finish()
        let audioPart = dir + "/b.m4a.part"
        let audioWriter = try MediaWriter(audioPath: audioPart, sampleRate: 48_000)
        let tone: [Float] = (0..<(48_000 * 3 + 77)).map { n in 0.4 * sin(2 * Float.pi * 330 * Float(n) / 48_000) }
        try audioWriter.write(tone)
        try audioWriter.finish()

        let title = "Día 30 – ☀ \"quoted\""
        let record = "{\"transcript\":\"" + String(repeating: "wörd ", count: 4000) + "\"}"
        for (part, streams) in [(part, ["a", "v"]), (audioPart, ["a"])] {
            let final = String(part.dropLast(5))
            let info = try MediaFile.remux(part, to: final).info
            let tagged = dir + "/tagged-" + (final as NSString).lastPathComponent
            let packets = try MediaFile.retag(
                final, to: tagged, tags: [("title", title), ("comment", "notes é"), ("cravey", record)])
            XCTAssertGreaterThan(packets, 0)
            for stream in streams {
                XCTAssertEqual(
                    try decodedMD5(tagged, stream), try decodedMD5(final, stream), "\(final) stream \(stream)")
            }
            XCTAssertEqual(try MediaFile.probe(tagged).duration, try MediaFile.probe(final).duration, accuracy: 1e-9)
            XCTAssertEqual(try MediaFile.probe(final).duration, info.duration, accuracy: 1e-9)
            // The movie header's own length may round the other way (by 1 ms); the streams' do not.
            XCTAssertEqual(try ffprobe(tagged).duration, try ffprobe(final).duration, accuracy: 0.0015)
            XCTAssertEqual(try MediaFile.tag("title", of: tagged), title)
            XCTAssertEqual(try MediaFile.tag("cravey", of: tagged), record)
            XCTAssertNil(try MediaFile.tag("cravey", of: final))
            // Tagging again replaces the tags, it does not add to them.
            let again = dir + "/again-" + (final as NSString).lastPathComponent
            try MediaFile.retag(tagged, to: again, tags: [("title", "New")])
            XCTAssertEqual(try MediaFile.tag("title", of: again), "New")
            XCTAssertNil(try MediaFile.tag("cravey", of: again))
            for stream in streams { XCTAssertEqual(try decodedMD5(again, stream), try decodedMD5(final, stream)) }
            // An MP4 reader of its own (not FFmpeg) shows the title.
            let mediainfo = try runProcess("/usr/bin/mediainfo", ["--Output=General;%title%|%Title%|%Movie%", tagged])
            XCTAssertEqual(mediainfo.status, 0)
            XCTAssertTrue(mediainfo.stdout.contains(title), mediainfo.stdout)
        }
    }

    func testATruncatedFileIsRefused() throws {
        let part = dir + "/c.m4a.part"
        let writer = try MediaWriter(audioPath: part, sampleRate: 48_000)
        let samples: [Float] = (0..<(48_000 * 2)).map { n in 0.4 * sin(Float(n) / 10) }
        try writer.write(samples)
        try writer.finish()
        let final = dir + "/c.m4a"
        try MediaFile.remux(part, to: final)
        let size = try FileManager.default.attributesOfItem(atPath: final)[.size] as! Int
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: final))
        try handle.truncate(atOffset: UInt64(size / 2))
        try handle.close()
        XCTAssertThrowsError(try MediaFile.retag(final, to: dir + "/out.m4a", tags: [("title", "x")]))
    }
}
