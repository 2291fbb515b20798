import CraveyLibrary
import Foundation
import XCTest

@testable import CraveyTracker

/// The hard hour and the nudge's rules, over histories worked out by hand. Every moment is on the
/// UTC wall clock (offset 0) unless a test says otherwise, so 21:10 is 9 PM.
final class HardHourTests: XCTestCase {
    let utc = TimeZone(secondsFromGMT: 0)!

    /// 2026-11-`day` at `hour`:`minute` UTC.
    func at(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        let number = LocalDay(year: 2026, month: 11, day: 1).number + day - 1
        return Date(timeIntervalSince1970: Double(number * 86_400 + hour * 3_600 + minute * 60))
    }

    func time(_ day: Int, _ hour: Int, _ minute: Int = 0, offset: Int = 0) -> LogTime {
        LogTime(instant: at(day, hour, minute), utcOffset: offset)
    }

    func craving(_ instant: Date, rated: [Int] = []) -> Craving {
        Craving(
            id: UUID(), time: LogTime(instant: instant, utcOffset: 0), intensity: 6, triggers: [], location: nil,
            notes: nil, recordingId: nil, createdAt: instant, modifiedAt: instant,
            ratings: rated.enumerated().map { Craving.Rating(seconds: $0.offset * 180, value: $0.element) })
    }

    func use(_ instant: Date) -> Usage {
        Usage(
            id: UUID(), time: LogTime(instant: instant, utcOffset: 0), method: .bowls, amount: 1, triggers: [],
            location: nil, notes: nil, moodAfter: nil, cravingId: nil, createdAt: instant, modifiedAt: instant)
    }

    // MARK: - The hour

    func testFewerThanTenInTheLast28DaysFindNoHour() {
        // Nine in the 28 days; one 29 days back and one later than now do not count.
        let now = at(28, 20, 45)
        var times = (1...9).map { time(28 - $0, 21, 10) }
        times += [time(-1, 21, 10), time(28, 21, 30)]
        XCTAssertEqual(HardHour.find(in: times, now: now), .tooFew(cravings: 9))
        // The tenth, 27 days back: an hour.
        times.append(time(1, 21, 50))
        XCTAssertEqual(HardHour.find(in: times, now: now), .hour(HardHour(hour: 21, inHour: 10, cravings: 10)))
    }

    func testTheHourHoldingMostCravings() {
        // 4 at 9 PM, 3 at 3 PM, 3 at 9 AM: 9 PM, with 4 of 10.
        let times =
            [time(3, 21, 5), time(5, 21, 59), time(9, 21, 30), time(20, 21, 0)]
            + [time(4, 15, 10), time(6, 15, 20), time(25, 15, 30)]
            + [time(7, 9, 0), time(8, 9, 10), time(26, 9, 20)]
        let found = HardHour.find(in: times, now: at(27, 12))
        XCTAssertEqual(found, .hour(HardHour(hour: 21, inHour: 4, cravings: 10)))
        XCTAssertEqual(found.hardHour?.words, "9 PM")
        XCTAssertEqual(found.hardHour?.span, "9 and 10 PM")
    }

    /// Two hours with as many: the one holding the most recent craving of them.
    func testATieGoesToTheHourOfTheMostRecentCraving() {
        let evening = (10...14).map { time($0, 21, 15) }  // the latest on the 14th
        let afternoon = (5...9).map { time($0, 14, 15) }  // the latest on the 9th
        XCTAssertEqual(
            HardHour.find(in: evening + afternoon, now: at(20, 12)),
            .hour(HardHour(hour: 21, inHour: 5, cravings: 10)))
        // One more afternoon craving later than every evening one, and one evening one more: a tie again.
        let later = afternoon + [time(15, 14, 40)]
        XCTAssertEqual(
            HardHour.find(in: evening + [time(2, 21, 0)] + later, now: at(20, 12)),
            .hour(HardHour(hour: 14, inHour: 6, cravings: 12)))
    }

    /// The hour is the wall clock's where each craving was logged: 20:30 UTC logged at +01:00 is
    /// 9:30 PM.
    func testTheHourIsTheWallClockWhereTheCravingWasLogged() {
        let times = (1...10).map { time($0, 20, 30, offset: 3_600) }
        XCTAssertEqual(HardHour.find(in: times, now: at(20, 12)), .hour(HardHour(hour: 21, inHour: 10, cravings: 10)))
    }

    func testNoonAndMidnightWords() {
        // Said as people say them: "12 AM" and "12 PM" leave many unsure which is which.
        XCTAssertEqual(HardHour(hour: 0, inHour: 1, cravings: 10).words, "midnight")
        XCTAssertEqual(HardHour(hour: 12, inHour: 1, cravings: 10).words, "noon")
        XCTAssertEqual(HardHour(hour: 0, inHour: 1, cravings: 10).span, "midnight and 1 AM")
        XCTAssertEqual(HardHour(hour: 11, inHour: 1, cravings: 10).span, "11 AM and noon")
        XCTAssertEqual(HardHour(hour: 12, inHour: 1, cravings: 10).span, "noon and 1 PM")
        XCTAssertEqual(HardHour(hour: 23, inHour: 1, cravings: 10).span, "11 PM and midnight")
        XCTAssertEqual(HardHour(hour: 13, inHour: 1, cravings: 10).span, "1 and 2 PM")
        XCTAssertEqual(HardHour(hour: 1, inHour: 1, cravings: 10).words, "1 AM")
    }

    /// Ten cravings, each in an hour of its own: enough of them, but no hour is "often" hard.
    func testAnHourHoldingFewerThanThreeIsNotOften() {
        let spread = (1...10).map { time($0, $0 + 5, 0) }
        XCTAssertEqual(HardHour.find(in: spread, now: at(20, 12)), .scattered(cravings: 10))
        XCTAssertEqual(HardHour.find(in: spread, now: at(20, 12)).cravings, 10)
        XCTAssertNil(HardHour.find(in: spread, now: at(20, 12)).hardHour)
        let two = spread + [time(11, 6, 30)]
        XCTAssertEqual(HardHour.find(in: two, now: at(20, 12)), .scattered(cravings: 11))
        let three = two + [time(12, 6, 40)]
        XCTAssertEqual(HardHour.find(in: three, now: at(20, 12)), .hour(HardHour(hour: 6, inHour: 3, cravings: 12)))
    }

    /// A state a torn or hand-made file gave: a last nudge far from now is forgotten (its day
    /// cannot even be counted), a rest longer than any rest begun today is over, and the count of
    /// unused ones stays within what the rules can reach.
    func testAStateThatCannotBeTrueIsNotBelieved() {
        let now = at(20, 12)
        let utc = TimeZone(identifier: "UTC")!
        for shown in [9e300, -1e300, 1e18] {
            let kept = Nudge.State(lastShown: Date(timeIntervalSince1970: shown), awaiting: true, unused: -5)
            let settled = Nudge.settled(kept, stillMarked: true, now: now, in: utc)
            XCTAssertEqual(settled, Nudge.State())
        }
        let today = LocalDay(now, in: utc)
        let forever = Nudge.State(unused: 7, restingUntil: LocalDay(parsing: "9999-12-31"))
        XCTAssertEqual(Nudge.settled(forever, stillMarked: false, now: now, in: utc), Nudge.State(unused: 1))
        // A rest begun today is believed to its end.
        let resting = Nudge.State(restingUntil: today + 8)
        XCTAssertEqual(Nudge.settled(resting, stillMarked: false, now: now, in: utc), resting)
    }

    // MARK: - The nudge's rules

    func testTheNudgeComesFifteenMinutesBefore() {
        XCTAssertTrue(Nudge.time(before: 21) == (20, 45))
        XCTAssertTrue(Nudge.time(before: 0) == (23, 45))
        XCTAssertTrue(Nudge.time(before: 9) == (8, 45))
    }

    func decide(_ now: Date, state: Nudge.State = Nudge.State(), cravings: [Craving] = [], uses: [Usage] = [])
        -> Nudge.Decision
    {
        Nudge.decide(
            .hour(nine), state: state, cravings: cravings, uses: uses, now: now, in: utc)
    }

    let nine = HardHour(hour: 21, inHour: 5, cravings: 12)

    func testOnlyInTheHalfHourBeforeTheHour() {
        XCTAssertEqual(decide(at(20, 20, 45)), .show(nine))
        XCTAssertEqual(decide(at(20, 20, 31)), .show(nine))
        XCTAssertEqual(decide(at(20, 20, 29)), .quiet(.notTheTime(nine)))
        XCTAssertEqual(decide(at(20, 21, 0)), .quiet(.notTheTime(nine)), "the hour itself is too late")
        XCTAssertEqual(decide(at(20, 10, 0)), .quiet(.notTheTime(nine)))
        XCTAssertEqual(
            Nudge.decide(
                .tooFew(cravings: 7), state: Nudge.State(), cravings: [], uses: [], now: at(20, 20, 45), in: utc),
            .quiet(.noHour(cravings: 7)))
        // Midnight's nudge comes at 23:45 the day before.
        let midnight = HardHour(hour: 0, inHour: 5, cravings: 12)
        XCTAssertEqual(
            Nudge.decide(.hour(midnight), state: Nudge.State(), cravings: [], uses: [], now: at(20, 23, 45), in: utc),
            .show(midnight))
    }

    func testOneADay() {
        let shown = Nudge.State(lastShown: at(20, 20, 45), awaiting: false)
        XCTAssertEqual(decide(at(20, 20, 50), state: shown), .quiet(.shownToday))
        XCTAssertEqual(decide(at(21, 20, 45), state: shown), .show(nine), "the next day")
    }

    func testNoneAfterAUseOrARideInTheLastHour() {
        let now = at(20, 20, 45)
        XCTAssertEqual(decide(now, uses: [use(at(20, 20, 0))]), .quiet(.recentUse))
        XCTAssertEqual(decide(now, uses: [use(at(20, 19, 44))]), .show(nine), "more than an hour ago")
        // A ride begun at 19:40 and rated until 19:46: on in the last hour.
        XCTAssertEqual(decide(now, cravings: [craving(at(20, 19, 40), rated: [7, 5, 3])]), .quiet(.recentRide))
        XCTAssertEqual(decide(now, cravings: [craving(at(20, 19, 0), rated: [7, 5, 3])]), .show(nine))
        // A craving logged without a ride does not keep it back.
        XCTAssertEqual(decide(now, cravings: [craving(at(20, 20, 30))]), .show(nine))
    }

    func testTwoUnusedInARowRestForSevenDaysThenItTriesAgain() {
        // Shown on the 20th; a command within the hour took the mark away: answered.
        var state = Nudge.State(lastShown: at(20, 20, 45), awaiting: true, unused: 1)
        let answered = Nudge.settled(state, stillMarked: false, now: at(21, 20, 45), in: utc)
        XCTAssertEqual(answered, Nudge.State(lastShown: at(20, 20, 45), awaiting: false, unused: 0))
        // Still marked within the hour: not known yet.
        XCTAssertEqual(Nudge.settled(state, stillMarked: true, now: at(20, 21, 30), in: utc), state)
        // Still marked an hour later: unused. The first…
        state.unused = 0
        let once = Nudge.settled(state, stillMarked: true, now: at(21, 20, 45), in: utc)
        XCTAssertEqual(once, Nudge.State(lastShown: at(20, 20, 45), awaiting: false, unused: 1))
        XCTAssertEqual(decide(at(21, 20, 45), state: once), .show(nine))
        // …and the second in a row: the 7 days after the 21st rest, the 29th tries again.
        let twice = Nudge.settled(
            Nudge.State(lastShown: at(21, 20, 45), awaiting: true, unused: 1), stillMarked: true,
            now: at(22, 20, 45), in: utc)
        let until = LocalDay(year: 2026, month: 11, day: 29)
        XCTAssertEqual(twice, Nudge.State(lastShown: at(21, 20, 45), awaiting: false, unused: 0, restingUntil: until))
        for day in 22...28 { XCTAssertEqual(decide(at(day, 20, 45), state: twice), .quiet(.resting(until: until))) }
        XCTAssertEqual(decide(at(29, 20, 45), state: twice), .show(nine))
    }

    func testWhenTheNextComes() {
        let hour = HardHour.Finding.hour(nine)
        func next(_ now: Date, _ state: Nudge.State = Nudge.State(), timer: (hour: Int, minute: Int)? = (20, 45))
            -> Date?
        {
            Nudge.next(hour, state: state, scheduled: timer, now: now, in: utc)
        }
        XCTAssertEqual(next(at(20, 10)), at(20, 20, 45))
        XCTAssertEqual(next(at(20, 20, 50)), at(21, 20, 45), "past today's")
        XCTAssertEqual(next(at(20, 20, 0), Nudge.State(lastShown: at(20, 9, 0))), at(21, 20, 45), "one a day")
        let resting = Nudge.State(lastShown: at(18, 20, 45), restingUntil: LocalDay(year: 2026, month: 11, day: 26))
        XCTAssertEqual(next(at(20, 10), resting), at(26, 20, 45))
        // The timer still at 12:00 (no hour when it last ran): its run moves it, and the nudge
        // comes at the first 20:45 after that run.
        XCTAssertEqual(next(at(20, 10), timer: (12, 0)), at(20, 20, 45))
        XCTAssertEqual(next(at(20, 13), timer: (12, 0)), at(21, 20, 45))
        XCTAssertNil(
            Nudge.next(.tooFew(cravings: 3), state: Nudge.State(), scheduled: (12, 0), now: at(20, 10), in: utc))
    }
}
