import CraveyMedia
import CraveyTestSupport
import Foundation
import XCTest

/// Tests against real kernel drivers: vivid (/dev/video0) and snd-aloop (hw:Loopback), run inside
/// the VM rig by `VMRigTests` (they skip when run directly on a machine without the rig).
final class VMDeviceTests: XCTestCase {
    let cravey = productPath("cravey")

    override func setUpWithError() throws {
        try XCTSkipUnless(
            ProcessInfo.processInfo.environment["CRAVEY_IN_VM"] == "1",
            "runs inside the VM rig (Tests/vm/rig.sh), through VMRigTests")
    }

    func control(_ name: String, _ value: String = "1") throws {
        let result = try runProcess("/usr/bin/v4l2-ctl", ["-d", "/dev/video0", "-c", "\(name)=\(value)"])
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    func testDevicesListsTheVividCameraAndTheLoopbackMicrophone() throws {
        let result = try runProcess(cravey, ["devices", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        let cameras = json["cameras"] as! [[String: Any]]
        let vivid = try XCTUnwrap(cameras.first { $0["card"] as? String == "vivid" })
        XCTAssertEqual(vivid["node"] as? String, "/dev/video0")
        XCTAssertEqual(vivid["default"] as? Bool, true, "the only camera is the default")
        let sizes = Set((vivid["modes"] as! [[String: Any]]).map { "\($0["width"]!)x\($0["height"]!)" })
        for size in ["320x180", "640x360", "1280x720"] { XCTAssertTrue(sizes.contains(size), "\(size) in \(sizes)") }
        XCTAssertFalse(sizes.contains("1920x1080"), "modes above 720p are not listed")
        let mics = (json["microphones"] as! [[String: Any]]).compactMap { $0["name"] as? String }
        XCTAssertTrue(mics.contains { $0.contains("Loopback") && $0.contains("DEV=1") }, "\(mics)")
    }

    func testNegotiationCapsAt720p() throws {
        let camera = try CameraInfo(path: "/dev/video0")
        let best = try XCTUnwrap(CameraMode.best(of: camera.modes))
        XCTAssertTrue(best.fitsLimit, "\(best)")
        XCTAssertGreaterThanOrEqual(best.fps, 24, "\(best)")
        let requested = try XCTUnwrap(CameraMode.best(of: camera.modes, preferred: (1920, 1080)))
        XCTAssertLessThanOrEqual(requested.width, 1280)
        XCTAssertLessThanOrEqual(requested.height, 720)
        let only1080 = [CameraMode(width: 1920, height: 1080, fps: 30, pixelFormat: "MJPG")]
        XCTAssertEqual(CameraMode.best(of: only1080)?.width, 1920, "nothing smaller: the larger mode, to scale down")
    }

    func testStreamsTwoSecondsAt320x180() throws {
        let input = try VideoInput(
            path: "/dev/video0", mode: CameraMode(width: 320, height: 180, fps: 30, pixelFormat: "YUYV"))
        XCTAssertEqual(input.width, 320)
        XCTAssertEqual(input.height, 180)
        var frames: [VideoFrame] = []
        let start = Date()
        while Date().timeIntervalSince(start) < 2, let frame = try input.next(timeout: 1) { frames.append(frame) }
        XCTAssertEqual(Double(frames.count + input.framesDropped), 60, accuracy: 6, "30 fps for 2 s")
        XCTAssertEqual(frames.first?.data.count, 320 * 180 * 3 / 2, "YUV 4:2:0")
        let stamps = frames.map(\.timestampNanoseconds)
        XCTAssertEqual(stamps, stamps.sorted(), "monotonic timestamps")
        XCTAssertEqual(Set(stamps).count, stamps.count)
        let span = Double(stamps.last! - stamps.first!) / 1e9
        XCTAssertEqual(span, Double(frames.count - 1) / 30, accuracy: 0.15, "timestamps at the frame rate")
        XCTAssertEqual(input.framesDropped, Int(frames.last!.sequence - frames.first!.sequence) + 1 - frames.count)
    }

    func testDroppedBuffersAreCountedNotFatal() throws {
        let input = try VideoInput(
            path: "/dev/video0", mode: CameraMode(width: 320, height: 180, fps: 30, pixelFormat: "YUYV"))
        try control("percentage_of_dropped_buffers", "20")
        defer { try? control("percentage_of_dropped_buffers", "0") }
        // By count, not by time: a busy host slows the emulated machine, and a fifth of 100
        // buffers is about 20 drops (3 or fewer by chance: about 1 in 100,000).
        var frames = 0
        let start = Date()
        while frames + input.framesDropped + input.corruptFrames < 100, Date().timeIntervalSince(start) < 30,
            try input.next(timeout: 1) != nil
        {
            frames += 1
        }
        XCTAssertGreaterThan(frames, 30, "the stream goes on")
        XCTAssertGreaterThan(input.framesDropped + input.corruptFrames, 3, "drops are seen")
    }

    func testDisconnectEndsTheStreamCleanly() throws {
        let input = try VideoInput(
            path: "/dev/video0", mode: CameraMode(width: 320, height: 180, fps: 30, pixelFormat: "YUYV"))
        var frames = 0
        while frames < 15, try input.next(timeout: 1) != nil { frames += 1 }
        try control("disconnect")
        var after = 0
        while try input.next(timeout: 2) != nil { after += 1 }
        XCTAssertNotNil(input.ended, "the stream ended instead of timing out")
        XCTAssertEqual(frames, 15, "frames before the disconnect were delivered")
        XCTAssertLessThan(after, 10)
    }

    func testStreamOnErrorIsClear() throws {
        // The disconnect test may have run first: vivid reconnects on the next open.
        try control("inject_vidioc_streamon_error")
        XCTAssertThrowsError(
            try VideoInput(path: "/dev/video0", mode: CameraMode(width: 320, height: 180, fps: 30, pixelFormat: "YUYV"))
        ) { error in
            XCTAssertTrue("\(error)".hasPrefix("start camera /dev/video0: "), "\(error)")
        }
    }
}
