import CraveyMedia
import XCTest

/// Choosing the camera mode to record with, from lists like real webcams offer.
final class CameraModeTests: XCTestCase {
    func mode(_ width: Int, _ height: Int, _ fps: Double, _ format: String = "YUYV") -> CameraMode {
        CameraMode(width: width, height: height, fps: fps, pixelFormat: format)
    }

    func testLargestModeUpTo720pAtTheRateNearest30() {
        // A typical laptop webcam: 1080p and 720p at 30 and 15, smaller ones up to 60.
        let modes = [
            mode(1920, 1080, 30, "MJPG"), mode(1280, 720, 15), mode(1280, 720, 30, "MJPG"), mode(1280, 720, 10),
            mode(640, 360, 60), mode(640, 360, 30), mode(320, 180, 30),
        ]
        XCTAssertEqual(CameraMode.best(of: modes), mode(1280, 720, 30, "MJPG"))
        // 60 fps is not preferred over 30 at the same size.
        XCTAssertEqual(CameraMode.best(of: [mode(640, 360, 60), mode(640, 360, 30)]), mode(640, 360, 30))
    }

    func testSmoothBeatsLargerButSlow() {
        // 720p only at 10 fps: a smaller mode at 24 fps or more wins.
        XCTAssertEqual(CameraMode.best(of: [mode(1280, 720, 10), mode(640, 480, 24)]), mode(640, 480, 24))
        // Nothing reaches 24 fps: the largest at any rate.
        XCTAssertEqual(CameraMode.best(of: [mode(1280, 720, 10), mode(640, 480, 15)]), mode(1280, 720, 10))
    }

    func testRequestedSizeAndCapAt720p() {
        let modes = [mode(1920, 1080, 30), mode(1280, 720, 30), mode(640, 360, 30)]
        XCTAssertEqual(CameraMode.best(of: modes, preferred: (640, 360)), mode(640, 360, 30))
        XCTAssertEqual(
            CameraMode.best(of: modes, preferred: (1920, 1080)), mode(1280, 720, 30), "a request above 720p is capped")
        // Only larger modes: the smallest of them, to be scaled down.
        XCTAssertEqual(CameraMode.best(of: [mode(3840, 2160, 30), mode(1920, 1080, 30)]), mode(1920, 1080, 30))
        XCTAssertNil(CameraMode.best(of: []))
    }

    func testMJPEGAt30BeatsYUYVAt10AndRawWinsATie() {
        // Most laptop webcams: 720p at 30 fps only as MJPEG, YUYV 720p at 10 fps.
        XCTAssertEqual(
            CameraMode.best(of: [mode(1280, 720, 10), mode(1280, 720, 30, "MJPG"), mode(640, 480, 30)]),
            mode(1280, 720, 30, "MJPG"))
        // The same size and rate in both: the raw pictures (nothing to decode), in either order.
        XCTAssertEqual(CameraMode.best(of: [mode(1280, 720, 30, "MJPG"), mode(1280, 720, 30)]), mode(1280, 720, 30))
        XCTAssertEqual(CameraMode.best(of: [mode(1280, 720, 30), mode(1280, 720, 30, "MJPG")]), mode(1280, 720, 30))
        XCTAssertTrue(
            mode(640, 480, 30, "MJPG").isJPEG && mode(640, 480, 30, "JPEG").isJPEG && !mode(640, 480, 30).isJPEG)
    }
}
