import CraveyLibrary
import CraveyTracker
import Foundation
import XCTest

/// The withdrawal check, worked out by hand from a real library database (local days in
/// Berlin): day 1 is the day after the last use, the window is days 1–14, one check a day (a
/// second replaces the first), the chart's cells and figures, the refusals that keep nothing, a
/// new use opening a new window, and the goals the check is absent for unless asked.
final class WithdrawalTests: XCTestCase {
    var base = ""
    var library: Library!
    var tracker: Tracker!
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.path + "/cravey-withdrawal-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        library = try Library(root: base + "/library")
        tracker = Tracker(library: library)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: base) }

    func at(_ text: String) throws -> Date {
        try LogTime.parse(text, now: Date(timeIntervalSince1970: 4_000_000_000), timeZone: berlin).instant
    }

    func use(_ text: String) throws {
        _ = try tracker.logUse(
            .init(
                method: .vape, amount: 2,
                time: try LogTime.parse(text, now: Date(timeIntervalSince1970: 4_000_000_000), timeZone: berlin)),
            now: try at(text))
    }

    @discardableResult
    func keep(_ scores: String, on text: String, anyGoal: Bool = false) throws -> WithdrawalKept {
        try tracker.keepWithdrawalCheck(
            try WithdrawalScores(parsing: scores), anyGoal: anyGoal, now: try at(text), timeZone: berlin)
    }

    func assertRefused(
        _ scores: String, on text: String, anyGoal: Bool = false, saying words: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let before = try library.withdrawalChecks()
        XCTAssertThrowsError(try keep(scores, on: text, anyGoal: anyGoal), file: file, line: line) { error in
            XCTAssertTrue("\(error)".contains(words), "\(error)", file: file, line: line)
        }
        XCTAssertEqual(try library.withdrawalChecks(), before, "nothing kept", file: file, line: line)
    }

    /// Goal quit; the last use Nov 10 at 21:00. Checks on day 1 (Nov 11), day 3 (Nov 13, kept
    /// twice: the second replaces the first) and day 6 (Nov 16).
    func logTheHistory() throws {
        try library.setSetting(.goal, to: "quit")
        try use("2026-11-10 21:00")
        let first = try keep("2,3,4,5,1,8", on: "2026-11-11 09:00")
        XCTAssertEqual(first.check.windowDay, 1)
        XCTAssertNil(first.replaced)
        try keep("6,7,5,2,8,9", on: "2026-11-13 08:00")
        let again = try keep("7 7 5 2 8 9", on: "2026-11-13 22:00")
        XCTAssertEqual(again.check.windowDay, 3)
        XCTAssertEqual(again.replaced, WithdrawalScores([6, 7, 5, 2, 8, 9]), "the day's first check, replaced")
        try keep("4,\t3,2,1,6,10", on: "2026-11-16 12:00")  // white space between is read as a comma
    }

    func testTheWindowsDaysAndTheChartsFigures() throws {
        try logTheHistory()
        let rows = try library.withdrawalChecks()
        XCTAssertEqual(rows.map(\.day), ["2026-11-11", "2026-11-13", "2026-11-16"], "one check a day")
        XCTAssertEqual(rows[1].scores, [7, 7, 5, 2, 8, 9])

        let window = try tracker.withdrawalWindow(now: try at("2026-11-16 12:00"), timeZone: berlin)
        XCTAssertEqual(window.day, 6)
        XCTAssertTrue(window.isOpen)
        let chart = try XCTUnwrap(try tracker.withdrawalChart(now: try at("2026-11-16 12:00"), timeZone: berlin))
        XCTAssertEqual(chart.lastUse, LocalDay(parsing: "2026-11-10"))
        XCTAssertEqual(chart.checks.map(\.windowDay), [1, 3, 6])
        XCTAssertEqual(chart.cells(.sleep), [2, nil, 7, nil, nil, 4] + [Int?](repeating: nil, count: 8))
        // A block per day, ▁ for 0 to █ for 10 (score × 8 / 11): 2 ▂, 7 ▆, 4 ▃; 10 █, 8 ▆, 9 ▇.
        XCTAssertEqual(chart.spark(.sleep), "▂·▆··▃········")
        XCTAssertEqual(chart.spark(.craving), "▆·▇··█········")
        // Beside the blocks, each day's score: blocks alone draw some scores alike.
        XCTAssertEqual(chart.summary(.sleep), "2 7 4 · peak 7 on day 3 · last 4 (day 6)")
        XCTAssertEqual(chart.summary(.appetite), "5 2 1 · peak 5 on day 1 · last 1 (day 6)")
        // A tie keeps the earlier day as the peak.
        XCTAssertEqual(chart.summary(.irritability), "3 7 3 · peak 7 on day 3 · last 3 (day 6)")
        XCTAssertEqual(chart.lines.count, 6)
        XCTAssertTrue(chart.lines[0].hasPrefix("Sleep trouble        ▂·▆··▃········  2 7 4 · peak 7"), chart.lines[0])

        // Progress and the report: the section after Days in Progress, with the published line.
        let progress = try tracker.progress(.week, now: try at("2026-11-16 12:00"), timeZone: berlin)
        XCTAssertEqual(progress.withdrawalChart, chart)
        let section = try XCTUnwrap(progress.sections.first(where: { $0.kind == .withdrawal }))
        XCTAssertEqual(section.sentence, WithdrawalWindow.timeCourse)
        XCTAssertTrue(WithdrawalWindow.timeCourse.contains("peak around days 2–6"))
        XCTAssertTrue(WithdrawalWindow.timeCourse.contains("a month or more"))
        let kinds = progress.sections.map(\.kind)
        XCTAssertEqual(kinds.firstIndex(of: .withdrawal), kinds.firstIndex(of: .daysInProgress)! + 1)
        // As of an earlier day, only the checks up to it.
        let report = try tracker.report(
            from: LocalDay(parsing: "2026-11-08")!, to: LocalDay(parsing: "2026-11-13")!,
            now: try at("2026-11-16 12:00"), timeZone: berlin)
        XCTAssertEqual(report.figures.withdrawalChart?.checks.map(\.windowDay), [1, 3])
    }

    func testTheRefusalsKeepNothing() throws {
        try assertRefused("3,5,2,0,4,6", on: "2026-11-11 09:00", anyGoal: true, saying: "no use is logged")
        try logTheHistory()
        for typed in ["3,5,2,0,4", "3,5,2,0,4,11", "a,b,c,d,e,f", "3,5,2,0,4,6,1", "-1,5,2,0,4,6", "", "3.5,5,2,0,4,6"]
        {
            XCTAssertThrowsError(try WithdrawalScores(parsing: typed), typed) { error in
                XCTAssertTrue("\(error)".contains("give six scores from 0 to 10"), "\(error)")
            }
        }
        try assertRefused("3,5,2,0,4,6", on: "2026-11-25 06:00", saying: "15 days ago")
        XCTAssertEqual(try keep("1,1,1,1,1,1", on: "2026-11-24 12:00").check.windowDay, 14, "day 14 is the last")
        try use("2026-11-25 08:00")
        try assertRefused("3,5,2,0,4,6", on: "2026-11-25 20:00", saying: "a use is logged today")
        // A new use opens a new window: the checks before it leave the chart.
        XCTAssertNil(try tracker.withdrawalChart(now: try at("2026-11-25 20:00"), timeZone: berlin))
        XCTAssertEqual(try keep("0,0,0,0,0,0", on: "2026-11-26 20:00").check.windowDay, 1)
        XCTAssertEqual(
            try tracker.withdrawalChart(now: try at("2026-11-26 20:00"), timeZone: berlin)?.checks.count, 1)
    }

    func testOtherGoalsOnlyWhenAsked() throws {
        try use("2026-11-10 21:00")
        try assertRefused("3,5,2,0,4,6", on: "2026-11-12 09:00", saying: "your goal is not set")
        for goal in ["cut-down", "monitor", "harm-reduction", "exploring"] {
            try library.setSetting(.goal, to: goal)
            try assertRefused("3,5,2,0,4,6", on: "2026-11-12 09:00", saying: "your goal is '\(goal)'")
            let window = try tracker.withdrawalWindow(now: try at("2026-11-12 09:00"), timeZone: berlin)
            XCTAssertFalse(window.isOpen, "not offered on its own for \(goal)")
            XCTAssertNil(try tracker.progress(.week, now: try at("2026-11-12 09:00"), timeZone: berlin).withdrawalChart)
        }
        XCTAssertEqual(try keep("3,5,2,0,4,6", on: "2026-11-12 09:00", anyGoal: true).check.windowDay, 2)
        XCTAssertEqual(
            try tracker.progress(.week, now: try at("2026-11-12 09:00"), timeZone: berlin).withdrawalChart?.checks
                .count, 1, "a check asked for is charted")
    }
}
