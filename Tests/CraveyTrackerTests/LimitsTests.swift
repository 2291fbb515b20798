import CraveyLibrary
import CraveyTracker
import Foundation
import XCTest

/// Limits, worked out by hand: whether a time is in a break window (across midnight, on the days
/// the clocks change in Berlin), the weekly trend (Loop Habit Tracker's habit strength for a
/// weekly habit, m = 0.5^(√7/13) ≈ 0.86843), the weeks of a history against a target, the uses
/// that fit a planned use, harm reduction's headline, and the goals limits are absent for.
final class LimitsTests: XCTestCase {
    var base = ""
    var library: Library!
    var tracker: Tracker!
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.path + "/cravey-limits-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        library = try Library(root: base + "/library")
        tracker = Tracker(library: library)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: base) }

    func time(_ text: String) throws -> LogTime {
        try LogTime.parse(text, now: Date(timeIntervalSince1970: 4_000_000_000), timeZone: berlin)
    }

    func use(_ method: Method, _ amount: Double, _ text: String) throws {
        _ = try tracker.logUse(.init(method: method, amount: amount, time: try time(text)), now: try time(text).instant)
    }

    func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    // MARK: - Break windows

    func testAWindowHoldsItsStartNotItsEndAndMayCrossMidnight() throws {
        let evening = try BreakWindow(parsing: "21:00-23:00")
        XCTAssertEqual(evening.text, "21:00–23:00")
        XCTAssertFalse(evening.crossesMidnight)
        for (minute, inside) in [(20 * 60 + 59, false), (21 * 60, true), (22 * 60 + 59, true), (23 * 60, false)] {
            XCTAssertEqual(evening.contains(minute: minute), inside, "\(minute)")
        }
        let night = try BreakWindow(parsing: "22:00-06:00")
        XCTAssertTrue(night.crossesMidnight)
        for (minute, inside) in [
            (21 * 60 + 59, false), (22 * 60, true), (23 * 60 + 30, true), (0, true), (5 * 60 + 59, true),
            (6 * 60, false), (12 * 60, false),
        ] {
            XCTAssertEqual(night.contains(minute: minute), inside, "\(minute)")
        }
        // Up to midnight: 24:00 as an end.
        let late = try BreakWindow(parsing: "22-24")
        XCTAssertEqual(late.text, "22:00–00:00")
        XCTAssertTrue(late.contains(minute: 23 * 60 + 59))
        XCTAssertFalse(late.contains(minute: 0))
        XCTAssertEqual(try BreakWindow(parsing: " 9:30-10 ").text, "09:30–10:00")
    }

    func testAWindowTypedWrongIsRefusedInOneLine() {
        for typed in [
            "21:00", "21:00-21:00", "25:00-26:00", "21:60-22:00", "-1:00-2:00", "ab-cd", "", "21:00-23:00-01:00",
            "２１:00-23:00", "24:00-02:00",
        ] {
            XCTAssertThrowsError(try BreakWindow(parsing: typed), typed) { error in
                XCTAssertFalse("\(error)".contains("\n"), "\(error)")
                XCTAssertTrue("\(error)".contains("HH:MM-HH:MM"), "\(error)")
            }
        }
    }

    /// Berlin, 29 March 2026: at 02:00 the clocks go to 03:00, so a window 02:00–03:00 holds no
    /// moment that day, and 01:30–03:30 holds 01:45 and 03:15 (half an hour apart).
    func testOnTheDayClocksGoForwardASkippedTimeIsInNoWindow() throws {
        let skipped = try BreakWindow(parsing: "02:00-03:00")
        let around = try BreakWindow(parsing: "01:30-03:30")
        // 00:59Z is 01:59 CET; 01:00Z is 03:00 CEST.
        XCTAssertFalse(skipped.contains(utc("2026-03-29T00:59:00Z"), in: berlin))
        XCTAssertFalse(skipped.contains(utc("2026-03-29T01:00:00Z"), in: berlin))
        XCTAssertEqual(BreakWindow.minute(of: utc("2026-03-29T01:00:00Z"), in: berlin), 3 * 60)
        XCTAssertTrue(around.contains(utc("2026-03-29T00:45:00Z"), in: berlin), "01:45 CET")
        XCTAssertTrue(around.contains(utc("2026-03-29T01:15:00Z"), in: berlin), "03:15 CEST")
        XCTAssertFalse(around.contains(utc("2026-03-29T01:31:00Z"), in: berlin), "03:31 CEST")
    }

    /// Berlin, 25 October 2026: at 03:00 the clocks go back to 02:00, so 02:30 comes twice —
    /// in a window 02:00–03:00 both times — and 03:00 CET (02:00Z) is past it.
    func testOnTheDayClocksGoBackATimeThatComesTwiceIsInTheWindowBothTimes() throws {
        let window = try BreakWindow(parsing: "02:00-03:00")
        XCTAssertTrue(window.contains(utc("2026-10-25T00:30:00Z"), in: berlin), "02:30 CEST")
        XCTAssertTrue(window.contains(utc("2026-10-25T01:30:00Z"), in: berlin), "02:30 CET")
        XCTAssertFalse(window.contains(utc("2026-10-25T02:00:00Z"), in: berlin), "03:00 CET")
        XCTAssertFalse(window.contains(utc("2026-10-24T23:59:00Z"), in: berlin), "01:59 CEST")
    }

    // MARK: - The trend

    func testTheTrendIsLoopsHabitStrengthForAWeeklyHabit() {
        XCTAssertEqual(LimitProgress.weekMultiplier, 0.868_429_517, accuracy: 1e-9)
        // Within, within, over, within: 0.13157, 0.24583, 0.21349, 0.31697.
        let trend = LimitProgress.trend([true, true, false, true])
        for (value, expected) in zip(trend, [0.131_570_483, 0.245_830_173, 0.213_486_179, 0.316_968_182]) {
            XCTAssertEqual(value, expected, accuracy: 1e-8)
        }
        // A week over the target lowers it by an eighth of where it stood, never to zero.
        XCTAssertEqual(trend[2] / trend[1], LimitProgress.weekMultiplier, accuracy: 1e-12)
        XCTAssertEqual(LimitProgress.trend([]), [])
    }

    /// Goal cut-down, at most 2 days of use a week (set on Sun 1 Nov); today Wed 25 Nov 2026.
    /// Weeks from the first log (Mon 2 Nov): 2–8 Nov two days (within), 9–15 Nov three days (over), 16–22 Nov one day
    /// (within); this week so far two days. The trend: 0.13157, 0.11426, 0.23080 → 23%.
    func testTheWeeksOfAHistoryAgainstADaysTarget() throws {
        try library.setSetting(.goal, to: "cut-down")
        for day in [
            "2026-11-02 20:00", "2026-11-04 20:00", "2026-11-09 20:00", "2026-11-10 20:00",
            "2026-11-11 20:00", "2026-11-11 22:00", "2026-11-20 20:00", "2026-11-23 20:00", "2026-11-24 20:00",
        ] {
            try use(.vape, 2, day)
        }
        try tracker.setWeeklyTarget(.days(2), now: try time("2026-11-01 12:00").instant)
        let progress = try tracker.progress(.all, now: try time("2026-11-25 12:00").instant, timeZone: berlin)
        let limits = try XCTUnwrap(progress.limits)
        XCTAssertEqual(limits.weeks.map(\.start.text), ["2026-11-02", "2026-11-09", "2026-11-16"])
        XCTAssertEqual(limits.weeks.map(\.daysUsed), [2, 3, 1])
        XCTAssertEqual(limits.weeks.map(\.within), [true, false, true])
        XCTAssertEqual(limits.thisWeek?.daysUsed, 2)
        XCTAssertEqual(limits.trend.count, 3)
        XCTAssertEqual(limits.trend[2], 0.230_796_971, accuracy: 1e-8)
        XCTAssertEqual(limits.strengthPercent, 23)
        XCTAssertEqual(limits.trendLine, "Within target: 23% (smoothed) · 2 of the last 3 weeks")
        XCTAssertEqual(limits.spark, "▂▁▂")
        XCTAssertTrue(progress.sections.contains { $0.kind == .limits })
        XCTAssertFalse(limits.lines.joined().lowercased().contains("streak"))
    }

    /// The same history against an amount: at most 5 pulls a week (set on Sun 1 Nov, changed
    /// since: the weeks since the first are judged). Week 1 has 4, week 2 has 8,
    /// week 3 has 2: within, over, within.
    func testTheWeeksAgainstAnAmountOfAMethod() throws {
        try library.setSetting(.goal, to: "cut-down")
        for (amount, day) in [
            (2.0, "2026-11-02 20:00"), (2, "2026-11-04 20:00"), (4, "2026-11-09 20:00"),
            (4, "2026-11-10 20:00"), (2, "2026-11-20 20:00"),
        ] {
            try use(.vape, amount, day)
        }
        try use(.dab, 5, "2026-11-10 21:00")  // no target for dabs
        try tracker.setWeeklyTarget(.amounts([.vape: 3]), now: try time("2026-11-01 12:00").instant)
        try tracker.setWeeklyTarget(.amounts([.vape: 5]), now: try time("2026-11-25 12:00").instant)
        let limits = try XCTUnwrap(
            try tracker.progress(.all, now: try time("2026-11-25 12:00").instant, timeZone: berlin).limits)
        XCTAssertEqual(limits.weeks.map { $0.amounts[.vape] ?? 0 }, [4, 8, 2])
        XCTAssertEqual(limits.weeks.map(\.within), [true, false, true])
        XCTAssertEqual(limits.limits.week?.text, "at most 5 pulls (vape) a week")
        for typed in ["vape=0x10", "vape=1e3", "vape=inf", "vape=", "vape=2.5.1", "vape=-1", "vape=0", "vape=10001"] {
            XCTAssertThrowsError(try WeeklyTarget.amount(parsing: typed), typed)
        }
        XCTAssertEqual(try WeeklyTarget.amount(parsing: "edible=12.5").1, 12.5)
    }

    /// Cut-down, at most 2 days of use a week, set on Tue 10 Nov; today Wed 25 Nov. The uses of
    /// 2–8 Nov came before the target: that week is not judged. 9–15 Nov has nothing logged: it is
    /// said as such and leaves the trend where it was. 16–22 Nov has a craving and no use: within.
    /// One judged week: 0.13157, 13%.
    func testAWeekBeforeTheTargetIsNotJudgedAndAnEmptyWeekIsSaidAsSuch() throws {
        try library.setSetting(.goal, to: "cut-down")
        for day in ["2026-11-02 20:00", "2026-11-03 20:00", "2026-11-04 20:00"] { try use(.vape, 2, day) }
        _ = try tracker.logCraving(
            .init(intensity: 6, time: try time("2026-11-17 20:00")), now: utc("2026-11-17T20:00:00Z"))
        try tracker.setWeeklyTarget(.days(2), now: try time("2026-11-10 12:00").instant)
        // Changed on the 12th: a target was set since the 10th.
        try tracker.setWeeklyTarget(.days(1), now: try time("2026-11-12 12:00").instant)
        let limits = try XCTUnwrap(
            try tracker.progress(.all, now: try time("2026-11-25 12:00").instant, timeZone: berlin).limits)
        XCTAssertEqual(limits.weeks.map(\.start.text), ["2026-11-09", "2026-11-16"])
        XCTAssertEqual(limits.weeks.map(\.logged), [false, true])
        XCTAssertEqual(limits.weeks.map(\.within), [false, true])
        XCTAssertEqual(limits.trend.count, 1)
        XCTAssertEqual(limits.trend[0], 0.131_570_483, accuracy: 1e-8)
        XCTAssertEqual(
            limits.trendLine, "Within target: 13% (smoothed) · 1 of the last 2 weeks · 1 with nothing logged")
        XCTAssertTrue(limits.lines.contains("This week so far: nothing logged yet"), "\(limits.lines)")
        let json = String(decoding: try JSONEncoder().encode(limits), as: UTF8.self)
        XCTAssertTrue(json.contains("\"logged\":false") && json.contains("\"within\":null"), json)

        // Set only today: no complete week yet, whatever came before.
        _ = try tracker.clearLimits(.week)
        try tracker.setWeeklyTarget(.days(2), now: try time("2026-11-25 12:00").instant)
        let fresh = try XCTUnwrap(
            try tracker.progress(.all, now: try time("2026-11-25 12:00").instant, timeZone: berlin).limits)
        XCTAssertEqual(fresh.weeks, [])
        XCTAssertEqual(fresh.trendLine, "The trend starts after your first full week.")
    }

    /// Planned bowls, up to 1 a day, 20:00–02:00: the hours run by the clock across midnight, so
    /// 23:00 fits and 01:00 that night is the evening's second, over the amount (counted by the
    /// calendar day, it would be a new day's first): 1 of 2.
    func testPlannedHoursAcrossMidnightRunToTheirEnd() throws {
        try library.setSetting(.goal, to: "harm-reduction")
        try use(.bowls, 1, "2026-11-23 23:00")
        try use(.bowls, 1, "2026-11-24 01:00")
        try tracker.setPlannedUse(
            try PlannedUse(methods: "bowls", perDay: "1", hours: "20-2"), now: try time("2026-11-20 12:00").instant)
        let plan = try XCTUnwrap(try tracker.limits().planned)
        XCTAssertEqual(plan.plannedDay(100, minute: 90), 99)
        XCTAssertEqual(plan.plannedDay(100, minute: 120), 100, "02:00 is past the hours")
        XCTAssertEqual(plan.plannedDay(100, minute: 23 * 60), 100)
        let limits = try XCTUnwrap(
            try tracker.progress(.week, now: try time("2026-11-25 12:00").instant, timeZone: berlin).limits)
        XCTAssertEqual(limits.asPlanned?.count, 1)
        XCTAssertEqual(limits.asPlanned?.of, 2)
    }

    // MARK: - As planned

    func testAUseFitsThePlanByMethodHourAndTheDaysEarlierAmount() throws {
        let plan = try PlannedUse(methods: "vape,edible", perDay: "3", hours: "18-23")
        XCTAssertEqual(plan.text, "vape or edible, up to 3 a day, 18:00–23:00")
        XCTAssertTrue(plan.fits(method: .vape, amount: 2, minute: 19 * 60, earlier: 0))
        XCTAssertTrue(plan.fits(method: .vape, amount: 1, minute: 19 * 60, earlier: 2), "2 + 1 is 3")
        XCTAssertFalse(plan.fits(method: .vape, amount: 2, minute: 20 * 60, earlier: 2), "2 + 2 is more than 3")
        XCTAssertFalse(plan.fits(method: .dab, amount: 1, minute: 19 * 60, earlier: 0), "not a planned method")
        XCTAssertFalse(plan.fits(method: .vape, amount: 1, minute: 23 * 60, earlier: 0), "23:00 is past the hours")
        XCTAssertFalse(plan.fits(method: .vape, amount: 1, minute: 17 * 60 + 59, earlier: 0))
        let night = try PlannedUse(methods: "bowls", perDay: "1", hours: "20-2")
        XCTAssertTrue(night.inHours(minute: 60 + 30))
        XCTAssertFalse(night.inHours(minute: 2 * 60))
        for (methods, perDay, hours) in [
            ("", "3", "18-23"), ("weed", "3", "18-23"), ("vape", "0", "18-23"),
            ("vape", "-1", "18-23"), ("vape", "0x10", "18-23"), ("vape", "1e3", "18-23"), ("vape", "3", "18-18"),
            ("vape", "3", "18"), ("vape", "3", "25-2"),
            ("vape", "nan", "1-2"),
        ] {
            XCTAssertThrowsError(
                try PlannedUse(methods: methods, perDay: perDay, hours: hours), "\(methods) \(perDay) \(hours)")
        }
    }

    /// Harm reduction, planned: vape up to 3 a day, 18–23. Five uses in the week: 19:00 vape 2
    /// (fits), 20:00 vape 2 (4 that day: not), 19:30 dab 1 (not planned), 23:30 vape 1 (past the
    /// hours), next day 18:00 vape 1 (fits): "2 of 5 uses as planned" heads progress.
    func testHarmReductionsHeadlineIsUsesAsPlanned() throws {
        try library.setSetting(.goal, to: "harm-reduction")
        try use(.vape, 2, "2026-11-23 19:00")
        try use(.vape, 2, "2026-11-23 20:00")
        try use(.dab, 1, "2026-11-23 19:30")
        try use(.vape, 1, "2026-11-23 23:30")
        try use(.vape, 1, "2026-11-24 18:00")
        try tracker.setPlannedUse(
            try PlannedUse(methods: "vape", perDay: "3", hours: "18-23"), now: try time("2026-11-25 12:00").instant)
        try tracker.setWeeklyTarget(.days(3), now: try time("2026-11-25 12:00").instant)
        _ = try tracker.addBreak(try BreakWindow(parsing: "23:00-01:00"), now: try time("2026-11-25 12:00").instant)
        let progress = try tracker.progress(.week, now: try time("2026-11-25 12:00").instant, timeZone: berlin)
        let limits = try XCTUnwrap(progress.limits)
        XCTAssertEqual(limits.asPlanned?.count, 2)
        XCTAssertEqual(limits.asPlanned?.of, 5)
        XCTAssertEqual(limits.inBreaks, 1, "23:30")
        XCTAssertEqual(progress.currentStreakTitle, ProgressFigures.asPlannedTitle)
        XCTAssertEqual(progress.currentStreakText, "2 of 5 uses as planned")
        XCTAssertEqual(progress.sections.first { $0.kind == .currentStreak }?.title, "🤝 Uses as Planned")
    }

    // MARK: - Goals

    func testLimitsAreAbsentForOtherGoalsUnlessAsked() throws {
        let now = try time("2026-11-25 12:00").instant
        try library.setSetting(.goal, to: "quit")
        XCTAssertThrowsError(try tracker.addBreak(try BreakWindow(parsing: "21:00-23:00"), now: now)) { error in
            XCTAssertTrue("\(error)".contains("--offer any-goal"), "\(error)")
        }
        XCTAssertEqual(try library.limitRows(), [], "nothing written")
        try tracker.offerLimits(anyGoal: true)
        XCTAssertTrue(try tracker.addBreak(try BreakWindow(parsing: "21:00-23:00"), now: now))
        XCTAssertFalse(try tracker.addBreak(try BreakWindow(parsing: "21:00-23:00"), now: now), "kept already")
        XCTAssertNotNil(try tracker.breakWindow(at: try time("2026-11-25 21:30").instant, timeZone: berlin))
        XCTAssertNotNil(try tracker.progress(.week, now: now, timeZone: berlin).limits)
        try tracker.offerLimits(anyGoal: false)
        XCTAssertNil(try tracker.breakWindow(at: try time("2026-11-25 21:30").instant, timeZone: berlin))
        XCTAssertNil(try tracker.progress(.week, now: now, timeZone: berlin).limits)
        try library.setSetting(.goal, to: "cut-down")
        XCTAssertNotNil(try tracker.breakWindow(at: try time("2026-11-25 21:30").instant, timeZone: berlin))
        XCTAssertNil(try tracker.breakWindow(at: try time("2026-11-25 23:00").instant, timeZone: berlin))
        XCTAssertEqual(try tracker.removeBreak(1).text, "21:00–23:00")
        XCTAssertThrowsError(try tracker.removeBreak(1))
    }
}
