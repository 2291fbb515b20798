import CraveyTracker
import Foundation
import XCTest

/// `--at` as a person types it, in a zone with clock changes (Berlin: forward on 2026-03-29 at
/// 02:00, back on 2026-10-25 at 03:00).
final class LogTimeTests: XCTestCase {
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    func date(_ text: String, _ zone: TimeZone? = nil) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone ?? berlin
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.date(from: text)!
    }

    func parse(_ text: String, now: String) throws -> LogTime {
        try LogTime.parse(text, now: date(now), timeZone: berlin)
    }

    func testEveryFormReadsAsTheLocalTimeMeant() throws {
        let now = "2026-11-23 20:30:10"
        XCTAssertEqual(
            try parse("now", now: now).instant.timeIntervalSince1970, date(now).timeIntervalSince1970, accuracy: 0.001)
        XCTAssertEqual(try parse("08:15", now: now).localText, "2026-11-23 08:15")
        XCTAssertEqual(try parse("yesterday 23:59", now: now).localText, "2026-11-22 23:59")
        XCTAssertEqual(try parse("2026-11-01 07:05", now: now).localText, "2026-11-01 07:05")
        XCTAssertEqual(try parse("2026-11-01T07:05", now: now).localText, "2026-11-01 07:05")
        XCTAssertEqual(try parse("-90m", now: now).localText, "2026-11-23 19:00")
        XCTAssertEqual(try parse("-2h", now: now).localText, "2026-11-23 18:30")
        XCTAssertEqual(try parse("-3d", now: now).localText, "2026-11-20 20:30")
        XCTAssertEqual(try parse("08:15", now: now).offsetText, "+01:00")
        XCTAssertEqual(try parse("2026-07-01 12:00", now: now).offsetText, "+02:00", "summer time then")
    }

    func testALaterTimeIsRefusedAndMidnightIsADayBoundary() throws {
        XCTAssertThrowsError(try parse("21:00", now: "2026-11-23 20:30:00")) { error in
            XCTAssertTrue("\(error)".contains("later than now"), "\(error)")
        }
        XCTAssertNoThrow(try parse("20:30", now: "2026-11-23 20:30:40"), "this minute is not the future")
        XCTAssertThrowsError(try parse("2026-11-24 08:00", now: "2026-11-23 20:30:00"))
        // Five past midnight: 23:55 today has not come yet; yesterday's has, on the day before.
        XCTAssertThrowsError(try parse("23:55", now: "2026-11-24 00:05:00"))
        let late = try parse("yesterday 23:55", now: "2026-11-24 00:05:00")
        XCTAssertEqual(late.localDay, "2026-11-23")
        XCTAssertEqual(try parse("00:00", now: "2026-11-24 00:05:00").localDay, "2026-11-24")
    }

    func testClockChanges() throws {
        // Spring: 02:30 never happened that night.
        XCTAssertThrowsError(try parse("2026-03-29 02:30", now: "2026-04-01 12:00:00")) { error in
            XCTAssertTrue("\(error)".contains("did not happen"), "\(error)")
        }
        let before = try parse("2026-03-29 01:30", now: "2026-04-01 12:00:00")
        let after = try parse("2026-03-29 03:30", now: "2026-04-01 12:00:00")
        XCTAssertEqual(
            after.instant.timeIntervalSince(before.instant), 3_600, "an hour apart though the clocks say two")
        XCTAssertEqual([before.offsetText, after.offsetText], ["+01:00", "+02:00"])
        // Autumn: 02:30 happened twice; the first of the two is meant.
        let twice = try parse("2026-10-25 02:30", now: "2026-11-01 12:00:00")
        XCTAssertEqual(twice.offsetText, "+02:00")
        XCTAssertEqual(twice.localText, "2026-10-25 02:30")
        // A log keeps its wall-clock hour whatever the zone of the machine that reads it.
        let stored = LogTime(instant: before.instant, utcOffset: before.utcOffset)
        XCTAssertEqual(stored.localText, "2026-03-29 01:30")
        XCTAssertEqual(
            LogTime(before.instant, in: TimeZone(identifier: "America/New_York")!).localText, "2026-03-28 20:30")
    }

    func testOldEventsWarnAndNonsenseIsRefused() throws {
        let now = date("2026-11-23 20:30:00")
        XCTAssertTrue(try LogTime.parse("-8d", now: now, timeZone: berlin).isOld(now: now))
        XCTAssertFalse(try LogTime.parse("-6d", now: now, timeZone: berlin).isOld(now: now))
        XCTAssertEqual(LogTime.oldWarning, "Memory may be less reliable for events more than 7 days ago")
        for bad in [
            "25:00", "8pm", "12:60", "-5x", "-h", "2026-02-30 10:00", "tomorrow 10:00", "2026-13-01 10:00",
            "1999-12-31 10:00", "yesterday",
        ] {
            XCTAssertThrowsError(try LogTime.parse(bad, now: now, timeZone: berlin), bad) { error in
                XCTAssertTrue("\(error)".hasPrefix("invalid time: "), "\(bad): \(error)")
            }
        }
    }

    /// The wall clock is worked out by arithmetic (listings read thousands): it agrees with
    /// Foundation's calendar everywhere, before 1970 and on leap days included.
    func testTheWallClockAgreesWithTheCalendar() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let instant = Date(
                timeIntervalSince1970: Double(Int64.random(in: -2_000_000_000...4_000_000_000, using: &generator))
                    + 0.25)
            let offset = Int.random(in: -48...56, using: &generator) * 900
            formatter.timeZone = TimeZone(secondsFromGMT: offset)
            XCTAssertEqual(
                LogTime(instant: instant, utcOffset: offset).localText, formatter.string(from: instant),
                "\(instant) \(offset)")
        }
        XCTAssertEqual(LogTime(instant: date("2028-02-29 23:59:59", .gmt), utcOffset: 60).localText, "2028-03-01 00:00")
    }
}
