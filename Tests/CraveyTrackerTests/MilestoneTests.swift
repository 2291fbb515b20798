import CraveyLibrary
import CraveyTestSupport
import CraveyTracker
import Foundation
import XCTest

/// Milestones worked out by hand for every kind, read back from a real library database; local
/// days in Berlin. A stored milestone never breaks: a later use or a deleted log leaves it, and
/// `check` notes the difference.
final class MilestoneTests: XCTestCase {
    var base = ""
    var tracker: Tracker!
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.path + "/cravey-milestones-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        tracker = Tracker(library: try Library(root: base + "/library"))
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: base) }

    /// A wall-clock time ("2026-10-12 21:05") in Berlin.
    func at(_ text: String) throws -> LogTime {
        try LogTime.parse(text, now: Date(timeIntervalSince1970: 4_000_000_000), timeZone: berlin)
    }

    @discardableResult
    func craving(_ time: String) throws -> Craving {
        try tracker.logCraving(.init(intensity: 6, time: try at(time)), now: Date())
    }

    @discardableResult
    func use(_ time: String) throws -> Usage { try tracker.logUse(.init(time: try at(time)), now: Date()) }

    /// Notes the milestones as of `now` and gives every one stored as "kind count day".
    func noted(_ now: String) throws -> [String] {
        try tracker.noteMilestones(now: try at(now).instant, timeZone: berlin).map {
            "\($0.kind.rawValue) \($0.count) \($0.reachedOn.text)"
        }
    }

    func day(_ text: String) -> Int { LocalDay(text: text)!.number }

    func testASpanSaysItsYearOnce() {
        XCTAssertEqual(
            LocalDay(year: 2026, month: 10, day: 27).span(toWithYear: LocalDay(year: 2026, month: 11, day: 25)),
            "Oct 27–Nov 25, 2026")
        XCTAssertEqual(
            LocalDay(year: 2025, month: 12, day: 20).span(toWithYear: LocalDay(year: 2026, month: 1, day: 2)),
            "Dec 20, 2025–Jan 2, 2026")
    }

    func testThresholds() {
        XCTAssertEqual(Milestone.thresholds(.daysInProgress, upTo: 800), [1, 3, 7, 14, 30, 60, 90, 180, 365, 730])
        XCTAssertEqual(Milestone.thresholds(.daysSinceUse, upTo: 13), [1, 3, 7])
        XCTAssertEqual(Milestone.thresholds(.cravingsResisted, upTo: 250), [1, 5, 10, 25, 50, 100, 200])
        XCTAssertEqual(Milestone.thresholds(.checkIns, upTo: 0), [])
        XCTAssertEqual(
            Milestone(kind: .daysSinceUse, count: 14, reachedOn: LocalDay(number: 0)).line,
            "🌿 14 days since your last use")
        XCTAssertEqual(
            Milestone(kind: .cravingsResisted, count: 1, reachedOn: LocalDay(number: 0)).line, "💪 1 craving resisted")
    }

    /// Days in Progress from the first log, days since last use from the use, a craving resisted;
    /// then a use after a days-since milestone and a deleted log: every one is kept as it was, and
    /// check notes the one the logs no longer reach.
    func testDaysInProgressSinceUseAndResistedNeverBreak() throws {
        let first = try craving("2026-10-01 10:00")  // resisted: no use within 2 hours
        let linked = try craving("2026-10-03 19:00")
        // Not resisted:
        _ = try tracker.logUse(.init(time: try at("2026-10-03 20:00"), cravingId: linked.id), now: Date())
        // Oct 12: Days in Progress 12 (from Oct 1) → 1 on Oct 1, 3 on Oct 3, 7 on Oct 7; 9 days since
        // the use of Oct 3 → 1 on Oct 4, 3 on Oct 6, 7 on Oct 10; 1 craving resisted on Oct 1.
        let expected = [
            "cravingsResisted 1 2026-10-01", "daysInProgress 1 2026-10-01", "daysInProgress 3 2026-10-03",
            "daysSinceUse 1 2026-10-04", "daysSinceUse 3 2026-10-06", "daysInProgress 7 2026-10-07",
            "daysSinceUse 7 2026-10-10",
        ]
        XCTAssertEqual(try noted("2026-10-12 12:00"), expected)
        XCTAssertEqual(try tracker.milestoneNotes(now: try at("2026-10-12 12:00").instant, timeZone: berlin), [])

        // A use after the days-since milestones: they stay; nothing new on Oct 12.
        try use("2026-10-12 13:00")
        XCTAssertEqual(try noted("2026-10-12 14:00"), expected)

        // The first craving deleted: the first day is Oct 3 now and no craving is resisted, yet
        // the milestones keep their days; check says which the logs no longer reach.
        _ = try tracker.deleteCraving(first.id, linked: nil)
        XCTAssertEqual(try noted("2026-10-12 15:00"), expected)
        XCTAssertEqual(
            try tracker.milestoneNotes(now: try at("2026-10-12 15:00").instant, timeZone: berlin),
            ["milestone '1 craving resisted' kept: reached on 2026-10-01; the logs now count 0"])

        // On Oct 14: the first stretch of 9 days holds 7 still; Days in Progress 12 (from Oct 3)
        // reaches no new one; 2 days since the use of Oct 12 reach 1 again, which is stored already.
        XCTAssertEqual(try noted("2026-10-14 12:00"), expected)
        // On Oct 16: 14 days in progress (Oct 3 + 13), 3 days since Oct 12's use (kept from Oct 6).
        XCTAssertEqual(try noted("2026-10-16 12:00"), expected + ["daysInProgress 14 2026-10-16"])
    }

    /// A craving counts toward a milestone once its 2 hours have passed without a use; the 5th
    /// resisted reaches 5 on its own day.
    func testResistedCountsOnceItsTwoHoursHavePassed() throws {
        try craving("2026-10-10 11:00")
        XCTAssertFalse(try noted("2026-10-10 12:30").contains("cravingsResisted 1 2026-10-10"))
        XCTAssertTrue(try noted("2026-10-10 13:00").contains("cravingsResisted 1 2026-10-10"))
        try craving("2026-10-10 18:00")
        try use("2026-10-10 19:00")  // within 2 hours: not resisted
        for time in ["2026-10-11 09:00", "2026-10-12 09:00", "2026-10-12 21:00", "2026-10-14 08:00"] {
            try craving(time)
        }
        let resisted = try noted("2026-10-15 12:00").filter { $0.hasPrefix("cravingsResisted") }
        XCTAssertEqual(resisted, ["cravingsResisted 1 2026-10-10", "cravingsResisted 5 2026-10-14"])
    }

    /// Messages and check-ins by the day of the N-th; days since use over every stretch between
    /// uses, the first stretch to reach a count giving its day.
    func testMessagesCheckInsAndEveryStretchBetweenUses() {
        let d = day("2026-10-10")
        let facts = MilestoneFacts(
            firstDay: d, useDays: [d, d + 2, d + 20, d + 20], messageDays: [d, d, d + 2, d + 5, d + 9, d + 40],
            checkInDays: Array((d + 1)...(d + 10)))
        let reached = Milestone.reached(facts, today: LocalDay(number: d + 25)).map {
            "\($0.kind.rawValue) \($0.count) \($0.reachedOn.text)"
        }
        XCTAssertEqual(
            reached,
            [
                "daysInProgress 1 2026-10-10", "daysInProgress 3 2026-10-12", "daysInProgress 7 2026-10-16",
                "daysInProgress 14 2026-10-23",
                // Messages: the 1st on Oct 10, the 5th on Oct 19 (the one of Nov 19 is after today).
                "messagesRecorded 1 2026-10-10", "messagesRecorded 5 2026-10-19",
                // Check-ins: the 1st on Oct 11, the 5th on Oct 15, the 10th on Oct 20.
                "checkIns 1 2026-10-11", "checkIns 5 2026-10-15", "checkIns 10 2026-10-20",
                // Uses Oct 10, 12, 30: 1 day on Oct 11 (the first stretch), 3, 7 and 14 in the second
                // (Oct 12 + 3, + 7, + 14); the stretch since Oct 30 (5 days) reaches none anew.
                "daysSinceUse 1 2026-10-11", "daysSinceUse 3 2026-10-15", "daysSinceUse 7 2026-10-19",
                "daysSinceUse 14 2026-10-26",
            ])
        // The longest stretch: the 17 whole days from Oct 13 to Oct 29 (Oct 30 has a use).
        XCTAssertEqual(
            Milestone.counts(facts, today: LocalDay(number: d + 25)),
            [.daysInProgress: 26, .cravingsResisted: 0, .messagesRecorded: 5, .checkIns: 10, .daysSinceUse: 17])
    }

    /// Home shows the newest milestone not shown yet, once, with the smaller ones of its kind.
    func testTheNextMilestoneIsShownOnce() throws {
        try craving("2026-10-01 10:00")
        let now = try at("2026-10-08 12:00").instant
        XCTAssertEqual(try tracker.showNextMilestone(now: now, timeZone: berlin)?.line, "🌱 7 days in progress")
        XCTAssertEqual(try tracker.showNextMilestone(now: now, timeZone: berlin)?.line, "💪 1 craving resisted")
        XCTAssertNil(try tracker.showNextMilestone(now: now, timeZone: berlin))
        XCTAssertTrue(try tracker.milestones().allSatisfy(\.shown))
    }
}
