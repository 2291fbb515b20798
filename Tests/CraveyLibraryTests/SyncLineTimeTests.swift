import XCTest

@testable import CraveyLibrary

/// A line's times from the folder are held to "not in the future" as typed input is: a log's
/// time, when it was made or changed, a last play at most a minute after its stamp, a check-in's
/// day not after its stamp's day anywhere on Earth; and a change is never stamped before the
/// times it carries.
final class SyncLineTimeTests: XCTestCase {
    let device = String(repeating: "ab", count: 16)
    /// 2027-01-15T08:00:00Z.
    let stamped: Int64 = 1_800_000_000_000

    func line(_ kind: String, _ row: [String: Library.JournalValue]) -> Library.SyncLine {
        Library.SyncLine(kind: kind, id: UUID().uuidString, row: row, counter: 1, clock: [stamped, 0], device: device)
    }

    func time(_ milliseconds: Int64) -> Library.JournalValue {
        .text(StoredDate.text(Date(timeIntervalSince1970: Double(milliseconds) / 1000)))
    }

    func testATimeLaterThanItsStampIsRefused() {
        XCTAssertNil(Library.lineProblem(line("craving", ["at": time(stamped - 3_600_000)]), device: device))
        XCTAssertNil(Library.lineProblem(line("craving", ["at": time(stamped + 59_000)]), device: device))
        let years = Library.lineProblem(line("craving", ["at": time(stamped + 3 * 365 * 86_400_000)]), device: device)
        XCTAssertTrue(
            years?.hasPrefix("its at (2030-01-14T08:00:00.000Z) is later than the moment") == true, "\(years ?? "")")
        XCTAssertNotNil(Library.lineProblem(line("use", ["createdAt": time(stamped + 120_000)]), device: device))
        XCTAssertNotNil(
            Library.lineProblem(line("craving", ["modifiedAt": time(stamped + 86_400_000)]), device: device))
        XCTAssertNotNil(
            Library.lineProblem(
                line("plays", ["count": .integer(2), "lastPlayedAt": time(stamped + 86_400_000)]), device: device))
        XCTAssertNotNil(
            Library.lineProblem(line("recording", ["createdAt": time(stamped + 86_400_000)]), device: device))
    }

    func testACheckInsDayIsNotAfterItsStampsDayAnywhere() {
        // 08:00 UTC on Jan 15 is already Jan 15 22:00 at UTC+14, never Jan 16 anywhere.
        XCTAssertNil(Library.timeProblem(line("recording", ["checkinDay": .text("2027-01-15")])))
        XCTAssertNil(Library.timeProblem(line("recording", ["checkinDay": .text("2026-12-30")])))
        XCTAssertNotNil(Library.timeProblem(line("recording", ["checkinDay": .text("2027-01-16")])))
    }

    func testAChangeIsNeverStampedBeforeTheTimesItCarries() {
        var clock = SyncClock()
        let wall = stamped - 3_600_000  // this machine's clock set back an hour since the log was kept
        let carried = Library.stampChange(&clock, wall: wall, carrying: ["at": time(stamped)])
        XCTAssertEqual(carried, SyncClock(milliseconds: stamped, tick: 0))
        XCTAssertNil(Library.timeProblem(line("craving", ["at": time(stamped)])))
        // A time more than a week ahead moves no clock: that line is refused on the other machine.
        let far = Library.stampChange(&clock, wall: wall, carrying: ["at": time(stamped + 30 * 86_400_000)])
        XCTAssertEqual(far, SyncClock(milliseconds: stamped, tick: 1))
    }
}
