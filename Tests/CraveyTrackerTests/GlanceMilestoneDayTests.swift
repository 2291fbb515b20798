import CraveyLibrary
import CraveyTestSupport
import CraveyTracker
import Foundation
import XCTest

/// The glance (`cravey status`) calls a milestone of days since use new only on the day it is
/// first reached, by the rule progress stores it by, whether progress has stored it yet or not;
/// read from a real library database, local days in Berlin.
final class GlanceMilestoneDayTests: XCTestCase {
    var base = ""
    var tracker: Tracker!
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.path + "/cravey-glance-day-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        tracker = Tracker(library: try Library(root: base + "/library"))
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: base) }

    /// A wall-clock time ("2026-11-19 18:00") in Berlin.
    func at(_ text: String) throws -> LogTime {
        try LogTime.parse(text, now: Date(timeIntervalSince1970: 4_000_000_000), timeZone: berlin)
    }

    func uses(_ times: [String]) throws {
        for time in times { try tracker.logUse(.init(time: try at(time)), now: Date()) }
    }

    /// The glance's milestone as "kind count day" ("none" without one).
    func glanced(_ now: String) throws -> String {
        let glance = try XCTUnwrap(try Glance.read(root: base + "/library", now: try at(now).instant, timeZone: berlin))
        return glance.milestone.map { "\($0.kind.rawValue) \($0.count) \($0.reachedOn.text)" } ?? "none"
    }

    /// A use on Nov 7, then every evening Nov 15–18: "1 day since your last use" was first
    /// reached on Nov 8, so on Nov 19 it is not new, before progress stores it and after.
    func testOneFirstReachedOnAnEarlierDayIsNotNew() throws {
        try uses(["2026-11-07 20:00", "2026-11-15 21:00", "2026-11-16 21:00", "2026-11-17 21:00", "2026-11-18 21:00"])
        try tracker.logCraving(.init(intensity: 7, time: try at("2026-11-19 17:30")), now: Date())
        XCTAssertEqual(try glanced("2026-11-19 18:00"), "none")
        let noted = try tracker.noteMilestones(now: try at("2026-11-19 18:00").instant, timeZone: berlin)
        XCTAssertTrue(
            noted.contains(Milestone(kind: .daysSinceUse, count: 1, reachedOn: LocalDay(text: "2026-11-08")!)))
        XCTAssertEqual(try glanced("2026-11-19 18:00"), "none")
        // Three days after the last use: reached on Nov 10 already.
        XCTAssertEqual(try glanced("2026-11-21 09:00"), "none")
        // Seven days after it: reached on Nov 14, so not new; 14 days, on Dec 2, is.
        XCTAssertEqual(try glanced("2026-11-25 09:00"), "none")
        XCTAssertEqual(try glanced("2026-12-02 09:00"), "daysSinceUse 14 2026-12-02")
    }

    /// Reached for the first time today: new, on the day only (a use this evening takes it back).
    func testOneFirstReachedTodayIsNewThatDayOnly() throws {
        try uses(["2026-11-15 21:00", "2026-11-16 21:00", "2026-11-17 21:00", "2026-11-18 21:00"])
        XCTAssertEqual(try glanced("2026-11-19 18:00"), "daysSinceUse 1 2026-11-19")
        XCTAssertEqual(try glanced("2026-11-20 09:00"), "none")
        try uses(["2026-11-19 21:00"])
        XCTAssertEqual(try glanced("2026-11-19 22:00"), "none")
    }

    /// A stored one the logs contradict (an older rule's, on a day with a use) was never reached:
    /// it does not hide the one truly reached today.
    func testAStoredOneNeverReachedDoesNotHideTodays() throws {
        try uses(["2026-11-15 21:00", "2026-11-16 21:00", "2026-11-17 21:00", "2026-11-18 21:00"])
        try tracker.library.noteMilestonesReached([
            MilestoneRow(kind: "daysSinceUse", count: 1, reachedOn: "2026-11-16")
        ])
        XCTAssertEqual(try glanced("2026-11-19 18:00"), "daysSinceUse 1 2026-11-19")
    }

    /// A use whose time SQLite cannot read (written by hand) has no day: the glance leaves it out.
    func testAUseWithATimeNoOneCanReadHasNoDay() throws {
        try uses(["2026-11-15 21:00", "2026-11-16 21:00", "2026-11-17 21:00", "2026-11-18 21:00"])
        let planted = try runProcess(
            "/usr/bin/sqlite3",
            [
                base + "/library/library.sqlite",
                "INSERT INTO usage (id, at, utcOffset, method, amount, createdAt, modifiedAt) "
                    + "VALUES ('by-hand', '0 not a time', 0, 'vape', 1, 'x', 'x')",
            ])
        XCTAssertEqual(planted.status, 0, planted.stderr)
        XCTAssertEqual(try glanced("2026-11-19 18:00"), "daysSinceUse 1 2026-11-19")
    }
}
