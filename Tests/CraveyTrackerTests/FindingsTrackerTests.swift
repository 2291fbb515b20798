import CraveyLibrary
import Foundation
import XCTest

@testable import CraveyTracker

/// What outside probes found in the tracker's pure parts: the nudge's moment as the clock really
/// runs on the days the clocks change (Europe/London), the withdrawal chart's scale telling every
/// score 0–10 apart with the numbers beside it, and a day far back said with its year.
final class FindingsTrackerTests: XCTestCase {
    let london = TimeZone(identifier: "Europe/London")!

    /// `year`-`month`-`day` at `hour`:`minute` UTC.
    func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        let number = LocalDay(year: year, month: month, day: day).number
        return Date(timeIntervalSince1970: Double(number * 86_400 + hour * 3_600 + minute * 60))
    }

    func hour(_ hour: Int) -> HardHour.Finding { .hour(HardHour(hour: hour, inHour: 5, cravings: 12)) }

    /// March 28, 2027: at 01:00 UTC London's clocks go from 1 AM to 2 AM. A hard hour of 2 AM
    /// begins at 01:00 UTC: its nudge comes 15 real minutes before, at 12:45 AM — not at 1:45,
    /// a time that day has not.
    func testTheNudgeOnTheDayTheClocksGoForward() {
        let day = LocalDay(year: 2027, month: 3, day: 28)
        XCTAssertEqual(Nudge.start(of: 2, on: day, in: london), utc(2027, 3, 28, 1))
        XCTAssertEqual(Nudge.moment(before: 2, on: day, in: london), utc(2027, 3, 28, 0, 45))
        // 1 AM does not come that day: its hour begins as the clocks jump.
        XCTAssertEqual(Nudge.moment(before: 1, on: day, in: london), utc(2027, 3, 28, 0, 45))
        // 3 AM (BST) is 02:00 UTC: 2:45 AM on the clock, which that day has.
        XCTAssertEqual(Nudge.moment(before: 3, on: day, in: london), utc(2027, 3, 28, 1, 45))
        XCTAssertEqual(
            Nudge.next(hour(2), state: Nudge.State(), scheduled: nil, now: utc(2027, 3, 27, 12), in: london),
            utc(2027, 3, 28, 0, 45))
        // At 12:50 AM the hour is 10 real minutes away: the nudge shows.
        let decided = Nudge.decide(
            hour(2), state: Nudge.State(), cravings: [], uses: [], now: utc(2027, 3, 28, 0, 50), in: london)
        XCTAssertEqual(decided, .show(HardHour(hour: 2, inHour: 5, cravings: 12)))
        XCTAssertEqual(
            Nudge.decide(
                hour(2), state: Nudge.State(), cravings: [], uses: [], now: utc(2027, 3, 28, 0, 20), in: london),
            .quiet(.notTheTime(HardHour(hour: 2, inHour: 5, cravings: 12))), "40 real minutes before: not yet")
        // The next day runs as every day: 1:45 AM (BST) is 00:45 UTC.
        XCTAssertEqual(
            Nudge.next(
                hour(2), state: Nudge.State(lastShown: utc(2027, 3, 28, 0, 45)), scheduled: nil,
                now: utc(2027, 3, 28, 1), in: london),
            utc(2027, 3, 29, 0, 45))
    }

    /// October 25, 2026: 1 AM comes twice (BST, then GMT); the nudge is before the first.
    func testTheNudgeOnTheDayTheClocksGoBack() {
        let day = LocalDay(year: 2026, month: 10, day: 25)
        XCTAssertEqual(Nudge.start(of: 1, on: day, in: london), utc(2026, 10, 25, 0))
        XCTAssertEqual(Nudge.moment(before: 2, on: day, in: london), utc(2026, 10, 25, 1, 45))
        // An ordinary summer evening: 9 PM BST is 20:00 UTC.
        XCTAssertEqual(
            Nudge.moment(before: 21, on: LocalDay(year: 2026, month: 7, day: 1), in: london), utc(2026, 7, 1, 19, 45))
    }

    func testTheWithdrawalScaleTellsEveryScoreApart() {
        XCTAssertEqual(WithdrawalChart.scale, "▁ 0–1 ▂ 2 ▃ 3–4 ▄ 5 ▅ 6 ▆ 7–8 ▇ 9 █ 10")
        for score in 0...10 {
            let glyph = WithdrawalChart.block(score)
            XCTAssertTrue(WithdrawalChart.scale.contains("\(glyph) "), "\(score): \(glyph) is in the scale")
        }
        let chart = WithdrawalChart(
            lastUse: LocalDay(year: 2026, month: 11, day: 10),
            checks: [0, 1, 3, 4].enumerated().map { index, score in
                WithdrawalCheck(
                    day: LocalDay(year: 2026, month: 11, day: 11 + index), windowDay: index + 1,
                    scores: WithdrawalScores(Array(repeating: score, count: 6)))
            })
        // 0 and 1 share a block, as 3 and 4 do: the numbers beside it tell them apart.
        XCTAssertEqual(chart.spark(.sleep), "▁▁▃▃··········")
        XCTAssertEqual(chart.summary(.sleep), "0 1 3 4 · peak 4 on day 4 · last 4 (day 4)")
        XCTAssertTrue(chart.axis.hasSuffix("; ▁ 0–1 ▂ 2 ▃ 3–4 ▄ 5 ▅ 6 ▆ 7–8 ▇ 9 █ 10"), chart.axis)
    }

    func testADayFarBackIsSaidWithItsYear() {
        let today = LocalDay(year: 2026, month: 11, day: 20)
        XCTAssertEqual((today - 3).daysAgo(on: today), "3 days ago (Nov 17)")
        XCTAssertEqual((today - 1).daysAgo(on: today), "1 day ago (Nov 19)")
        XCTAssertEqual((today - 300).said(on: today), "Jan 24")
        XCTAssertEqual((today - 301).said(on: today), "Jan 23, 2026")
        XCTAssertEqual((today - 468).daysAgo(on: today), "468 days ago (Aug 9, 2025)")
        XCTAssertEqual((today + 301).said(on: today), "Sep 17, 2027", "far ahead too")
    }
}
