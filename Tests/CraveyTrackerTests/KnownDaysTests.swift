import CraveyLibrary
import CraveyTracker
import Foundation
import XCTest

/// Days that are known, worked out by hand from a real library database (local days in Berlin):
/// the calendar's five kinds of day, a mark of no use withdrawn by a use logged on its day (and by
/// one moved onto it), "don't remember" kept as its own answer, the refusals, and the figures of
/// the streaks, days since use and money kept unchanged by any answer.
final class KnownDaysTests: XCTestCase {
    var base = ""
    var library: Library!
    var tracker: Tracker!
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.path + "/cravey-known-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        library = try Library(root: base + "/library")
        tracker = Tracker(library: library)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: base) }

    /// Nov 20, 12:00 in Berlin.
    var now: Date { (try? at("2026-11-20 12:00").instant) ?? Date() }

    func at(_ text: String) throws -> LogTime {
        try LogTime.parse(text, now: Date(timeIntervalSince1970: 4_000_000_000), timeZone: berlin)
    }

    func day(_ text: String) -> LocalDay { LocalDay(parsing: text)! }

    func use(_ text: String) throws -> Usage {
        try tracker.logUse(.init(method: .vape, amount: 2, time: try at(text)), now: now)
    }

    /// Tracking begins Nov 12 (a craving); a use Nov 13; Nov 14 no use; Nov 15 not remembered;
    /// Nov 16 nothing; Nov 17 no use, then a use logged on it (the mark withdrawn); Nov 18 no use;
    /// Nov 19 and 20 nothing.
    func logTheHistory() throws -> Usage {
        _ = try tracker.logCraving(.init(intensity: 6, time: try at("2026-11-12 10:00")), now: now)
        _ = try use("2026-11-13 21:00")
        for (text, answer) in [
            ("2026-11-14", DayAnswer.noUse), ("2026-11-15", .unknown), ("2026-11-17", .noUse), ("2026-11-18", .noUse),
        ] {
            _ = try tracker.mark(day(text), answer, now: now, timeZone: berlin)
        }
        // 23:30 in Berlin is Nov 17 on the use's own clock (22:30 UTC).
        return try use("2026-11-17 23:30")
    }

    func testTheCalendarsFiveKindsOfDay() throws {
        let withdrawing = try logTheHistory()
        let report = try tracker.report(
            from: day("2026-11-10"), to: day("2026-11-20"), now: now, timeZone: berlin)
        XCTAssertEqual(
            report.days.map { "\($0.day.civil.day) \($0.kind.rawValue)" },
            [
                "10 beforeTracking", "11 beforeTracking", "12 notReported", "13 used", "14 noUse", "15 dontRemember",
                "16 notReported", "17 used", "18 noUse", "19 notReported", "20 notReported",
            ])
        XCTAssertEqual(report.days.map(\.kind.symbol).joined(separator: " "), "— — ?  0 ~ ?  0 ? ?")
        let known = report.figures.known
        XCTAssertEqual(
            [known.days, known.used, known.confirmed, known.dontRemember, known.notReported], [9, 2, 2, 1, 4])
        XCTAssertEqual(known.from, day("2026-11-12"))
        XCTAssertEqual(known.confirmedDays, [day("2026-11-14"), day("2026-11-18")])
        XCTAssertEqual(
            known.line, "2 of 9 days confirmed without use · 2 with use · 1 not remembered · 4 not reported")
        // The use on Nov 17 withdrew its mark, and says so once in one line.
        XCTAssertEqual(
            try tracker.markWithdrawn(by: withdrawing, now: now, timeZone: berlin),
            "Nov 17 was marked as a day without use; that mark is withdrawn now that a use is logged on it.")
        XCTAssertEqual(try tracker.dayAnswers()[day("2026-11-17").number], nil, "no longer an answer")
        XCTAssertNil(
            try tracker.markWithdrawn(by: try use("2026-11-13 22:00"), now: now, timeZone: berlin),
            "a day of use had no mark to withdraw")
        // Back-fill asks about the days with neither a use nor an answer, newest first.
        XCTAssertEqual(
            try tracker.unreportedDays(from: day("2026-11-01"), to: day("2026-11-20"), now: now, timeZone: berlin)
                .map(\.text),
            ["2026-11-20", "2026-11-19", "2026-11-16", "2026-11-12"])
    }

    func testAUseMovedOntoAMarkedDayWithdrawsItsMark() throws {
        _ = try tracker.logCraving(.init(intensity: 6, time: try at("2026-11-12 10:00")), now: now)
        var moved = try use("2026-11-13 21:00")
        _ = try tracker.mark(day("2026-11-15"), .noUse, now: now, timeZone: berlin)
        moved.time = try at("2026-11-15 20:00")
        let edited = try tracker.edit(moved, now: now)
        XCTAssertEqual(try tracker.kind(of: day("2026-11-15"), now: now, timeZone: berlin), .used)
        XCTAssertNotNil(try tracker.markWithdrawn(by: edited, now: now, timeZone: berlin))
        // Deleted again, the day is not reported: the answer withdrawn is not brought back.
        try tracker.deleteUse(edited.id)
        XCTAssertEqual(try tracker.kind(of: day("2026-11-15"), now: now, timeZone: berlin), .notReported)
        // Answered again, it stands; an answer replaced says what it was.
        let again = try tracker.mark(day("2026-11-15"), .unknown, now: now, timeZone: berlin)
        XCTAssertNil(again.before)
        let replaced = try tracker.mark(day("2026-11-15"), .noUse, now: now, timeZone: berlin)
        XCTAssertEqual(replaced.before, .unknown)
        XCTAssertEqual(try tracker.kind(of: day("2026-11-15"), now: now, timeZone: berlin), .noUse)
    }

    func testAFutureDayADayBeforeTrackingAndADayOfUseAreRefusedAndChangeNothing() throws {
        _ = try tracker.logCraving(.init(intensity: 6, time: try at("2026-11-12 10:00")), now: now)
        _ = try use("2026-11-13 21:00")
        for (text, words) in [
            ("2026-11-21", "2026-11-21 has not come yet"), ("2026-11-11", "before tracking began (2026-11-12)"),
            ("2026-11-13", "a use is logged on 2026-11-13, so it is a day of use"),
        ] {
            XCTAssertThrowsError(try tracker.mark(day(text), .noUse, now: now, timeZone: berlin)) { error in
                XCTAssertTrue("\(error)".contains(words), "\(text): \(error)")
            }
        }
        XCTAssertEqual(try library.dayMarks(), [])
    }

    /// No figure of the streaks, days since use, Days in Progress or money kept moves with an
    /// answer: the same history with and without every day answered.
    func testAnswersChangeNoFigure() throws {
        try library.setSetting(.prices, to: #"{"vape":150}"#)
        _ = try tracker.logCraving(.init(intensity: 6, time: try at("2026-11-12 10:00")), now: now)
        _ = try use("2026-11-13 21:00")
        _ = try use("2026-11-16 21:00")
        func figures() throws -> String {
            let f = try tracker.progress(.all, now: now, timeZone: berlin)
            return
                "\(String(describing: f.currentStreak)) \(String(describing: f.longestStreak)) \(String(describing: f.daysInProgress)) \(String(describing: f.daysSinceLastUse)) \(String(describing: f.money?.figure))"
        }
        let before = try figures()
        for text in ["2026-11-12", "2026-11-14", "2026-11-17", "2026-11-19", "2026-11-20"] {
            _ = try tracker.mark(day(text), .noUse, now: now, timeZone: berlin)
        }
        _ = try tracker.mark(day("2026-11-15"), .unknown, now: now, timeZone: berlin)
        XCTAssertEqual(try figures(), before)
        XCTAssertEqual(try tracker.progress(.all, now: now, timeZone: berlin).known.confirmed, 5)
    }
}
