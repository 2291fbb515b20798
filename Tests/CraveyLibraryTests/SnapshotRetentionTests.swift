import XCTest

@testable import CraveyLibrary

/// Which daily snapshots are kept: the 7 newest, and the newest of each of the last 8 weeks.
final class SnapshotRetentionTests: XCTestCase {
    func day(_ number: Int) -> String {
        let date = Date(timeIntervalSince1970: Double(number) * 86_400 + 43_200)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }

    func testSevenDaysAndEightWeeks() throws {
        XCTAssertEqual(LocalDay(parsing: "1970-01-01")?.number, 0)
        XCTAssertEqual(LocalDay(parsing: "2026-11-23")?.number, 20_780)  // a Monday
        XCTAssertEqual(LocalDay(number: 20_780).week, LocalDay(number: 20_786).week, "Monday to Sunday")
        XCTAssertNotEqual(LocalDay(number: 20_779).week, LocalDay(number: 20_780).week)
        XCTAssertNil(LocalDay(parsing: "2026-13-01"))
        // A snapshot every day for 100 days.
        let today = 20_786
        let days = (0..<100).map { day(today - $0) }
        let kept = Library.keptSnapshotDays(days, today: day(today))
        XCTAssertTrue(Set(days.prefix(7)).isSubset(of: kept), "the last 7 days")
        let older = kept.subtracting(days.prefix(7))
        XCTAssertEqual(older.count, 7, "one for each of the 8 weeks (the newest's week is among the 7 days)")
        XCTAssertTrue(older.allSatisfy { today - LocalDay(parsing: $0)!.number < 56 }, "none older than 8 weeks")
        XCTAssertEqual(Set(older.map { LocalDay(parsing: $0)!.week }).count, 7, "one a week")
        // Used only now and then: the 7 newest are kept however old.
        let sparse = [
            "2025-01-01", "2025-02-01", "2025-03-01", "2025-04-01", "2025-05-01", "2025-06-01", "2025-07-01",
            "2025-08-01",
        ]
        XCTAssertEqual(Library.keptSnapshotDays(sparse, today: "2026-11-23"), Set(sparse.suffix(7)))
    }
}
