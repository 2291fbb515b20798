import CraveyMedia
import CraveyTestSupport
import Foundation
import XCTest

/// The shim's error paths, on any machine.
final class CameraErrorTests: XCTestCase {
    func testMissingNodeAndNonV4L2File() {
        XCTAssertThrowsError(try CameraInfo(path: "/dev/video-does-not-exist")) { error in
            XCTAssertEqual("\(error)", "open camera /dev/video-does-not-exist: no such device node")
        }
        XCTAssertThrowsError(try CameraInfo(path: "/dev/null")) { error in
            XCTAssertEqual("\(error)", "open camera /dev/null: not a V4L2 device")
        }
    }
}
