import CraveyLibrary
import CraveyTracker
import Foundation
import XCTest

/// The dashboard's sections and series are the tracker's, one list the terminal and the page
/// both draw: the order, the longest streak left out where the goal speaks of use only, Money
/// kept only with a price, and each chart's series worked out by hand.
extension ProgressTests {
    func sectionFigures(_ range: ProgressRange = .week) throws -> ProgressFigures {
        try tracker.progress(range, now: try at("2026-11-10 21:00").instant, timeZone: berlin)
    }

    func testTheSectionsInTheirOrder() throws {
        let kinds: [ProgressSection.Kind] = [
            .summary, .currentStreak, .longestStreak, .daysInProgress, .intensity, .amounts, .triggers, .locations,
            .timeOfDay, .weekdays, .methods, .resisted, .reduction, .messages, .cravingLength, .milestones,
        ]
        let empty = try sectionFigures()
        XCTAssertEqual(empty.sections.map(\.kind), kinds)
        XCTAssertEqual(empty.sections[1].sentence, ProgressFigures.startLogging, "no streak yet: start logging")
        XCTAssertNil(empty.sections[2].sentence, "the longest streak has a figure only")
        XCTAssertEqual(empty.sections.last?.title, ProgressFigures.milestonesTitle)
        XCTAssertEqual(empty.sections.last?.sentence, empty.milestonesSentence)

        try tracker.library.setSetting(.goal, to: Goal.harmReduction.rawValue)
        try tracker.setPrice(1000, for: .bowls)
        _ = try tracker.logUse(.init(method: .bowls, amount: 1, time: try at("2026-11-09 20:00")), now: Date())
        let harm = try sectionFigures()
        XCTAssertFalse(harm.sections.contains { $0.kind == .longestStreak }, "harm reduction speaks of use only")
        let money = try XCTUnwrap(harm.sections.first { $0.kind == .money })
        XCTAssertEqual(money.title, MoneyKept.title)
        XCTAssertEqual(
            harm.sections.firstIndex { $0.kind == .money }, harm.sections.firstIndex { $0.kind == .reduction }! + 1)
        // Every sentence the section list carries is one of the figures' own.
        XCTAssertTrue(harm.insights.allSatisfy { insight in harm.sections.contains { $0.sentence == insight } })
    }

    func testTheSeriesEachChartDraws() throws {
        _ = try tracker.logCraving(.init(intensity: 2, time: try at("2026-11-04 00:30")), now: Date())
        _ = try tracker.logCraving(.init(intensity: 8, time: try at("2026-11-04 01:00")), now: Date())
        _ = try tracker.logCraving(.init(intensity: 5, time: try at("2026-11-10 20:00")), now: Date())
        _ = try tracker.logUse(.init(method: .bowls, amount: 1, time: try at("2026-11-04 20:00")), now: Date())
        _ = try tracker.logUse(.init(method: .bowls, amount: 2, time: try at("2026-11-05 20:00")), now: Date())
        let week = try sectionFigures()
        XCTAssertEqual(week.dayCount, 7)
        XCTAssertEqual(week.middleDay.text, "2026-11-07")
        // Seven slices, a day each: the first day's two cravings meet in one mean.
        XCTAssertEqual(week.intensityMeans(slices: 7).map(\.slice), [0, 6])
        XCTAssertEqual(week.intensityMeans(slices: 7).map(\.mean), [5, 5])
        let bowls = try XCTUnwrap(week.amounts.first { $0.method == .bowls }?.points)
        XCTAssertEqual(week.amountColumns(bowls, most: 180), [1, 2, 0, 0, 0, 0, 0], "a column a day")
        XCTAssertEqual(week.amountColumns(bowls, most: 3), [2, 0, 0], "the busiest of the days a column holds")
    }
}
