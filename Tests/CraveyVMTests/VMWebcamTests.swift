import CraveyMedia
import CraveyTestSupport
import Foundation
import XCTest

/// An MJPEG webcam through a real driver, in the VM rig: v4l2loopback nodes (/dev/video1 …) and ffmpeg
/// writes MJPEG into it the way a USB webcam sends it, at the sizes and chroma samplings real
/// webcams use — including the two libv4lconvert refuses (4:2:2 pictures; 4:2:0 at a height that is
/// not a multiple of 16). cravey asks for MJPEG natively and decodes it with FFmpeg. The
/// microphone is snd-aloop, fed a tone. Checked with the ffmpeg CLI.
final class VMWebcamTests: XCTestCase {
    let cravey = productPath("cravey")
    let mic = "hw:Loopback,1,0"
    /// A loopback node of its own for each test: a node takes a writer once per boot.
    var webcam = ""
    nonisolated(unsafe) static var nodesUsed = 0
    var base = ""
    var root: String { base + "/lib" }
    var processes: [Process] = []

    override func setUpWithError() throws {
        try XCTSkipUnless(
            ProcessInfo.processInfo.environment["CRAVEY_IN_VM"] == "1",
            "runs inside the VM rig (Tests/vm/rig.sh), through VMRigTests")
        Self.nodesUsed += 1
        webcam = "/dev/video\(Self.nodesUsed)"
        base = FileManager.default.temporaryDirectory.path + "/vmcam-\(UUID().uuidString.prefix(6))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        let tone = base + "/tone.raw"
        try makeTone(tone, seconds: 100)
        try start(
            "/usr/bin/aplay",
            ["-q", "-D", "hw:Loopback,0,0", "-f", "S16_LE", "-r", "48000", "-c", "1", "-t", "raw", tone])
    }

    override func tearDownWithError() throws {
        for process in processes where process.isRunning { process.terminate(); process.waitUntilExit() }
        try? FileManager.default.removeItem(atPath: base)
    }

    @discardableResult
    func start(_ executable: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        processes.append(process)
        return process
    }

    /// A clip of MJPEG pictures: the left half red, the right half blue (colours show whether the
    /// chroma was read right), `seconds` long; `corrupt` pictures are bytes no decoder reads.
    func clip(_ name: String, width: Int, height: Int, sampling: String, seconds: Double, corrupt: Bool = false) throws
        -> String
    {
        let path = base + "/" + name + ".mkv"
        let picture =
            "color=c=red:s=\(width)x\(height):r=30,drawbox=x=\(width / 2):y=0:w=\(width / 2):h=\(height):color=blue:t=fill"
        let result = try runFileTool(
            "/usr/bin/ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", picture, "-t", String(seconds),
                "-c:v", "mjpeg", "-pix_fmt", sampling, "-q:v", "4",
            ]
                + (corrupt ? ["-bsf:v", "noise=amount=1"] : []) + [path], writes: [path])
        XCTAssertEqual(result.status, 0, result.stderr)
        return path
    }

    /// Streams `clips` one after the other (the last one looping) into the loopback webcam, in real
    /// time, as ffmpeg does to a V4L2 output; returns once the webcam shows its capture side.
    func feed(_ clips: [String]) throws {
        var input = clips[0]
        if clips.count > 1 {
            let list = base + "/clips.txt"
            try clips.map { "file '\($0)'" }.joined(separator: "\n").write(
                toFile: list, atomically: true, encoding: .utf8)
            input = base + "/joined.mkv"
            let joined = try runProcess(
                "/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "concat", "-safe", "0", "-i", list, "-c", "copy", input])
            XCTAssertEqual(joined.status, 0, joined.stderr)
        }
        try start(
            "/usr/bin/ffmpeg",
            [
                "-v", "error", "-re", "-stream_loop", clips.count > 1 ? "0" : "-1", "-i", input,
                "-c:v", "copy", "-f", "v4l2", webcam,
            ])
        let deadline = Date() + 30
        while Date() < deadline {
            let formats = try runProcess("/usr/bin/v4l2-ctl", ["-d", webcam, "--list-formats"]).stdout
            if formats.contains("MJPG") { return }
            usleep(200_000)
        }
        XCTFail("the loopback webcam never showed MJPEG")
    }

    func record(_ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProcess(
            cravey, ["record", "video", "--library", root, "--camera", webcam, "--mic", mic, "--yes"] + args)
    }

    func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }

    /// Presentation times of the video packets, in order.
    func videoTimes(_ file: String) throws -> [Double] {
        let listed = try runFileTool(
            "/usr/bin/ffprobe",
            [
                "-v", "error", "-select_streams", "v", "-show_entries", "packet=pts_time",
                "-of", "csv=p=0", file,
            ]
        ).stdout
        return listed.split(separator: "\n").compactMap { Double($0) }.sorted()
    }

    /// The mean colour of the left and the right half of the picture shown at `seconds`.
    func halves(_ file: String, at seconds: Double) throws -> (left: [Int], right: [Int]) {
        let out = base + "/halves.rgb"
        let result = try runFileTool(
            "/usr/bin/ffmpeg",
            [
                "-v", "error", "-y", "-ss", String(seconds), "-i", file, "-frames:v", "1",
                "-vf", "format=rgb24,scale=2:1:flags=area", "-f", "rawvideo", "-pix_fmt", "rgb24", out,
            ], writes: [out])
        XCTAssertEqual(result.status, 0, result.stderr)
        let rgb = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out))).map(Int.init)
        guard rgb.count == 6 else { XCTFail("no picture at \(seconds) s"); return ([], []) }
        return (Array(rgb[0..<3]), Array(rgb[3..<6]))
    }

    /// Records 4 s from the webcam fed `clip` and checks what a vivid recording is checked for.
    func assertRecordsFourSeconds(
        width: Int, height: Int, sampling: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        try feed([
            try clip("\(width)x\(height)-\(sampling)", width: width, height: height, sampling: sampling, seconds: 2)
        ])
        let started = Date()
        let pace = MachinePace()
        let result = try record(["--max-seconds", "4", "--json"])
        let paced = pace.stop()
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        XCTAssertLessThan(Date().timeIntervalSince(started), 60, "no stall", file: file, line: line)
        XCTAssertTrue(result.stderr.contains("from \(width)x\(height)@30 MJPG"), result.stderr, file: file, line: line)
        let row = try json(result.stdout)
        let movie = root + "/" + (row["filePath"] as? String ?? "")
        let probe = try ffprobe(movie)
        XCTAssertEqual(Set(probe.codecs), ["h264", "aac"], file: file, line: line)
        XCTAssertEqual(probe.duration, 4.0, accuracy: 0.1, file: file, line: line)
        let video = try XCTUnwrap(probe.streams.first { $0["codec_type"] as? String == "video" })
        XCTAssertEqual(video["width"] as? Int, width, file: file, line: line)
        XCTAssertEqual(video["height"] as? Int, height, file: file, line: line)
        // Frames: each one captured is in the file, at its capture time (strictly increasing,
        // spanning the 4 s; under emulation some are dropped, and show as gaps, not a stall).
        let times = try videoTimes(movie)
        let noted = result.stderr.range(of: #"recorded (\d+) frames"#, options: .regularExpression)
            .flatMap { Int(result.stderr[$0].split(separator: " ")[1]) }
        XCTAssertEqual(times.count, noted, result.stderr, file: file, line: line)
        print(
            "MJPEG \(width)x\(height) \(sampling): "
                + (result.stderr.split(separator: "\n").first { $0.contains("recorded") } ?? ""))
        XCTAssertLessThan(times.first ?? 9, 0.5, file: file, line: line)
        XCTAssertGreaterThan(times.last ?? 0, 3.4, file: file, line: line)
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        XCTAssertEqual(gaps, gaps.filter { $0 > 0 }, "strictly increasing", file: file, line: line)
        try paced.check(
            (gaps.max() ?? 9) < 0.5, "no stall: the longest gap \(gaps.max() ?? 9) s", file: file, line: line)
        XCTAssertLessThanOrEqual(
            row["avOffset"] as? Double ?? 1, 0.040, "sound and picture together", file: file, line: line)
        // The pictures themselves: red on the left, blue on the right (a misread chroma plane
        // turns them green or purple).
        let (left, right) = try halves(movie, at: 2)
        XCTAssertTrue(
            left.count == 3 && left[0] > 180 && left[1] < 60 && left[2] < 80, "left half \(left)", file: file,
            line: line)
        XCTAssertTrue(
            right.count == 3 && right[2] > 180 && right[0] < 60 && right[1] < 60, "right half \(right)", file: file,
            line: line)
        // The thumbnail: a 320 px wide JPEG.
        let thumb = root + "/" + (row["thumbnailPath"] as? String ?? "none")
        let image = try XCTUnwrap(try ffprobe(thumb).streams.first, file: file, line: line)
        XCTAssertEqual(image["width"] as? Int, 320, file: file, line: line)
        // At least a few pictures a second under emulation.
        try paced.check(
            times.count > 30, "at least a few pictures a second under emulation: \(times.count) in 4 s", file: file,
            line: line)
    }

    func testDevicesListsTheMJPEGWebcam() throws {
        try feed([try clip("listed", width: 640, height: 360, sampling: "yuvj420p", seconds: 1)])
        let result = try runProcess(cravey, ["devices", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let cameras = try json(result.stdout)["cameras"] as? [[String: Any]] ?? []
        let loopback = try XCTUnwrap(cameras.first { $0["node"] as? String == webcam }, result.stdout)
        XCTAssertEqual(loopback["card"] as? String, "Loopback-MJPEG-Webcam")
        let modes = loopback["modes"] as? [[String: Any]] ?? []
        XCTAssertTrue(
            modes.contains {
                $0["format"] as? String == "MJPG" && $0["width"] as? Int == 640
                    && $0["height"] as? Int == 360 && $0["fps"] as? Double == 30
            }, "\(modes)")
    }

    /// 4:2:2 pictures: libv4lconvert says "unsupported jpeg v-sampling factors 2:2:2".
    func testRecords422PicturesAt640x480() throws {
        try assertRecordsFourSeconds(width: 640, height: 480, sampling: "yuvj422p")
    }

    /// 4:2:0 at 640×360: libv4lconvert says "resolution is not a multiple of dctsize".
    func testRecords420PicturesAtAHeightThatIsNotAMultipleOf16() throws {
        try assertRecordsFourSeconds(width: 640, height: 360, sampling: "yuvj420p")
    }

    /// Pictures stop decoding mid-recording: it ends by itself with one line saying why, and keeps
    /// what was recorded (never a hang until killed).
    func testUndecodablePicturesEndTheRecordingInOneLineAndKeepIt() throws {
        // Good pictures long enough for the recording to start on them (slow under emulation),
        // small: the emulated processor encodes them.
        let good = try clip("good", width: 320, height: 240, sampling: "yuvj420p", seconds: 15)
        let bad = try clip("bad", width: 320, height: 240, sampling: "yuvj420p", seconds: 12, corrupt: true)
        try feed([good, bad])
        let started = Date()
        let pace = MachinePace()
        let result = try record(["--max-seconds", "60", "--json"])
        let paced = pace.stop()
        let took = Date().timeIntervalSince(started)
        XCTAssertEqual(result.status, 0, result.stderr)
        // Ended by itself: the duration below (not the 60 s cap); the wall clock only catches a hang.
        print("undecodable pictures: the recording ended \(Int(took)) s after it was started")
        XCTAssertLessThan(took, 120, "ended by itself")
        XCTAssertTrue(
            result.stderr.contains("the camera stopped: its MJPG pictures could not be decoded for 2 s ("),
            result.stderr)
        XCTAssertTrue(result.stderr.contains("keeping what was recorded"), result.stderr)
        let row = try json(result.stdout)
        XCTAssertEqual(row["kind"] as? String, "video")
        let duration = row["duration"] as? Double ?? 0
        XCTAssertGreaterThan(duration, 1, "the good pictures and the sound with them")
        XCTAssertLessThan(duration, 15 + 4, "ended about 2 s after the pictures stopped decoding, not at the cap")
        let movie = root + "/" + (row["filePath"] as? String ?? "")
        let kept = try videoTimes(movie).count
        XCTAssertGreaterThan(kept, 0, "the good pictures are kept")
        try paced.check(kept > 10, "the good pictures kept: \(kept) frames")
    }
}
