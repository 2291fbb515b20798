import CraveyTracker
import Foundation
import XCTest

/// "Messages that help" counts only cravings whose 2 hours have passed: a message played in a
/// craving a minute ago has not helped, nor failed to, yet.
extension MessageHelpTests {
    func testAMessagePlayedInAnOpenCravingIsNotCountedYet() throws {
        let walk = try recording("Walk first")
        try craving(7, "2026-10-12 09:00", played: [walk])
        try craving(7, "2026-10-12 11:59", played: [walk])
        let noon = try at("2026-10-12 12:00").instant
        XCTAssertEqual(
            try tracker.messageHelp(now: noon)[walk.id],
            MessageHelp(id: walk.id, title: "Walk first", playedInCravings: 1, resistedAfter: 1))
        let figures = try tracker.progress(.week, now: noon, timeZone: berlin)
        XCTAssertEqual(figures.messages, [], "listed from 2 cravings whose 2 hours have passed")
        XCTAssertEqual(figures.resisted, 1)
        XCTAssertEqual(figures.openCravings, 1)

        let later = try at("2026-10-12 14:00").instant
        XCTAssertEqual(
            try tracker.progress(.week, now: later, timeZone: berlin).messages,
            [MessageHelp(id: walk.id, title: "Walk first", playedInCravings: 2, resistedAfter: 2)])
    }
}
