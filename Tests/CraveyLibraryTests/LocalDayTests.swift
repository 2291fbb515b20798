import CraveyLibrary
import Foundation
import XCTest

/// The one local calendar day: its parser, its weekday, the days between two, a day across a
/// change of clocks, the ends of months, and a bad day refused in one line.
final class LocalDayTests: XCTestCase {
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    func at(_ text: String, in zone: TimeZone) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.date(from: text)!
    }

    func testAChangeOfClocksIsOneDayEachSide() {
        // Europe/Berlin: 2026-03-29 has 23 hours, 2026-10-25 has 25.
        for (short, long) in [("2026-03-29", 23.0), ("2026-10-25", 25.0)] {
            let day = LocalDay(parsing: short)!
            let midnight = at(short + " 00:00", in: berlin)
            let next = at((day + 1).text + " 00:00", in: berlin)
            XCTAssertEqual(next.timeIntervalSince(midnight), long * 3_600, short)
            XCTAssertEqual(LocalDay(midnight, in: berlin), day)
            XCTAssertEqual(LocalDay(next.addingTimeInterval(-1), in: berlin), day, "its last second")
            XCTAssertEqual(LocalDay(next, in: berlin), day + 1)
            XCTAssertEqual(day.weekday, 6, "\(short) is a Sunday")
        }
        XCTAssertEqual(LocalDay(parsing: "2026-10-25")! - LocalDay(parsing: "2026-03-29")!, 210)
    }

    func testMonthEndsAndLeapYears() {
        XCTAssertEqual(LocalDay(parsing: "2024-02-29")?.text, "2024-02-29")
        XCTAssertNil(LocalDay(parsing: "2025-02-29"))
        XCTAssertNil(LocalDay(parsing: "2100-02-29"), "a century is no leap year")
        XCTAssertEqual(LocalDay(parsing: "2000-02-29")?.daysInMonth, 29, "but every 400th is")
        XCTAssertEqual(LocalDay(parsing: "2026-04-30")?.daysInMonth, 30)
        XCTAssertNil(LocalDay(parsing: "2026-04-31"))
        XCTAssertEqual((LocalDay(parsing: "2026-01-31")! + 1).text, "2026-02-01")
        XCTAssertEqual((LocalDay(parsing: "2026-12-31")! + 1).text, "2027-01-01")
        XCTAssertEqual((LocalDay(parsing: "2024-03-01")! - 1).text, "2024-02-29")
        XCTAssertEqual(LocalDay(parsing: "2027-01-01")! - LocalDay(parsing: "2026-01-01")!, 365)
        XCTAssertEqual(LocalDay(parsing: "1970-01-01")?.number, 0)
        XCTAssertEqual(LocalDay(parsing: "1970-01-01")?.weekday, 3, "a Thursday (Monday is 0)")
        XCTAssertEqual(LocalDay(parsing: "2026-11-23")?.weekday, 0, "a Monday")
        XCTAssertEqual(LocalDay(parsing: "2026-11-29")!.week, LocalDay(parsing: "2026-11-23")!.week, "Monday to Sunday")
        XCTAssertEqual(LocalDay(parsing: "2026-11-22")!.week + 1, LocalDay(parsing: "2026-11-23")!.week)
    }

    func testABadDayIsRefusedInOneLine() {
        for bad in [
            "2026-02-30", "2026-1-05", " 2026-01-05", "2026-01-05 ", "２０２６-01-05", "1969-12-31", "", "yesterday",
        ] {
            XCTAssertNil(LocalDay(parsing: bad), bad)
        }
        XCTAssertThrowsError(try LocalDay.parse("2026-13-01\u{1B}[2J\nx", field: "--from")) { error in
            let line = "\(error)"
            XCTAssertEqual(line, "invalid --from: '2026-13-01?[2J?x' is not a date written as YYYY-MM-DD")
            XCTAssertFalse(line.contains("\n"))
        }
        // Written as a date, but no such day: said so, not its form.
        XCTAssertThrowsError(try LocalDay.parse("2026-02-29", field: "--date")) { error in
            XCTAssertEqual("\(error)", "invalid --date: there is no day 2026-02-29 in the calendar")
        }
        XCTAssertThrowsError(try LocalDay.parse("1969-12-31", field: "--date")) { error in
            XCTAssertEqual("\(error)", "invalid --date: '1969-12-31' is not a date written as YYYY-MM-DD")
        }
        XCTAssertEqual(try LocalDay.parse("2026-11-26", field: "--to").text, "2026-11-26")
    }

    func testACheckInSaysItsDayWithTheSameDay() {
        XCTAssertEqual(CheckIn.displayDay("2026-11-21"), "Saturday, 21 November")
        XCTAssertEqual(CheckIn.day(of: at("2026-11-21 23:59", in: .current)), "2026-11-21")
    }
}
