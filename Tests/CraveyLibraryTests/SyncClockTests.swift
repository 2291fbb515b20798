import XCTest

@testable import CraveyLibrary

/// The hybrid clock and the rule that picks a field's winner.
final class SyncClockTests: XCTestCase {
    func testAChangeMadeAfterSeeingAnotherIsStampedLaterWhateverTheWallClockSays() {
        var ahead = SyncClock(), behind = SyncClock()
        let hour: Int64 = 3_600_000
        let wall: Int64 = 1_800_000_000_000
        let edit = ahead.send(wall: wall + hour)
        behind.receive(edit, wall: wall)
        let later = behind.send(wall: wall + 1000)
        XCTAssertGreaterThan(later, edit, "an hour behind, the later edit still wins")
        XCTAssertEqual(later.milliseconds, wall + hour)
        // Once the wall clock passes it, the clock follows the wall again.
        XCTAssertEqual(behind.send(wall: wall + 2 * hour), SyncClock(milliseconds: wall + 2 * hour, tick: 0))
    }

    func testTiesAreCountedAndTheDeviceBreaksTheLast() {
        var clock = SyncClock()
        let one = clock.send(wall: 5), two = clock.send(wall: 5), three = clock.send(wall: 4)
        XCTAssertLessThan(one, two)
        XCTAssertLessThan(two, three)
        XCTAssertEqual(three, SyncClock(milliseconds: 5, tick: 2))
        let a = SyncStamp(clock: one, device: "aaaa"), b = SyncStamp(clock: one, device: "bbbb")
        XCTAssertLessThan(a, b)
        XCTAssertLessThan(b, SyncStamp(clock: two, device: "aaaa"))
    }

    func testReceivingMovesPastBothClocks() {
        var clock = SyncClock(milliseconds: 10, tick: 3)
        clock.receive(SyncClock(milliseconds: 10, tick: 7), wall: 9)
        XCTAssertEqual(clock, SyncClock(milliseconds: 10, tick: 8))
        clock.receive(SyncClock(milliseconds: 20, tick: 1), wall: 9)
        XCTAssertEqual(clock, SyncClock(milliseconds: 20, tick: 2))
        clock.receive(SyncClock(milliseconds: 5, tick: 9), wall: 30)
        XCTAssertEqual(clock, SyncClock(milliseconds: 30, tick: 0))
    }

    func testALineFromTheFolderIsHeldToTheRulesOfTypedInput() {
        let device = String(repeating: "ab", count: 16), wall: Int64 = 1_800_000_000_000
        func line(
            _ kind: String, _ id: String, _ row: [String: Library.JournalValue]?, clock: Int64 = 1_800_000_000_000
        )
            -> Library.SyncLine
        {
            Library.SyncLine(kind: kind, id: id, row: row, counter: 1, clock: [clock, 0], device: device)
        }
        let id = UUID().uuidString
        XCTAssertNil(Library.lineProblem(line("craving", id, ["notes": .text("fine")]), device: device))
        XCTAssertNil(Library.lineProblem(line("use", id, nil), device: device), "a delete")
        XCTAssertNotNil(Library.lineProblem(line("craving", id, nil), device: "other"))
        XCTAssertNotNil(Library.lineProblem(line("milestone", id, nil), device: device), "kept per machine")
        XCTAssertNotNil(Library.lineProblem(line("craving", "../x", nil), device: device))
        XCTAssertNil(
            Library.lineProblem(line("craving", id, ["recordingId": .text(id)]), device: device),
            "a craving's message travels with it")
        XCTAssertNotNil(
            Library.lineProblem(line("plan", id, ["recordingId": .text("../../x")]), device: device),
            "a message is named by a recording's id")
        XCTAssertNotNil(
            Library.lineProblem(line("craving", id, ["notes": .text("a\u{1B}[2J")]), device: device))
        XCTAssertNotNil(
            Library.lineProblem(line("craving", id, ["at": .text("yesterday")]), device: device))
        let ahead = line("craving", id, nil, clock: wall + 8 * 86_400_000)
        XCTAssertNil(Library.lineProblem(ahead, device: device), "more than a week ahead: kept, and it waits")
        XCTAssertTrue(Library.isAhead(ahead, wall: wall))
        XCTAssertFalse(Library.isAhead(line("craving", id, nil), wall: wall))
        XCTAssertNotNil(Library.lineProblem(line("craving", id, nil, clock: 5_000_000_000_000), device: device))
        XCTAssertNil(Library.lineProblem(line("setting", "goal", ["value": .text("quit")]), device: device))
        XCTAssertNotNil(
            Library.lineProblem(line("setting", "libraryId", ["value": .text("x")]), device: device))
    }
}
