import CraveyMessages
import XCTest

/// When the silence at a take's ends is worth trimming, and worth offering to trim, is the
/// take's rule (a command and a screen both ask it): 0.1 s together is trimmed, 0.5 s is offered.
final class SilenceTrimTests: XCTestCase {
    func testTheThresholdsAreTheTakesOwn() {
        XCTAssertEqual(Take.trimmedFrom, 0.1)
        XCTAssertEqual(Take.offeredFrom, 0.5)
        XCTAssertNil(Take.silence(nil, atLeast: Take.trimmedFrom), "no sound: nothing to trim")
        XCTAssertNil(Take.silence((0.04, 0.05), atLeast: Take.trimmedFrom))
        XCTAssertEqual(Take.silence((0.05, 0.05), atLeast: Take.trimmedFrom)?.start, 0.05)
        XCTAssertNil(Take.silence((0.2, 0.2), atLeast: Take.offeredFrom), "trimmed when asked, not offered")
        XCTAssertEqual(Take.silence((0.3, 0.2), atLeast: Take.offeredFrom)?.end, 0.2)
    }
}
