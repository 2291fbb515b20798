import CraveyLibraryFixtures
import Foundation
import XCTest

@testable import CraveyLibrary

/// Check-ins in the library: a save begun for a day becomes its entry, one a day, apart from the
/// messages, never edited, covered by purge and check.
final class CheckInTests: XCTestCase {
    func save(_ t: TemporaryLibrary, _ lib: Library, id: UUID) throws -> Recording {
        try lib.save(
            copying: t.sample, kind: .audio, draft: .init(), duration: 4,
            media: MediaFacts(sampleRate: 48000, channels: 1), id: id)
    }

    func testASaveBegunForADayBecomesItsEntryAndStaysApartFromMessages() throws {
        let t = try TemporaryLibrary()
        let lib = try t.open()
        let message = try t.add(lib, title: "Remember why")
        let id = UUID()
        let prompt = try lib.prompt(for: "2026-11-21")
        try lib.beginCheckIn("2026-11-21", mood: .happy, prompt: prompt, recording: id)
        let entry = try save(t, lib, id: id)
        XCTAssertEqual(entry.checkIn, CheckIn(day: "2026-11-21", mood: .happy, prompt: prompt))
        XCTAssertEqual(entry.title, "Check-in 2026-11-21")
        XCTAssertEqual(try lib.checkIn(on: "2026-11-21")?.id, id)
        XCTAssertEqual(try lib.recordings().map(\.id), [message.id], "listing messages leaves the check-in out")
        XCTAssertEqual(try lib.top(3).map(\.id), [message.id])
        XCTAssertThrowsError(try lib.recording(idOrTitle: "Check-in"), "a title prefix finds messages only")
        XCTAssertEqual(Set(try lib.recordings(includingCheckIns: true).map(\.id)), [message.id, id])
        XCTAssertEqual(try lib.checkIns().map(\.id), [id])
        // A plain save (not begun for a day) is a message.
        XCTAssertNil(try t.add(lib, title: "Another").checkIn)
    }

    func testOneEntryADayAndADiscardedOneMayBeRecordedAgain() throws {
        let t = try TemporaryLibrary()
        let lib = try t.open()
        let discarded = UUID()
        try lib.beginCheckIn("2026-11-20", mood: .low, prompt: "Q?", recording: discarded)
        try lib.abandonCheckIn(recording: discarded)
        XCTAssertNil(try save(t, lib, id: discarded).checkIn, "an abandoned take is not the day's entry")
        let kept = UUID()
        try lib.beginCheckIn("2026-11-20", mood: .down, prompt: "Q?", recording: kept)
        XCTAssertEqual(try save(t, lib, id: kept).checkIn?.mood, .down)
        XCTAssertThrowsError(try lib.beginCheckIn("2026-11-20", mood: .okay, prompt: "Q?", recording: UUID())) {
            error in
            XCTAssertTrue("\(error)".contains("has its check-in already"), "\(error)")
        }
        XCTAssertEqual(try lib.checkIns().count, 1)
    }

    func testAnEntryIsNeverEdited() throws {
        let t = try TemporaryLibrary()
        let lib = try t.open()
        let id = UUID()
        try lib.beginCheckIn("2026-11-19", mood: .okay, prompt: "Q?", recording: id)
        let entry = try save(t, lib, id: id)
        XCTAssertThrowsError(try lib.edit(entry, title: "New", notes: nil, purpose: nil))
        XCTAssertEqual(try lib.checkIn(on: "2026-11-19")?.title, "Check-in 2026-11-19")
    }

    func testTheDaysQuestionStaysTheSameAllDay() throws {
        let t = try TemporaryLibrary()
        let lib = try t.open()
        let first = try lib.prompt(for: "2026-11-21")
        XCTAssertTrue(CheckIn.prompts.contains(first))
        for _ in 0..<5 { XCTAssertEqual(try lib.prompt(for: "2026-11-21"), first) }
        XCTAssertEqual(try t.open().prompt(for: "2026-11-21"), first, "kept in the library")
        XCTAssertGreaterThanOrEqual(CheckIn.prompts.count, 30)
    }

    func testGreetingLaterAndSettings() throws {
        let t = try TemporaryLibrary()
        let lib = try t.open()
        XCTAssertFalse(try lib.checkInDay("2026-11-21").greeted)
        try lib.noteGreeted("2026-11-21", postponed: true, at: Date())
        let day = try lib.checkInDay("2026-11-21")
        XCTAssertTrue(day.greeted)
        XCTAssertTrue(day.postponed)
        XCTAssertFalse(try lib.checkInDay("2026-11-22").postponed)
        XCTAssertNil(try lib.setting(.name))
        try lib.setSetting(.name, to: "Ben")
        XCTAssertEqual(try t.open().setting(.name), "Ben")
        XCTAssertThrowsError(try Validation.name(String(repeating: "x", count: 41)))
        XCTAssertThrowsError(try Validation.name("Ben\u{1B}[2J"))
    }

    func testPurgeRemovesEntriesTheDaysAndSettings() throws {
        let t = try TemporaryLibrary()
        let lib = try t.open()
        let id = UUID()
        try lib.beginCheckIn("2026-11-21", mood: .amazing, prompt: "Q?", recording: id)
        _ = try save(t, lib, id: id)
        try lib.setSetting(.name, to: "Ben")
        try lib.purge()
        XCTAssertEqual(try lib.checkIns().count, 0)
        XCTAssertEqual(t.mediaFiles(), [])
        XCTAssertNil(try lib.setting(.name))
        XCTAssertFalse(try lib.checkInDay("2026-11-21").greeted)
        try t.assertConsistent()
    }

    func testCheckFindsABrokenEntry() throws {
        let t = try TemporaryLibrary()
        let lib = try t.open()
        let id = UUID()
        try lib.beginCheckIn("2026-11-21", mood: .amazing, prompt: "Q?", recording: id)
        _ = try save(t, lib, id: id)
        XCTAssertFalse(try lib.check(repair: false, now: Date()).hasProblems)
        try lib.store.writer.write { db in
            try db.execute(
                sql: "UPDATE recording SET checkinDay = '2026-13-45' WHERE id = ?", arguments: [id.uuidString])
        }
        let report = try lib.check(repair: false, now: Date())
        XCTAssertTrue(
            report.subjects(.invalidRow).contains { $0.contains("checkinDay is not a date") }, "\(report.findings)")
    }

    func testDaysAndWeekdays() throws {
        XCTAssertEqual(CheckIn.displayDay("2026-11-21"), "Saturday, 21 November")
        XCTAssertEqual(CheckIn.displayDay("2024-02-29"), "Thursday, 29 February")
        XCTAssertNil(LocalDay(parsing: "2025-02-29"))
        XCTAssertNil(LocalDay(parsing: "2026-1-05"))
        XCTAssertEqual(try Validation.checkInDay("2026-11-20", today: "2026-11-21"), "2026-11-20")
        XCTAssertEqual(try Validation.checkInDay("2026-11-21", today: "2026-11-21"), "2026-11-21")
        XCTAssertThrowsError(try Validation.checkInDay("2026-11-22", today: "2026-11-21"))
        XCTAssertEqual(try Validation.mood("3"), .okay)
        XCTAssertEqual(try Validation.mood("Amazing"), .amazing)
        XCTAssertThrowsError(try Validation.mood("sad"))
    }
}
