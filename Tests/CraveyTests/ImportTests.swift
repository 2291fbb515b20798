import CraveyTestSupport
import Foundation
import XCTest

/// `cravey import`: files made with the ffmpeg CLI, re-encoded through cravey's writer.
final class ImportTests: CommandTestCase {

    override func setUpWithError() throws {
        try super.setUpWithError()
    }

    /// A 330 Hz tone at -6 dBFS of `seconds`, in the format the file name's extension asks for.
    func make(_ name: String, seconds: Double, extra: [String] = []) throws -> String {
        let path = base + "/" + name
        let result = try runProcess(
            "/usr/bin/ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=330:r=44100:d=\(seconds)",
                "-af", "volume=-6dB", "-ac", "2",
            ] + extra + [path])
        XCTAssertEqual(result.status, 0, result.stderr)
        return path
    }

    func importFile(_ path: String, _ extra: [String] = []) throws -> (
        status: Int32, row: [String: Any]?, stderr: String
    ) {
        let result = try runProcess(cravey, ["import", path, "--json", "--library", root] + extra)
        let row =
            result.status == 0
            ? try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] : nil
        return (result.status, row, result.stderr)
    }

    func assertNothingLeftBehind(file: StaticString = #filePath, line: UInt = #line) throws {
        let listed = try runProcess(cravey, ["list", "--json", "--library", root]).stdout
        XCTAssertEqual(listed, "[]\n", file: file, line: line)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: root + "/.incoming"), [], file: file, line: line)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: root + "/Recordings"), ["Thumbnails"], file: file,
            line: line)
    }

    func testAudioFormatsImport() throws {
        let sources = [
            try make("memo.m4a", seconds: 5, extra: ["-c:a", "aac"]), try make("voice.mp3", seconds: 6),
            try make("take.wav", seconds: 7),
        ]
        for (source, seconds) in zip(sources, [5.0, 6.0, 7.0]) {
            let result = try importFile(source, ["--purpose", "reflection"])
            XCTAssertEqual(result.status, 0, result.stderr)
            let row = try XCTUnwrap(result.row)
            XCTAssertEqual(row["kind"] as? String, "audio")
            XCTAssertEqual(
                row["title"] as? String, ((source as NSString).lastPathComponent as NSString).deletingPathExtension)
            XCTAssertEqual(row["duration"] as! Double, seconds, accuracy: 0.03, source)
            let file = root + "/" + (row["filePath"] as! String)
            XCTAssertEqual(try ffprobe(file).codecs, ["aac"])
            // The two channels are the same, so the mono import is as loud as one of them.
            XCTAssertEqual(
                rmsDecibels(try decodeAudio(file)), rmsDecibels(try decodeAudio(source, firstChannel: true)),
                accuracy: 1.0, source)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root + "/.incoming"), [])
    }

    /// A sound over 22 s is encoded in two stretches on two threads, each with an AAC encoder of its
    /// own. It must come out as one encoder makes it: as long as the source, as close to it
    /// as the ffmpeg CLI's own encoding at the same settings (whole and each half), no click where
    /// the stretches meet, and the loudness stored (measured on the samples while they were
    /// encoded) that of the file as encoded.
    func testALongSoundEncodedInTwoStretchesIsAsGoodAsOneEncoder() throws {
        let spoken = base + "/spoken.wav", source = base + "/speech48k.wav", reference = base + "/reference.m4a"
        try makeSpeech(spoken, seconds: 40, gap: 0.5)
        for (args, what) in [
            (["-i", spoken, "-ar", "48000", "-ac", "1", source], "48 kHz source"),
            (["-i", source, "-c:a", "aac", "-b:a", "96k", reference], "ffmpeg's encoding"),
        ] {
            let made = try runProcess("/usr/bin/ffmpeg", ["-v", "error", "-y"] + args)
            XCTAssertEqual(made.status, 0, what + ": " + made.stderr)
        }
        let result = try importFile(source, ["--title", "Forty seconds"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let row = try XCTUnwrap(result.row)
        let file = root + "/" + (row["filePath"] as! String)
        let original = try decodeAudio(source), ours = try decodeAudio(file), theirs = try decodeAudio(reference)
        XCTAssertEqual(ours.count, theirs.count, "as long as one encoder's")
        XCTAssertEqual(Double(ours.count), Double(original.count), accuracy: 5, "as long as the source (0.1 ms)")
        func snr(_ coded: [Float], _ range: Range<Int>) -> Double {
            var signal = 0.0, noise = 0.0
            for i in range {
                signal += Double(original[i]) * Double(original[i])
                noise += Double(coded[i] - original[i]) * Double(coded[i] - original[i])
            }
            return 10 * log10(signal / max(noise, 1e-12))
        }
        let seam = original.count / 2 / 1024 * 1024  // where the writer cuts two stretches
        for (range, what, tolerance) in [
            (0..<original.count, "whole", 0.5), (0..<seam, "first half", 1.0),
            (seam..<original.count, "second half", 1.0),
        ] {
            XCTAssertGreaterThan(snr(ours, range), snr(theirs, range) - tolerance, what)
        }
        func worstBlockError(_ coded: [Float], around center: Int) -> Double {
            stride(from: center - 8 * 1024, to: center + 8 * 1024, by: 1024).map { start in
                (sqrt((start..<start + 1024).reduce(0.0) { $0 + pow(Double(coded[$1] - original[$1]), 2) } / 1024))
            }.max() ?? 0
        }
        XCTAssertLessThanOrEqual(
            worstBlockError(ours, around: seam), 1.5 * worstBlockError(theirs, around: seam) + 0.002,
            "no click where the stretches meet")
        let file128 = try ebur128(file)
        XCTAssertEqual(row["loudness"] as? Double ?? 0, file128.lufs, accuracy: 0.5)
        XCTAssertEqual(row["truePeak"] as? Double ?? 0, file128.truePeak, accuracy: 0.5)
    }

    func testTooLongIsRefusedOrTrimmed() throws {
        let long = try make("long.wav", seconds: 121)
        let refused = try importFile(long)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("lasts 2:01.0") && refused.stderr.contains("--trim"), refused.stderr)
        try assertNothingLeftBehind()
        let trimmed = try importFile(long, ["--trim", "--title", "First two minutes"])
        XCTAssertEqual(trimmed.status, 0, trimmed.stderr)
        XCTAssertEqual(trimmed.row?["duration"] as? Double ?? 0, 120, accuracy: 1024.0 / 48_000)
        // A 2:00 MP3 reports a little more (encoder padding) and is still 2:00: accepted, cut at 120 s.
        let mp3 = try make("two-minutes.mp3", seconds: 120)
        let accepted = try importFile(mp3)
        XCTAssertEqual(accepted.status, 0, accepted.stderr)
        XCTAssertEqual(accepted.row?["duration"] as? Double ?? 0, 120, accuracy: 0.05)
    }

    func testNonMediaEmptyAndTruncatedFilesAreRefused() throws {
        let text = base + "/notes.txt"
        try Data("Remember why you started.\n".utf8).write(to: URL(fileURLWithPath: text))
        let empty = base + "/empty.m4a"
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        let whole = try make("whole.m4a", seconds: 10, extra: ["-c:a", "aac"])
        let data = try Data(contentsOf: URL(fileURLWithPath: whole))
        let truncated = base + "/truncated.m4a"
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: truncated))
        for path in [text, empty, truncated, base + "/missing.mp3"] {
            let result = try importFile(path)
            XCTAssertEqual(result.status, 1, path)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertTrue(result.stderr.hasPrefix("cravey: \(path)"), result.stderr)
        }
        try assertNothingLeftBehind()
    }

    /// A moving test picture with a 330 Hz tone at -6 dBFS, made with the ffmpeg CLI.
    func makeVideo(_ name: String, size: String, seconds: Double, codecs: [String]) throws -> String {
        let path = base + "/" + name
        let made = try runProcess(
            "/usr/bin/ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=25:d=\(seconds)",
                "-f", "lavfi", "-i", "sine=f=330:d=\(seconds)", "-af", "volume=-6dB",
            ]
                + codecs + ["-shortest", path])
        XCTAssertEqual(made.status, 0, made.stderr)
        return path
    }

    /// The average colour (R, G, B) of the frame shown at `seconds`.
    func averageColour(_ path: String, at seconds: Double) throws -> [Double] {
        let out = base + "/frame-\(UUID().uuidString.prefix(6)).rgb"
        let result = try runProcess(
            "/usr/bin/ffmpeg",
            [
                "-v", "error", "-y", "-i", path, "-ss", String(seconds), "-frames:v", "1",
                "-vf", "scale=64:36", "-f", "rawvideo", "-pix_fmt", "rgb24", out,
            ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        return (0..<3).map { c in
            Double(stride(from: c, to: bytes.count, by: 3).reduce(0) { $0 + Int(bytes[$1]) }) / Double(bytes.count / 3)
        }
    }

    func testVideoFormatsImport() throws {
        let sources: [(String, String, Int, Int)] = [
            (
                try makeVideo("phone.mp4", size: "640x360", seconds: 4, codecs: ["-c:v", "libx264", "-c:a", "aac"]),
                "h264", 640, 360
            ),
            (
                try makeVideo("clip.webm", size: "320x240", seconds: 3, codecs: ["-c:v", "libvpx", "-c:a", "libopus"]),
                "vp8", 320, 240
            ),
            (
                try makeVideo(
                    "big.mov", size: "1920x1080", seconds: 2,
                    codecs: ["-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac"]), "h264", 1280, 720
            ),
        ]
        for (source, codec, width, height) in sources {
            XCTAssertEqual(
                try ffprobe(source).streams.first { $0["codec_type"] as? String == "video" }?["codec_name"] as? String,
                codec)
            let result = try importFile(source, ["--purpose", "milestone"])
            XCTAssertEqual(result.status, 0, result.stderr)
            let row = try XCTUnwrap(result.row)
            XCTAssertEqual(row["kind"] as? String, "video", source)
            XCTAssertEqual(row["width"] as? Int, width, source)
            XCTAssertEqual(row["height"] as? Int, height, source)
            let file = root + "/" + (row["filePath"] as! String)
            XCTAssertTrue(file.hasSuffix(".mov"))
            let probe = try ffprobe(file)
            XCTAssertEqual(Set(probe.codecs), ["h264", "aac"], source)
            XCTAssertEqual(probe.duration, try ffprobe(source).duration, accuracy: 0.1, source)
            let frames =
                Int(probe.streams.first { $0["codec_type"] as? String == "video" }?["nb_frames"] as? String ?? "") ?? 0
            XCTAssertEqual(
                Double(frames), 25 * (try ffprobe(source).duration), accuracy: 2,
                "every frame, at its own time: \(source)")
            XCTAssertEqual(
                rmsDecibels(try decodeAudio(file)), rmsDecibels(try decodeAudio(source, firstChannel: true)),
                accuracy: 1.0, source)
            // The picture is the source's picture (the test pattern moves: a wrong frame has other colours).
            let mine = try averageColour(file, at: 1.5), theirs = try averageColour(source, at: 1.5)
            for c in 0..<3 { XCTAssertEqual(mine[c], theirs[c], accuracy: 6, "\(source) colour \(c)") }
            let thumb = root + "/" + (row["thumbnailPath"] as? String ?? "none")
            XCTAssertEqual(try ffprobe(thumb).streams.first?["width"] as? Int, 320, source)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root + "/.incoming"), [])
    }

    func testLongAndTruncatedVideos() throws {
        let long = try makeVideo(
            "long.mp4", size: "160x90", seconds: 121,
            codecs: ["-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac"])
        let refused = try importFile(long)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("--trim"), refused.stderr)
        try assertNothingLeftBehind()
        let trimmed = try importFile(long, ["--trim"])
        XCTAssertEqual(trimmed.status, 0, trimmed.stderr)
        let file = root + "/" + (trimmed.row?["filePath"] as? String ?? "")
        XCTAssertEqual(try ffprobe(file).duration, 120, accuracy: 0.05)
        XCTAssertLessThanOrEqual(trimmed.row?["duration"] as? Double ?? 121, 120)
        let rows = try runProcess(cravey, ["delete", trimmed.row?["id"] as? String ?? "", "--yes", "--library", root])
        XCTAssertEqual(rows.status, 0, rows.stderr)
        let whole = try makeVideo(
            "whole.mp4", size: "320x240", seconds: 6,
            codecs: ["-c:v", "libx264", "-c:a", "aac", "-movflags", "+faststart"])
        let data = try Data(contentsOf: URL(fileURLWithPath: whole))
        let truncated = base + "/truncated.mp4"
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: truncated))
        let result = try importFile(truncated)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("damaged or cut short"), result.stderr)
        try assertNothingLeftBehind()
    }
}
