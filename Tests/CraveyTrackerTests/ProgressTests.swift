import CraveyLibrary
import CraveyTestSupport
import CraveyTracker
import Foundation
import XCTest

/// The dashboard's figures and sentences on small data sets worked out by hand, read back from a
/// real library database; local days in Berlin (clocks change on 2026-03-29 and 2026-10-25).
final class ProgressTests: XCTestCase {
    var base = ""
    var tracker: Tracker!
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.path + "/cravey-progress-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        tracker = Tracker(library: try Library(root: base + "/library"))
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: base) }

    /// A wall-clock time ("2026-10-12 21:05") in Berlin, or in `zone`.
    func at(_ text: String, in zone: TimeZone? = nil) throws -> LogTime {
        try LogTime.parse(text, now: Date(timeIntervalSince1970: 4_000_000_000), timeZone: zone ?? berlin)
    }

    @discardableResult
    func craving(_ intensity: Int, _ time: String, triggers: Set<Trigger> = [], place: Location? = nil) throws
        -> Craving
    {
        try tracker.logCraving(
            .init(intensity: intensity, time: try at(time), triggers: triggers, location: place), now: Date())
    }

    @discardableResult
    func use(
        _ time: String, _ method: Method = .bowls, _ amount: Double? = nil, after craving: Craving? = nil,
        in zone: TimeZone? = nil,
        triggers: Set<Trigger> = [], place: Location? = nil
    ) throws -> Usage {
        try tracker.logUse(
            .init(
                method: method, amount: amount, time: try at(time, in: zone), triggers: triggers, location: place,
                cravingId: craving?.id), now: Date())
    }

    func progress(_ range: ProgressRange = .week, now: String) throws -> ProgressFigures {
        let figures = try tracker.progress(range, now: try at(now).instant, timeZone: berlin)
        // The figures from every craving are the same as from those the range reads.
        let whole = ProgressFigures(
            try tracker.progressFacts(), range: range, now: try at(now).instant, timeZone: berlin)
        XCTAssertEqual(try JSONText.data(whole), try JSONText.data(figures))
        return figures
    }

    func json(_ progress: ProgressFigures) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: JSONText.data(progress)) as! [String: Any]
    }

    /// No sentence judges: no warning, nothing broken or failed.
    func assertKind(_ p: ProgressFigures, file: StaticString = #filePath, line: UInt = #line) {
        for sentence in p.insights {
            for word in ["fail", "broke", "warning", "relapse", "lost", "reset your"] {
                XCTAssertFalse(sentence.lowercased().contains(word), sentence, file: file, line: line)
            }
        }
    }

    /// The words of someone who set out to quit: the seed's own.
    func chooseToQuit() throws { try tracker.library.setSetting(.goal, to: Goal.quit.rawValue) }

    func testEmpty() throws {
        try chooseToQuit()
        let p = try progress(now: "2026-10-12 12:00")
        XCTAssertEqual(p.summaryLine, "0 Cravings • 0 Uses")
        XCTAssertEqual(p.summaryInsight, "Start logging to see your patterns! 💪")
        XCTAssertEqual(p.intensityInsight, "Log your first craving to see intensity trends! 📈")
        XCTAssertEqual(p.reductionInsight, "Track usage to see your reduction over time! 📉")
        XCTAssertNil(p.currentStreak)
        XCTAssertNil(p.longestStreak)
        XCTAssertNil(p.daysInProgress)
        XCTAssertNil(p.daysSinceLastUse)
        XCTAssertEqual(p.from.text, "2026-10-06")
        let j = try json(p)
        XCTAssertEqual(j["range"] as? String, "7d")
        for key in ["currentStreak", "longestStreak", "daysInProgress", "daysSinceLastUse"] {
            XCTAssertTrue(j[key] is NSNull, key)
        }
        XCTAssertEqual(((j["intensity"] as? [String: Any])?["points"] as? [Any])?.count, 0)
        XCTAssertTrue((j["resisted"] as? [String: Any])?["percent"] is NSNull)
        XCTAssertTrue((j["reduction"] as? [String: Any])?["percent"] is NSNull)
        XCTAssertEqual((j["timeOfDay"] as? [String: Any])?["hours"] as? [Int], Array(repeating: 0, count: 24))
        XCTAssertEqual((j["weekdays"] as? [String: Any])?["days"] as? [Int], Array(repeating: 0, count: 7))
        assertKind(p)
    }

    func testOneCraving() throws {
        try chooseToQuit()
        try craving(8, "2026-10-12 20:15")
        // 45 minutes on, the craving is open: neither resisted nor not.
        let open = try progress(now: "2026-10-12 21:00")
        XCTAssertEqual(open.resisted, 0)
        XCTAssertEqual(open.openCravings, 1)
        XCTAssertNil(open.resistedPercent)
        let p = try progress(now: "2026-10-12 22:30")
        XCTAssertEqual(p.summaryLine, "1 Craving • 0 Uses")
        XCTAssertEqual(p.summaryInsight, "You're building awareness! 💪")
        XCTAssertEqual(p.intensityInsight, ProgressFigures.keepLogging)
        XCTAssertEqual(p.timeInsight, ProgressFigures.oneCravingTime)
        XCTAssertEqual(p.currentStreak, 1, "today counts while it has no use")
        XCTAssertEqual(p.currentStreakInsight, "Keep going!")
        XCTAssertEqual(p.longestStreakText, "1 day (Oct 12)")
        XCTAssertEqual(p.daysInProgress, 1)
        XCTAssertEqual(p.resisted, 1)
        XCTAssertEqual(p.resistedText, "1 craving resisted — each one counts")
        XCTAssertEqual(p.reductionInsight, ProgressFigures.trackUsage)
        XCTAssertEqual(p.hours[20], 1)
        XCTAssertEqual(p.weekdays, [1, 0, 0, 0, 0, 0, 0], "2026-10-12 is a Monday")
        assertKind(p)
    }

    /// Every craving named a trigger, or only some: "triggered both" says so of every one.
    func testTheMainTriggerAmongCravingsThatNamedNone() throws {
        try craving(8, "2026-10-16 20:10", triggers: [.anxious])
        try craving(6, "2026-10-17 22:30", triggers: [.anxious])
        try craving(5, "2026-10-17 23:00")
        XCTAssertEqual(try progress(now: "2026-10-18 09:00").triggerInsight, "💡 Anxious is your main trigger")
    }

    func testTwoCravingsFallingRisingAndTheSame() throws {
        // Friday 20:10 and Saturday 22:30, both anxious, both at home.
        let first = try craving(8, "2026-10-16 20:10", triggers: [.anxious], place: .home)
        let second = try craving(6, "2026-10-17 22:30", triggers: [.anxious], place: .home)
        var p = try progress(now: "2026-10-18 09:00")
        XCTAssertEqual(p.intensityInsight, "Your intensity dropped from 8/10 to 6/10. That's progress! 📉")
        XCTAssertEqual(p.locationInsight, "Both cravings at Home. Where you are can set off a craving. 🏠")
        XCTAssertEqual(p.triggerInsight, "Anxious triggered both cravings. This is your main pattern right now.")
        XCTAssertEqual(p.triggers, [ProgressFigures.Share(name: "anxious", label: "Anxious", count: 2, percent: 100)])
        XCTAssertEqual(p.timeInsight, "Most cravings: 8–11 PM")
        XCTAssertEqual(p.weekdayInsight, "Highest: Friday, Saturday")
        XCTAssertEqual(p.daysInProgress, 3)
        XCTAssertEqual(p.currentStreak, 3)

        _ = try tracker.edit(
            {
                var c = first; c.intensity = 6; return c
            }(), now: Date())
        _ = try tracker.edit(
            {
                var c = second; c.intensity = 8; c.triggers = [.anxious, .social]; c.location = .work; return c
            }(), now: Date())
        p = try progress(now: "2026-10-18 09:00")
        // No goal chosen: no "recovery" (that is for a goal to quit or cut down).
        XCTAssertEqual(
            p.intensityInsight, "Intensity increased to 8/10. Every log helps you understand your pattern. 💪")
        XCTAssertEqual(p.triggerInsight, "Anxious triggered both cravings. This is your main pattern right now.")
        XCTAssertEqual(p.triggers.map(\.percent), [67, 33], "shares of all triggers named")
        XCTAssertEqual(p.locationInsight, "Cravings at Home and Work, 50% each. Where you are can set off a craving. 🏠")

        _ = try tracker.edit(
            {
                var c = second; c.intensity = 6; c.triggers = [.bored]; return c
            }(), now: Date())
        p = try progress(now: "2026-10-18 09:00")
        XCTAssertEqual(p.intensityInsight, "Consistent intensity (6/10). Tracking helps you spot patterns over time.")
        XCTAssertEqual(p.triggerInsight, "💡 Anxious and Bored are your main triggers")
        assertKind(p)
    }

    func testTheTrendIsTheFirstQuarterAgainstTheLast() throws {
        for (day, intensity) in [9, 7, 8, 6, 5, 4, 3, 5].enumerated() {
            try craving(intensity, "2026-10-\(10 + day) 12:00")
        }
        let p = try progress(.month, now: "2026-10-18 12:00")
        XCTAssertEqual(p.intensityTrend?.first, 8, "mean of 9 and 7")
        XCTAssertEqual(p.intensityTrend?.last, 4, "mean of 3 and 5")
        XCTAssertEqual(p.intensityInsight, "Your intensity dropped from 8/10 to 4/10. That's progress! 📉")
    }

    func testAWeekWithAUseOnDayThree() throws {
        try chooseToQuit()
        try craving(7, "2026-10-10 19:00")
        try use("2026-10-12 21:00", .vape, 4)
        let p = try progress(now: "2026-10-16 10:00")
        XCTAssertEqual(p.currentStreak, 4, "Oct 13, 14, 15, 16")
        XCTAssertEqual(
            p.longestStreak,
            ProgressFigures.Streak(
                days: 4, from: LocalDay(year: 2026, month: 10, day: 13), to: LocalDay(year: 2026, month: 10, day: 16)))
        XCTAssertEqual(p.longestStreakText, "4 days (Oct 13–16)")
        XCTAssertEqual(p.daysInProgress, 7)
        XCTAssertEqual(p.daysSinceLastUseText, "4 days since your last logged use")
        XCTAssertEqual(p.reduction, .firstWeek)
        XCTAssertEqual(p.summaryLine, "1 Craving • 1 Use")
        XCTAssertEqual(p.methods, [ProgressFigures.Share(name: "vape", label: "Vape", count: 1, percent: 100)])
        XCTAssertEqual(p.amounts.first?.method, .vape)
        XCTAssertEqual(
            p.amounts.first?.points,
            [ProgressFigures.AmountPoint(day: LocalDay(year: 2026, month: 10, day: 12), amount: 4)])
        XCTAssertEqual(p.amountsInsight, "In all: 4 pulls.")
        // A use today: the streak is 0 days, said kindly; the longest stays.
        try use("2026-10-16 09:00")
        let q = try progress(now: "2026-10-16 10:00")
        XCTAssertEqual(q.currentStreak, 0)
        XCTAssertEqual(q.currentStreakInsight, "Every day is a fresh start. 💪")
        XCTAssertEqual(q.longestStreakText, "3 days (Oct 13–15)")
        XCTAssertNil(q.currentStreakText, "a streak of 0 is not shown")
        XCTAssertEqual(q.currentStreakTitle, "Current Streak", "no fire while it does not count")
        XCTAssertNil(q.daysSinceLastUseText, "shown only while it counts")
        XCTAssertEqual(q.daysInProgress, 7, "Days in Progress never resets")
        assertKind(q)
    }

    func testDaysAcrossAChangeOfClocksAndTimeZones() throws {
        // The clocks went back in Berlin on 2026-10-25 (that day had 25 hours).
        try use("2026-10-23 23:30")
        let p = try progress(now: "2026-10-27 00:30")
        XCTAssertEqual(p.currentStreak, 4, "Oct 24, 25, 26 and 27: four days, though only 3 days and 2 hours passed")
        XCTAssertEqual(p.daysSinceLastUse, 4)
        XCTAssertEqual(p.daysInProgress, 5)
        // A log's day is the one on its own clock: 22:00 in New York on Oct 26 was Oct 27 in Berlin.
        try use("2026-10-26 22:00", in: TimeZone(identifier: "America/New_York")!)
        let q = try progress(now: "2026-10-27 00:30")
        XCTAssertEqual(q.daysSinceLastUse, 1)
        XCTAssertEqual(q.currentStreak, 1, "Oct 27 has no use on its own clock")
        XCTAssertEqual(q.longestStreakText, "2 days (Oct 24–25)")
        // The clocks went forward on 2026-03-29 (23 hours): a craving at 23:30 that night is on the 29th.
        try craving(5, "2026-03-29 23:30")
        XCTAssertEqual(LocalDay(try at("2026-03-29 23:30")).text, "2026-03-29")
        XCTAssertEqual(LocalDay(try at("2026-03-29 00:30")).text, "2026-03-29")
        let r = try progress(.all, now: "2026-10-27 00:30")
        XCTAssertEqual(r.from.text, "2026-03-29")
        XCTAssertEqual(r.daysInProgress, 213, "Mar 29 to Oct 27, both counted")
        XCTAssertEqual(r.longestStreakText, "208 days (Mar 29–Oct 22)")
    }

    func testResisted() throws {
        let a = try craving(6, "2026-10-14 08:00")
        let b = try craving(7, "2026-10-14 09:00")
        try use("2026-10-14 14:30", after: b)  // linked, 5 h 30 later: b was not resisted
        let c = try craving(8, "2026-10-14 15:00")
        try use("2026-10-14 16:59")  // 1 h 59 m after c
        let d = try craving(5, "2026-10-14 18:00")
        try use("2026-10-14 20:01")  // 2 h 01 m after d: d was resisted
        _ = (a, c, d)
        let p = try progress(now: "2026-10-14 22:00")
        XCTAssertEqual(p.resisted, 2, "a and d")
        XCTAssertEqual(p.resistedPercent, 50)
        XCTAssertEqual(p.resistedText, "2 cravings resisted — each one counts")
        XCTAssertEqual(
            p.resistedInsight,
            "50% of your cravings passed without a use. Every craving you log, whatever came after, builds awareness. 💪"
        )
        // A use at exactly 2 hours is within the window.
        let e = try craving(4, "2026-10-15 08:00")
        try use("2026-10-15 10:00")
        _ = e
        XCTAssertEqual(try progress(now: "2026-10-15 22:00").resisted, 2)
        let j = try json(try progress(now: "2026-10-15 22:00"))
        XCTAssertEqual((j["resisted"] as? [String: Any])?["count"] as? Int, 2)
        XCTAssertEqual((j["resisted"] as? [String: Any])?["percent"] as? Int, 40)
    }

    func testReduction() throws {
        try tracker.library.setSetting(.goal, to: Goal.cutDown.rawValue)
        // First week (Oct 1–7): four uses. Last 7 days (Oct 15–21): three.
        for day in [1, 2, 4, 6] { try use("2026-10-0\(day) 21:00", .edible, 10) }
        try use("2026-10-10 21:00")
        for day in [15, 18, 21] { try use("2026-10-\(day) 20:00", .edible, 5) }
        let p = try progress(now: "2026-10-21 22:00")
        XCTAssertEqual(p.reduction, .change(percent: -25, first: 4, last: 3))
        XCTAssertEqual(p.reductionText, "−25% vs. your first week")
        XCTAssertEqual(p.reductionInsight, "You're making real progress!")
        XCTAssertEqual(
            p.amountsInsight,
            "You logged 25% fewer uses this week than in your first week (uses counted, not amounts). 📉")
        XCTAssertEqual(p.uses, 3, "the 7-day range")
        let j = try json(p)
        let reduction = j["reduction"] as? [String: Any]
        XCTAssertEqual(reduction?["percent"] as? Int, -25)
        XCTAssertEqual(reduction?["firstWeek"] as? Int, 4)
        XCTAssertEqual(reduction?["lastWeek"] as? Int, 3)
        XCTAssertEqual(
            ((j["amounts"] as? [String: Any])?["edible"] as? [[String: Any]])?.map { $0["day"] as? String },
            ["2026-10-15", "2026-10-18", "2026-10-21"])
        XCTAssertEqual(p.methodInsight, "All Edible")
        let all = try progress(.all, now: "2026-10-21 22:00")
        XCTAssertEqual(all.methods.map(\.percent), [88, 13], "7 of 8 and 1 of 8, each rounded")
        XCTAssertEqual(all.methodInsight, "Mostly Edible (88%)")
        // More uses than in the first week: said without blame.
        for day in [16, 17] { try use("2026-10-\(day) 20:00") }
        let more = try progress(now: "2026-10-21 22:00")
        XCTAssertEqual(
            more.reductionText, "Last 7 days: 5 uses · first week: 4 uses", "a rise as the two weeks, never a percent")
        XCTAssertEqual(
            more.reductionInsight,
            "More than your first week. Progress isn't a straight line — every log helps you understand your pattern. 💪"
        )
        assertKind(more)
    }

    func testWindowsAndRanges() throws {
        XCTAssertEqual(ProgressFigures.window(20), "8–11 PM")
        XCTAssertEqual(ProgressFigures.window(10), "10 AM–1 PM")
        XCTAssertEqual(ProgressFigures.window(22), "10 PM–1 AM")
        XCTAssertEqual(ProgressFigures.window(0), "12–3 AM")
        // 23:00, 00:30 and 01:15: the window spans midnight.
        try craving(5, "2026-10-11 23:00")
        try craving(5, "2026-10-12 00:30")
        try craving(5, "2026-10-12 01:15")
        try craving(5, "2026-09-01 12:00")  // outside 7 and 30 days
        let p = try progress(now: "2026-10-12 12:00")
        XCTAssertEqual(p.cravings, 3)
        XCTAssertEqual(p.timeInsight, "Most cravings: 11 PM–2 AM")
        XCTAssertEqual(try progress(.month, now: "2026-10-12 12:00").cravings, 3)
        XCTAssertEqual(try progress(.quarter, now: "2026-10-12 12:00").cravings, 4)
        XCTAssertEqual(try progress(.all, now: "2026-10-12 12:00").from.text, "2026-09-01")
        XCTAssertEqual(try progress(now: "2026-12-30 12:00").intensityInsight, "No cravings logged in these 7 days.")
        XCTAssertEqual(
            LocalDay(year: 2025, month: 12, day: 28).span(
                to: LocalDay(year: 2026, month: 1, day: 3), currentYear: 2026),
            "Dec 28, 2025–Jan 3, 2026")
        XCTAssertEqual(
            LocalDay(year: 2026, month: 10, day: 28).span(
                to: LocalDay(year: 2026, month: 11, day: 3), currentYear: 2026), "Oct 28–Nov 3")
    }

    // MARK: - Every sentence, for every goal

    /// A library of its own for one scenario of `testEverySentenceIsPlainWords`.
    func fresh(_ name: String) throws {
        tracker = Tracker(library: try Library(root: base + "/" + name))
    }

    /// Every word the figures of the current library can show, at `now`, for every goal and range.
    func words(now: String) throws -> [String] {
        var out: [String] = []
        for goal in [nil] + Goal.allCases.map(Optional.some) {
            try tracker.library.setSetting(.goal, to: goal?.rawValue)
            for range in ProgressRange.allCases {
                let figures = try tracker.progress(range, now: try at(now).instant, timeZone: berlin)
                XCTAssertEqual(figures.goal, goal)
                out += figures.allWords
                assertKind(figures)
            }
        }
        return out
    }

    /// Every branch of the words, from an empty library to a busy one, for every goal and range:
    /// no sentence holds a name from the code or an unfilled placeholder.
    func testEverySentenceIsPlainWords() throws {
        var all = try words(now: "2026-10-12 12:00")  // empty
        try fresh("one")
        try craving(8, "2026-10-12 20:15")
        all += try words(now: "2026-10-12 21:00")
        all += try words(now: "2026-12-30 12:00")  // nothing in the range
        try fresh("falling")
        try craving(8, "2026-10-16 20:10", triggers: [.anxious], place: .home)
        try craving(6, "2026-10-17 22:30", triggers: [.anxious], place: .home)
        all += try words(now: "2026-10-18 09:00")
        try fresh("rising")
        try craving(6, "2026-10-16 20:10", triggers: [.anxious], place: .home)
        try craving(8, "2026-10-17 22:30", triggers: [.anxious, .social], place: .work)
        all += try words(now: "2026-10-18 09:00")
        try fresh("same")
        try craving(6, "2026-10-16 20:10", triggers: [.anxious, .bored], place: .car)
        try craving(6, "2026-10-17 22:30", triggers: [.bored, .anxious])
        try craving(6, "2026-10-17 23:30", triggers: [.tired, .anxious, .bored])
        all += try words(now: "2026-10-18 09:00")
        try craving(6, "2026-10-18 08:30", triggers: [.sad])
        all += try words(now: "2026-10-18 09:00")
        try fresh("week")  // a craving every day of a week: 8 AM and 8 PM as often
        for day in 12...18 {
            try craving(
                5, "2026-10-\(day) \(day == 18 ? "14" : day % 2 == 0 ? "08" : "20"):00",
                place: day % 2 == 0 ? .home : .work)
        }
        all += try words(now: "2026-10-18 21:00")
        try fresh("day")  // every 4 hours
        for hour in stride(from: 0, to: 24, by: 4) { try craving(5, String(format: "2026-10-18 %02d:00", hour)) }
        all += try words(now: "2026-10-18 23:00")
        try fresh("uses")  // methods tied, a use today, cravings resisted and not
        let first = try craving(7, "2026-10-14 08:00", triggers: [.habit])
        try use("2026-10-14 09:00", .vape, 3, after: first, triggers: [.habit], place: .home)
        all += try words(now: "2026-10-14 22:00")
        try craving(4, "2026-10-14 18:00")
        try use("2026-10-15 12:00", .bowls, 1, place: .home)
        all += try words(now: "2026-10-15 22:00")
        all += try words(now: "2026-10-20 22:00")
        try fresh("fewer")  // the reduction's every case
        for day in [1, 2, 4, 6] { try use("2026-10-0\(day) 21:00", .edible, 10) }
        for day in [15, 18, 21] { try use("2026-10-\(day) 20:00", .edible, 5) }
        all += try words(now: "2026-10-21 22:00")
        try use("2026-10-16 20:00")
        all += try words(now: "2026-10-21 22:00")  // as many
        for day in [17, 19, 20] { try use("2026-10-\(day) 20:00", .dab, 2) }
        all += try words(now: "2026-10-21 22:00")  // more
        try fresh("no-baseline")
        try craving(5, "2026-10-01 12:00")
        try use("2026-10-10 12:00", .vape, 2)
        all += try words(now: "2026-10-25 12:00")
        try use("2026-10-24 12:00", .vape, 2)
        all += try words(now: "2026-10-25 12:00")

        let problems = Set(all).compactMap { sentence in PlainWords.problem(sentence).map { "\($0) in \"\(sentence)\"" }
        }
        XCTAssertEqual(problems, [])
        // The branches were reached: each of these is in some sentence.
        for expected in [
            "0 Cravings • 0 Uses", "1 Craving • 0 Uses", "Keep going!", "Every day is a fresh start",
            "A use was logged today",
            "Longest Abstinence Streak", "Longest Stretch Without Use", "Days Without Use", "🔥 Current Streak",
            "No cravings logged in these 7 days", "That's progress!", "Recovery isn't linear",
            "Every log helps you understand your pattern. 💪",
            "Consistent intensity",
            "Anxious and Bored triggered all 3 cravings", "💡 Anxious and Bored are your main triggers",
            "Cravings at Home and Work", "Both cravings at Home", "Most cravings: 6–9 AM and 6–9 PM, as many in each",
            "Spread across the day", "Spread evenly over the week", "Highest: ",
            "Bowls / Joints / Blunts and Vape, 50% each",
            "All Edible", "Mostly Edible", "passed without a use", "Every craving you log builds awareness",
            "You're making real progress!", "About the same as your first week", "More than your first week",
            "Fewer than in your first week", "Last 7 days: 7 uses · first week: 4 uses", "−25% vs. your first week",
            "Usage Reduction", "This week and your first", "Your first week had no use to compare with",
            "No use logged in your first week or in the last 7 days", "Keep logging! After two weeks", "In all: ",
        ] {
            XCTAssertTrue(all.contains { $0.contains(expected) }, expected)
        }
        // The checker sees what it must.
        for leak in [
            "ProgressFigures isn't a straight line", "See ProgressFigures.days", "Day \\(days)", "{count} days",
            "nil days", "%d days",
        ] {
            XCTAssertNotNil(PlainWords.problem(leak), leak)
        }
    }

    /// The goal shapes the words, never the figures: reduction and abstinence only for quitting or
    /// cutting down; a rise never a percent; a streak of 0 without a fire.
    func testTheGoalShapesTheWords() throws {
        for day in [1, 4] { try use("2026-10-0\(day) 21:00", .vape, 2) }
        for day in [15, 16, 17, 18, 19, 20, 21] { try use("2026-10-\(day) 20:00", .vape, 3) }
        try tracker.library.setSetting(.goal, to: Goal.harmReduction.rawValue)
        var p = try progress(now: "2026-10-21 22:00")
        XCTAssertEqual(p.longestStreakTitle, "📏 Longest Stretch Without Use")
        XCTAssertEqual(p.reductionTitle, "📊 This week and your first")
        XCTAssertEqual(p.reductionText, "Last 7 days: 7 uses · first week: 2 uses")
        XCTAssertEqual(p.reductionInsight, "More than your first week. Every log helps you understand your pattern.")
        XCTAssertEqual(p.currentStreakTitle, "🕐 Your Last Use", "harm reduction: when, not days without")
        XCTAssertEqual(p.currentStreakText, "Today")
        XCTAssertNil(p.daysSinceLastUseText, "shown only while it counts")
        XCTAssertFalse(
            p.allWords.joined().contains("Abstinence") || p.allWords.joined().contains("Reduction")
                || p.allWords.joined().contains("%"))
        try tracker.library.setSetting(.goal, to: Goal.quit.rawValue)
        p = try progress(now: "2026-10-21 22:00")
        XCTAssertEqual(p.reduction, .change(percent: 250, first: 2, last: 7))
        XCTAssertEqual(p.reductionTitle, "📊 This week and your first", "a rise is never under Usage Reduction")
        XCTAssertEqual(
            p.reductionText, "Last 7 days: 7 uses · first week: 2 uses", "a rise is never +250% under Reduction")
        XCTAssertEqual(
            p.reductionInsight,
            "More than your first week. Progress isn't a straight line — every log helps you understand your pattern. 💪"
        )
        XCTAssertEqual(p.currentStreakTitle, "Current Streak", "no fire at 0")
        XCTAssertEqual(p.longestStreakTitle, "📏 Longest Abstinence Streak")
        let later = try progress(now: "2026-10-23 22:00")
        XCTAssertEqual(later.currentStreakTitle, "🔥 Current Streak")
        XCTAssertEqual(later.currentStreakText, "2 days")
        XCTAssertEqual(later.daysSinceLastUseText, "2 days since your last logged use")
        XCTAssertEqual(later.reductionText, "Last 7 days: 5 uses · first week: 2 uses")
    }
}
