import CraveyLibrary
import CraveyTracker
import XCTest

/// The library holds stored settings and milestones to lists of names (it cannot import the
/// tracker): they are the tracker's own, name for name.
final class StoredRulesTests: XCTestCase {
    func testTheLibrarysListsAreTheTrackersNames() {
        XCTAssertEqual(Validation.goalNames, Goal.allCases.map(\.rawValue))
        XCTAssertEqual(Validation.priceMethods, Method.allCases.map(\.rawValue))
        XCTAssertEqual(Validation.milestoneKinds, Milestone.Kind.allCases.map(\.rawValue))
    }
}
