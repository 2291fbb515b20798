import CraveyTestSupport
import Foundation
import XCTest

/// `cravey import` of files a hostile or careless user could hand it: odd frame sizes (checked for
/// invalid memory accesses under valgrind), URLs, FIFOs, a crafted WAV that makes FFmpeg's demuxer
/// crawl, a zip named .mp4, slow and Motion-JPEG videos. Each either imports correctly or is
/// refused with one line, leaving the library as it was.
final class HostileImportTests: CommandTestCase {

    override func setUpWithError() throws {
        try super.setUpWithError()
    }

    func ffmpeg(_ arguments: [String]) throws {
        let made = try runProcess("/usr/bin/ffmpeg", ["-v", "error", "-y"] + arguments)
        XCTAssertEqual(made.status, 0, made.stderr)
    }

    func listed() throws -> [[String: Any]] {
        let out = try runProcess(cravey, ["list", "--json", "--library", root])
        XCTAssertEqual(out.status, 0, out.stderr)
        return try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]] ?? []
    }

    func assertRefused(
        _ path: String, containing text: String, timeout: TimeInterval = 60,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let before = try listed().count
        let started = Date()
        let result = try runProcess(
            "/usr/bin/timeout", [String(Int(timeout)), cravey, "import", path, "--library", root])
        XCTAssertEqual(result.status, 1, "\(path): \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.contains(text), result.stderr, file: file, line: line)
        XCTAssertLessThan(Date().timeIntervalSince(started), timeout - 1, "bounded work", file: file, line: line)
        XCTAssertEqual(try listed().count, before, file: file, line: line)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: root + "/.incoming"), [], file: file, line: line)
    }

    /// Frames of odd sides need w·h + 2·⌈w/2⌉·⌈h/2⌉ bytes, not w·h·3/2: the import of odd-sized
    /// videos (decoder, scaler, writer and thumbnailer) runs under valgrind, which fails on any invalid
    /// read or write (a stripped copy of the binary: Debian's valgrind cannot read Swift's DWARF),
    /// but for the Swift runtime's own reads of type metadata it is filling in (`swift-runtime.supp`).
    func testOddSizedVideosUnderValgrind() throws {
        let valgrind = "/usr/bin/valgrind"
        XCTAssertTrue(
            FileManager.default.isExecutableFile(atPath: valgrind), "valgrind is installed by Tests/install-deps.sh")
        let stripped = base + "/cravey-stripped"
        // The debug build, whatever the other tests run: in the release build the Swift runtime and
        // Foundation are linked in and optimized, and their reads of memory they are about to fill
        // (GRDB's statement loop, at 853x481) are not the ones the suppressions name.
        try FileManager.default.copyItem(atPath: builtProductPath("cravey"), toPath: stripped)
        XCTAssertEqual(try runProcess("/usr/bin/strip", [stripped]).status, 0)
        for (size, codec) in [("853x481", "ffv1"), ("33x17", "ffv1"), ("7x5", "rawvideo")] {
            let path = base + "/odd-\(size).mkv"
            try ffmpeg([
                "-f", "lavfi", "-i", "testsrc=size=\(size):rate=5", "-t", "1", "-c:v", codec, "-pix_fmt", "yuv420p",
                path,
            ])
            let result = try runProcess(
                valgrind,
                [
                    "-q", "--error-exitcode=99", "--suppressions=" + repositoryRoot + "/Tests/tools/swift-runtime.supp",
                    stripped, "import", path, "--json", "--library", root,
                ])
            XCTAssertEqual(result.status, 0, "\(size): \(result.stderr)")
            let row = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            XCTAssertEqual(row["kind"] as? String, "video")
            XCTAssertEqual(row["duration"] as? Double ?? 0, 1.0, accuracy: 0.05, size)
            let probe = try ffprobe(root + "/" + (row["filePath"] as? String ?? ""))
            XCTAssertEqual(probe.codecs, ["h264"], size)
            XCTAssertNotNil(row["thumbnailPath"] as? String, size)
        }
        // The size that crashed outright: 4095×4095 (scaled down to 720p), without valgrind for time.
        let huge = base + "/huge.mkv"
        try ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=4095x4095:rate=5", "-t", "1", "-c:v", "ffv1", "-pix_fmt", "yuv420p",
            huge,
        ])
        let result = try runProcess(cravey, ["import", huge, "--json", "--library", root])
        XCTAssertEqual(result.status, 0, result.stderr)
        let row = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(row?["width"] as? Int, 720)
        XCTAssertEqual(row?["height"] as? Int, 720)
    }

    /// cravey has no network code: a URL is a file name that does not exist, whatever listens there.
    func testURLsAreNeverFetched() throws {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        let served = base + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        try ffmpeg(["-f", "lavfi", "-i", "sine=d=1", served + "/tone.wav"])
        let port = 20000 + Int(getpid() % 20000)
        server.arguments = ["-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", served]
        let log = base + "/server.log"
        FileManager.default.createFile(atPath: log, contents: nil)
        server.standardError = FileHandle(forWritingAtPath: log)
        server.standardOutput = FileHandle(forWritingAtPath: log)
        try server.run()
        defer { server.terminate(); server.waitUntilExit() }
        Thread.sleep(forTimeInterval: 1)
        for url in ["http://127.0.0.1:\(port)/tone.wav", "file:\(served)/tone.wav.missing", "tcp://127.0.0.1:\(port)"] {
            try assertRefused(url, containing: "no such file")
        }
        let requests = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        XCTAssertFalse(requests.contains("GET"), "cravey made a request: \(requests)")
    }

    func testPipesZipsAndCraftedHeadersAreRefusedQuickly() throws {
        _ = try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        _ = try runProcess(cravey, ["list", "--library", root])
        let fifo = base + "/pipe.m4a"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        try assertRefused(fifo, containing: "not a regular file", timeout: 10)
        try assertRefused(base, containing: "not a regular file", timeout: 10)
        // A zip archive named .mp4.
        let zip = base + "/holiday.mp4"
        try Data([0x50, 0x4B, 0x03, 0x04] + [UInt8](repeating: 7, count: 4096)).write(to: URL(fileURLWithPath: zip))
        try assertRefused(zip, containing: "not an audio or video file", timeout: 20)
        // A WAV whose data chunk is 10 GB away, behind zeros the demuxer reads as empty chunks.
        let crafted = base + "/crafted.wav"
        var header = Data("RIFF".utf8) + Data([0xFF, 0xFF, 0xFF, 0xFF]) + Data("WAVEfmt ".utf8)
        header += Data([16, 0, 0, 0, 1, 0, 1, 0, 0x40, 0x1F, 0, 0, 0x40, 0x1F, 0, 0, 1, 0, 8, 0])
        FileManager.default.createFile(atPath: crafted, contents: header)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: crafted))
        try handle.truncate(atOffset: 10 << 30)
        try handle.close()
        try assertRefused(crafted, containing: "take too long", timeout: 40)
    }

    func testSlowAndMotionJPEGVideosImportAsVideo() throws {
        let slow = base + "/slideshow.mp4"
        try ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=320x240:rate=2", "-t", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p",
            slow,
        ])
        let avi = base + "/camera.avi"
        try ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10", "-f", "lavfi", "-i", "sine=d=3", "-t", "3",
            "-c:v", "mjpeg", "-c:a", "pcm_s16le", avi,
        ])
        for (path, seconds, frames) in [(slow, 1.0, 2), (avi, 3.0, 30)] {
            let result = try runProcess(cravey, ["import", path, "--json", "--library", root])
            XCTAssertEqual(result.status, 0, result.stderr)
            let row = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            XCTAssertEqual(row["kind"] as? String, "video", path)
            XCTAssertEqual(row["duration"] as? Double ?? 0, seconds, accuracy: 0.05, path)
            let probe = try ffprobe(root + "/" + (row["filePath"] as? String ?? ""))
            let video = probe.streams.first { $0["codec_type"] as? String == "video" }
            XCTAssertEqual(video?["codec_name"] as? String, "h264", path)
            XCTAssertEqual(Int(video?["nb_frames"] as? String ?? ""), frames, path)
            XCTAssertNotNil(row["thumbnailPath"] as? String, path)
        }
    }
}
