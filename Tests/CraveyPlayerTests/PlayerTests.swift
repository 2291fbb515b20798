import CraveyMedia
import CraveyPlayer
import CraveyTestSupport
import Foundation
import XCTest

/// The player floor's pure parts: the window's keys, the picture-output rule, the silent clock, and which
/// frame is due when (decoded from a test video made with the ffmpeg CLI).
final class PlayerTests: XCTestCase {
    func testWindowKeysAreTheSameKeys() {
        XCTAssertEqual(PlayerKey(window: .character(" ")), .pauseResume)
        XCTAssertEqual(PlayerKey(window: .character("q")), .stop)
        XCTAssertEqual(PlayerKey(window: .character("\u{1B}")), .stop)
        XCTAssertEqual(PlayerKey(window: .left), .back)
        XCTAssertEqual(PlayerKey(window: .right), .forward)
        XCTAssertNil(PlayerKey(window: .character("x")))
        XCTAssertNil(PlayerKey(window: .other))
    }

    func testPictureOutputRule() {
        XCTAssertEqual(PictureOutput.choose(displayAvailable: true, outputIsTerminal: false), .window)
        XCTAssertEqual(PictureOutput.choose(displayAvailable: false, outputIsTerminal: true), .terminal)
        XCTAssertEqual(PictureOutput.choose(displayAvailable: false, outputIsTerminal: false), .none)
    }

    func testSilentClockPausesSkipsAndEnds() {
        let player = SilentPlayer(duration: 0.6)
        player.start()
        PlayerKey.forward.apply(to: player)
        XCTAssertEqual(player.position, 0.6, accuracy: 0.05, "a skip past the end stops at the end")
        XCTAssertEqual(player.wait(timeout: .now() + 1), .finished)
        let paused = SilentPlayer(duration: 10)
        paused.start()
        PlayerKey.pauseResume.apply(to: paused)
        let at = paused.position
        usleep(200_000)
        XCTAssertEqual(paused.position, at, accuracy: 0.001, "paused: the clock stands")
        XCTAssertTrue(paused.isPaused)
        PlayerKey.stop.apply(to: paused)
        XCTAssertEqual(paused.wait(timeout: .now() + 1), .dismissed)
    }

    func testFramesFollowTheClockAndLateOnesAreDropped() throws {
        let path = FileManager.default.temporaryDirectory.path + "/cravey-frames-\(UUID().uuidString.prefix(6)).mp4"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let made = try runProcess(
            "/usr/bin/ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=64x36:rate=10:d=2",
                "-c:v", "libx264", "-pix_fmt", "yuv420p", path,
            ])
        XCTAssertEqual(made.status, 0, made.stderr)
        let frames = try VideoFrames(path: path, width: 32, height: 18, rgb: true)
        let first = try XCTUnwrap(try frames.frame(at: 0))
        XCTAssertEqual(first.pts, 0, accuracy: 0.001)
        XCTAssertEqual(first.data.count, 32 * 18 * 3)
        XCTAssertNil(try frames.frame(at: 0.05), "the frame on screen is still current")
        let later = try XCTUnwrap(try frames.frame(at: 1.0))
        XCTAssertEqual(later.pts, 1.0, accuracy: 0.001, "the newest frame due, not the next in line")
        XCTAssertGreaterThan(frames.dropped, 0, "the frames whose time passed were dropped")
    }
}
