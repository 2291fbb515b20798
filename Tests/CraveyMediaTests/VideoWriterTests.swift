import CraveyMedia
import CraveyTestSupport
import XCTest

/// H.264 + AAC through the real FFmpeg libraries (libx264), and the thumbnailer, checked with the
/// ffmpeg CLI. Frame i is a flat picture of luma 16 + i, so a frame can be recognised by brightness.
final class VideoWriterTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.path + "/cravey-video-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    func frame(_ index: Int, width: Int, height: Int) -> [UInt8] {
        [UInt8](repeating: UInt8(min(235, 16 + index)), count: width * height)
            + [UInt8](repeating: 128, count: width * height / 2)
    }

    /// Writes `frames` frames at 30 fps (skipping those `drop` says) with a tone, and finalizes.
    func writeVideo(
        _ name: String, frames: Int, width: Int = 640, height: Int = 360, drop: (Int) -> Bool = { _ in false },
        audio: Bool = true
    ) throws -> String {
        let part = dir + "/\(name).mov.part"
        let size = VideoSize.fitting(width: width, height: height)
        let writer = try MediaWriter(
            videoPath: part, inputWidth: width, inputHeight: height, size: size, fps: 30,
            sampleRate: audio ? 48_000 : nil)
        for i in 0..<frames {
            if !drop(i) { try writer.writeVideo(frame(i, width: width, height: height), at: Int64(i) * 1_000_000 / 30) }
            if audio {
                try writer.write((0..<1600).map { n in 0.5 * sin(2 * .pi * 440 * Float(i * 1600 + n) / 48_000) })
            }
        }
        try writer.finish()
        let final = dir + "/\(name).mov"
        _ = try remuxChecked(part, to: final)
        return final
    }

    func stream(_ path: String, _ type: String) throws -> [String: Any] {
        try XCTUnwrap(try ffprobe(path).streams.first { $0["codec_type"] as? String == type })
    }

    /// The average luma of the first frame of an image or video (or of the one at `seek`, or of
    /// frame number `frame`), scaled to `size`.
    func grayAverage(_ path: String, seek: Double? = nil, frame: Int? = nil, size: String? = nil) throws -> Double {
        let out = dir + "/gray-\(UUID().uuidString).raw"
        var args = ["-v", "error", "-y"] + (seek.map { ["-ss", String($0)] } ?? []) + ["-i", path, "-frames:v", "1"]
        let filters = (frame.map { ["select=eq(n\\,\($0))"] } ?? []) + (size.map { ["scale=\($0)"] } ?? [])
        if !filters.isEmpty { args += ["-vf", filters.joined(separator: ",")] }
        let result = try runProcess("/usr/bin/ffmpeg", args + ["-f", "rawvideo", "-pix_fmt", "gray", out])
        XCTAssertEqual(result.status, 0, result.stderr)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: out))
        return Double(bytes.reduce(0) { $0 + Int($1) }) / Double(max(1, bytes.count))
    }

    func testFiveSecondsOfVideoWithSound() throws {
        let path = try writeVideo("five", frames: 150)
        let probe = try ffprobe(path)
        XCTAssertEqual(Set(probe.codecs), ["h264", "aac"])
        XCTAssertEqual(probe.duration, 5.0, accuracy: 0.1)
        let video = try stream(path, "video")
        XCTAssertEqual(video["width"] as? Int, 640)
        XCTAssertEqual(video["height"] as? Int, 360)
        XCTAssertEqual(video["nb_frames"] as? String, "150")
        let info = try MediaFile.probe(path)
        XCTAssertEqual(info.videoCodec, "h264")
        XCTAssertEqual(info.fps ?? 0, 30, accuracy: 0.5)
        XCTAssertEqual(rmsDecibels(try decodeAudio(path)), -9.03, accuracy: 1.0)
    }

    func testDroppedFramesKeepHonestTimestamps() throws {
        let path = try writeVideo("dropped", frames: 150, drop: { $0 % 5 == 2 })
        XCTAssertEqual(try stream(path, "video")["nb_frames"] as? String, "120")
        XCTAssertEqual(try ffprobe(path).duration, 5.0, accuracy: 0.1, "duration from timestamps, not frame count")
        // Every kept frame is at the time it was captured; the gaps are where frames were dropped;
        // and the sound starts with the first frame (the encoder's priming is not a shift).
        XCTAssertEqual(Double(try stream(path, "audio")["start_time"] as? String ?? "") ?? -1, 0, accuracy: 0.0001)
        XCTAssertEqual(Double(try stream(path, "video")["start_time"] as? String ?? "") ?? -1, 0, accuracy: 0.0001)
        let listed = try runProcess(
            "/usr/bin/ffprobe",
            [
                "-v", "error", "-select_streams", "v", "-show_entries", "packet=pts_time",
                "-of", "csv=p=0", path,
            ]
        ).stdout
        let times = listed.split(separator: "\n").compactMap { Double($0) }.sorted()
        let expected = (0..<150).filter { $0 % 5 != 2 }.map { Double($0) / 30 }
        XCTAssertEqual(times.count, expected.count)
        for (time, want) in zip(times, expected) { XCTAssertEqual(time, want, accuracy: 0.001) }
    }

    func testLargerInputIsScaledDownTo720p() throws {
        XCTAssertEqual(VideoSize.fitting(width: 1920, height: 1080), VideoSize(width: 1280, height: 720))
        XCTAssertEqual(VideoSize.fitting(width: 3840, height: 2160), VideoSize(width: 1280, height: 720))
        XCTAssertEqual(VideoSize.fitting(width: 640, height: 480), VideoSize(width: 640, height: 480))
        XCTAssertEqual(VideoSize.fitting(width: 1080, height: 1920), VideoSize(width: 404, height: 720))
        let path = try writeVideo("big", frames: 10, width: 1920, height: 1080, audio: false)
        let video = try stream(path, "video")
        XCTAssertEqual(video["width"] as? Int, 1280)
        XCTAssertEqual(video["height"] as? Int, 720)
        XCTAssertEqual(try ffprobe(path).codecs, ["h264"], "a silent video has no audio stream")
    }

    func testThumbnailIsTheFrameAtOneSecond() throws {
        let path = try writeVideo("thumb", frames: 90)
        let jpeg = dir + "/thumb.jpg"
        try Thumbnailer.make(from: path, to: jpeg)
        let image = try stream(jpeg, "video")
        XCTAssertEqual(image["codec_name"] as? String, "mjpeg")
        XCTAssertEqual(image["width"] as? Int, 320)
        XCTAssertEqual(image["height"] as? Int, 180)
        let reference = try grayAverage(path, seek: 1.0, size: "320:180")
        XCTAssertEqual(try grayAverage(jpeg), reference, accuracy: 2, "the frame at 1.0 s (frame 30)")
        XCTAssertNotEqual(try grayAverage(jpeg), try grayAverage(path, seek: 0, size: "320:180"), accuracy: 10)
    }

    /// A finished take's sound and thumbnail come from one reading of the file: the picture caught
    /// while the sound is decoded is the thumbnailer's own, byte for byte (the frame at 1.0 s, or
    /// the last of a shorter video), and the sound's facts are those of a pass without it.
    func testThumbnailCaughtWhileTheSoundIsReadIsTheThumbnailersOwn() throws {
        for (name, frames) in [("long", 90), ("brief", 15)] {
            let path = try writeVideo(name, frames: frames)
            let alone = dir + "/\(name)-alone.jpg", caught = dir + "/\(name)-caught.jpg"
            try Thumbnailer.make(from: path, to: alone)
            let sound = try SoundAnalysis(file: path, thumbnail: caught)
            XCTAssertTrue(sound.thumbnailWritten, name)
            XCTAssertEqual(
                try Data(contentsOf: URL(fileURLWithPath: caught)), try Data(contentsOf: URL(fileURLWithPath: alone)),
                name)
            let plain = try SoundAnalysis(file: path)
            XCTAssertEqual(sound.waveform, plain.waveform, name)
            XCTAssertEqual(sound.loudness, plain.loudness, name)
            XCTAssertEqual(sound.windowLevels, plain.windowLevels, name)
        }
        let audio = try writeVideo("silent", frames: 40, audio: false)
        XCTAssertThrowsError(
            try SoundAnalysis(file: audio, thumbnail: dir + "/none.jpg"), "a silent video has no sound to read")
    }

    func testShortClipThumbnailIsTheLastFrame() throws {
        let path = try writeVideo("short", frames: 15, audio: false)
        let jpeg = dir + "/short.jpg"
        try Thumbnailer.make(from: path, to: jpeg)
        let last = try grayAverage(path, frame: 14, size: "320:180")
        XCTAssertGreaterThan(last, 10)
        XCTAssertEqual(try grayAverage(jpeg), last, accuracy: 2)
    }

    func testThumbnailOfAudioIsAnError() throws {
        let part = dir + "/a.m4a.part"
        let writer = try MediaWriter(audioPath: part, sampleRate: 48_000)
        try writer.write([Float](repeating: 0.1, count: 48_000))
        try writer.finish()
        XCTAssertThrowsError(try Thumbnailer.make(from: part, to: dir + "/none.jpg")) { error in
            XCTAssertTrue("\(error)".hasPrefix("make a thumbnail of "), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/none.jpg"))
    }
}
