import CraveyLibrary
import CraveyTracker
import Foundation
import XCTest

/// The report's figures and calendar worked out by hand from a real library database (local
/// days in Berlin): each day's amount per method, its cravings and the strongest, the weeks
/// Monday first, a period in the past as of its last day, and the notes only when asked for.
final class ReportTrackerTests: XCTestCase {
    var base = ""
    var tracker: Tracker!
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.path + "/cravey-report-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        tracker = Tracker(library: try Library(root: base + "/library"))
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: base) }

    func at(_ text: String) throws -> LogTime {
        try LogTime.parse(text, now: Date(timeIntervalSince1970: 4_000_000_000), timeZone: berlin)
    }

    func day(_ text: String) -> LocalDay {
        let parts = text.split(separator: "-").map { Int($0)! }
        return LocalDay(year: parts[0], month: parts[1], day: parts[2])
    }

    /// Nov 2: cravings of 6 and 9 (a note), 1.5 and 0.5 bowls, 3 pulls (a note); Nov 4: 10 mg of
    /// edible; Nov 10, after the period: a craving of 4 and a bowl.
    func logTheWeek() throws {
        _ = try tracker.logCraving(.init(intensity: 6, time: try at("2026-11-02 10:00")), now: Date())
        _ = try tracker.logCraving(
            .init(intensity: 9, time: try at("2026-11-02 18:00"), notes: "after the call"), now: Date())
        _ = try tracker.logUse(.init(method: .bowls, amount: 1.5, time: try at("2026-11-02 20:00")), now: Date())
        _ = try tracker.logUse(.init(method: .bowls, amount: 0.5, time: try at("2026-11-02 21:00")), now: Date())
        _ = try tracker.logUse(
            .init(method: .vape, amount: 3, time: try at("2026-11-02 22:00"), notes: "on the sofa"), now: Date())
        _ = try tracker.logUse(.init(method: .edible, amount: 10, time: try at("2026-11-04 12:00")), now: Date())
        _ = try tracker.logCraving(.init(intensity: 4, time: try at("2026-11-10 09:00")), now: Date())
        _ = try tracker.logUse(.init(method: .bowls, amount: 1, time: try at("2026-11-10 20:00")), now: Date())
    }

    func testAPeriodInThePastDayByDay() throws {
        try logTheWeek()
        let report = try tracker.report(
            from: day("2026-11-01"), to: day("2026-11-07"), withNotes: true, now: try at("2026-11-20 12:00").instant,
            timeZone: berlin)
        XCTAssertEqual(report.days.map(\.day.text).first, "2026-11-01")
        XCTAssertEqual(report.days.count, 7)
        let second = report.days[1]
        XCTAssertEqual(second.amounts, [.init(method: .bowls, amount: 2), .init(method: .vape, amount: 3)])
        XCTAssertEqual(second.cravings, 2)
        XCTAssertEqual(second.peak, 9)
        XCTAssertEqual(report.days[3].amounts, [.init(method: .edible, amount: 10)])
        XCTAssertEqual(report.days[3].cravings, 0)
        XCTAssertNil(report.days[3].peak)
        XCTAssertEqual(report.days.filter { $0.amounts.isEmpty && $0.cravings == 0 }.count, 5)

        // As of Nov 7: what came after is not counted.
        XCTAssertEqual(report.figures.today.text, "2026-11-07")
        XCTAssertEqual(report.figures.from.text, "2026-11-01")
        XCTAssertEqual(report.figures.cravings, 2)
        XCTAssertEqual(report.figures.uses, 4)
        XCTAssertEqual(report.figures.daysSinceLastUse, 3)

        // Nov 1, 2026 is a Sunday: its week's first six days are outside the period.
        XCTAssertEqual(report.weeks.count, 2)
        XCTAssertEqual(report.weeks[0].map { $0?.day.text }, [nil, nil, nil, nil, nil, nil, "2026-11-01"])
        XCTAssertEqual(report.weeks[1].compactMap { $0?.day.text }.count, 6)
        XCTAssertNil(report.weeks[1][6])

        XCTAssertEqual(report.notes.map(\.what), ["Craving 9/10", "Use: 3 pulls"])
        XCTAssertEqual(report.notes.map(\.text), ["after the call", "on the sofa"])
        let without = try tracker.report(
            from: day("2026-11-01"), to: day("2026-11-07"), now: try at("2026-11-20 12:00").instant, timeZone: berlin)
        XCTAssertEqual(without.notes, [])
    }

    func testARangeUpToToday() throws {
        try logTheWeek()
        let report = try tracker.report(range: .week, now: try at("2026-11-10 23:00").instant, timeZone: berlin)
        XCTAssertEqual(report.from.text, "2026-11-04")
        XCTAssertEqual(report.to.text, "2026-11-10")
        XCTAssertEqual(report.days.count, 7)
        XCTAssertEqual(report.days[0].amounts, [.init(method: .edible, amount: 10)])
        XCTAssertEqual(report.days[6].amounts, [.init(method: .bowls, amount: 1)])
        XCTAssertEqual(report.days[6].peak, 4)
        XCTAssertEqual(report.figures.range, .week)
        // All: from the first log's day.
        let all = try tracker.report(range: .all, now: try at("2026-11-10 23:00").instant, timeZone: berlin)
        XCTAssertEqual(all.from.text, "2026-11-02")
        XCTAssertEqual(all.days.count, 9)
    }

    /// The period's rules are the tracker's: a last day after today is refused in one line (it was
    /// cut short to today before), as is a first day after the last and more than ten years.
    func testAPeriodEndingAfterTodayIsRefusedNotCutShort() throws {
        try logTheWeek()
        let now = try at("2026-11-10 12:00").instant
        func refusal(_ from: String?, _ to: String?) -> String? {
            do {
                _ = try tracker.report(from: from.map(day), to: to.map(day), now: now, timeZone: berlin)
                return nil
            } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(
            refusal("2026-11-01", "2026-11-11"), "invalid period: its last day, 2026-11-11, is after today (2026-11-10)"
        )
        XCTAssertEqual(
            refusal("2026-11-08", "2026-11-07"),
            "invalid period: its first day, 2026-11-08, is after its last day, 2026-11-07")
        XCTAssertEqual(
            refusal("2016-11-01", nil), "invalid period: it covers 3662 days; a report covers at most 3660")
        XCTAssertNil(refusal("2026-11-01", "2026-11-10"), "today is the last day a report may have")
        XCTAssertEqual(
            try Report.period(from: nil, to: day("2026-11-07"), today: day("2026-11-10")).lowerBound.text, "2026-10-09")
    }
}
