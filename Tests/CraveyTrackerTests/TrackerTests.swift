import CraveyLibraryFixtures
import CraveyTracker
import Foundation
import GRDB
import XCTest

@testable import CraveyLibrary

/// The logs' rules, links and delete rules, the schema's CHECKs, check/repair, purge and search,
/// on a real library database.
final class TrackerTests: XCTestCase {
    var base = ""
    var library: Library!
    var tracker: Tracker!

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.path + "/cravey-tracker-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        library = try Library(root: base + "/library")
        tracker = Tracker(library: library)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: base) }

    func recording(_ title: String) throws -> Recording {
        let sample = base + "/\(title).m4a"
        try Data(repeating: 7, count: 2048).write(to: URL(fileURLWithPath: sample))
        return try library.save(
            copying: sample, thumbnail: nil, kind: .audio, draft: .init(title: title), duration: 3,
            media: MediaFacts(sampleRate: 48_000, channels: 1))
    }

    func sql(_ statements: String) throws {
        let queue = try DatabaseQueue(path: base + "/library/library.sqlite")
        try queue.writeWithoutTransaction { try $0.execute(sql: statements) }
        try queue.close()
    }

    func assertRefused(_ field: String, _ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertTrue("\(error)".hasPrefix("invalid \(field): "), "\(error)", file: file, line: line)
            XCTAssertFalse("\(error)".contains("\n"), "one line", file: file, line: line)
        }
    }

    func testDefaultsAndEveryRangeAndSet() throws {
        let five = try tracker.logCraving(.init(time: LogTime(Date())), now: Date())
        XCTAssertEqual(five.intensity, 5)
        XCTAssertEqual(five.band, .moderate)
        XCTAssertEqual(
            [1, 3, 4, 6, 7, 9, 10].map { Intensity.band($0).rawValue },
            ["mild", "mild", "moderate", "moderate", "strong", "strong", "overwhelming"])
        XCTAssertEqual(Intensity.band(10).colour, "red")
        let use = try tracker.logUse(.init(time: LogTime(Date())), now: Date())
        XCTAssertEqual(use.method, .bowls)
        XCTAssertEqual(use.amount, 0.5, "the first method and the first amount of its range")
        XCTAssertEqual(use.amountText, "0.5 bowls/joints")
        XCTAssertEqual(Method(name: "Joints"), .bowls)
        XCTAssertEqual(Method(name: "blunt"), .bowls)
        XCTAssertEqual(Method.edible.amounts.count, 20)
        XCTAssertEqual(Method.bowls.amounts.count, 10)
        XCTAssertEqual(Method.edible.amountText(15), "15 mg THC")
        for ok in [(Method.bowls, 5.0), (.bowls, 2.5), (.vape, 10), (.dab, 1), (.edible, 100), (.edible, 5)] {
            XCTAssertNoThrow(
                try tracker.logUse(.init(method: ok.0, amount: ok.1, time: LogTime(Date())), now: Date()), "\(ok)")
        }
        for (method, amount) in [
            (Method.bowls, 0.25), (.bowls, 5.5), (.bowls, 0), (.vape, 0), (.vape, 11), (.vape, 2.5), (.dab, 6),
            (.edible, 7), (.edible, 105), (.edible, 0),
        ] {
            assertRefused("amount") {
                _ = try tracker.logUse(.init(method: method, amount: amount, time: LogTime(Date())), now: Date())
            }
        }
        for intensity in [0, 11, -1] {
            assertRefused("intensity") {
                _ = try tracker.logCraving(.init(intensity: intensity, time: LogTime(Date())), now: Date())
            }
        }
        for mood in [0, 11] {
            assertRefused("mood after") {
                _ = try tracker.logUse(.init(time: LogTime(Date()), moodAfter: mood), now: Date())
            }
        }
        assertRefused("notes") {
            _ = try tracker.logCraving(
                .init(time: LogTime(Date()), notes: String(repeating: "a", count: 501)), now: Date())
        }
        XCTAssertNoThrow(
            try tracker.logCraving(.init(time: LogTime(Date()), notes: String(repeating: "é", count: 500)), now: Date())
        )
        for unsafe in ["bad\u{1B}[2J", "over\u{202E}ride", "zero\u{200B}width", "line\nbreak"] {
            assertRefused("notes") {
                _ = try tracker.logCraving(.init(time: LogTime(Date()), notes: unsafe), now: Date())
            }
        }
        assertRefused("recording") {
            _ = try tracker.logCraving(.init(time: LogTime(Date()), recordingId: UUID()), now: Date())
        }
        assertRefused("craving") {
            _ = try tracker.logUse(.init(time: LogTime(Date()), cravingId: UUID()), now: Date())
        }
        let future = LogTime(Date().addingTimeInterval(3_600))
        assertRefused("time") { _ = try tracker.logCraving(.init(time: future), now: Date()) }
        let counts = try tracker.counts()
        XCTAssertEqual(counts.cravings, 2, "refused logs wrote nothing")
        XCTAssertEqual(counts.uses, 7)
        let triggered = try tracker.logCraving(
            .init(
                intensity: 8, time: LogTime(Date()), triggers: [.paraphernalia, .anxious, .bored], location: .car,
                notes: "  parked  "), now: Date())
        XCTAssertEqual(triggered.triggers, [.anxious, .bored, .paraphernalia], "the set's order")
        XCTAssertEqual(triggered.notes, "parked")
        guard
            case let .craving(read) = try tracker.entry(
                matching: String(triggered.id.uuidString.prefix(6)).lowercased())
        else { return XCTFail() }
        XCTAssertEqual(read, triggered, "stored and read back the same, found by a prefix in any case")
    }

    func testTheSchemaRefusesWhatTheRulesRefuse() throws {
        let good =
            "INSERT INTO craving (id, at, utcOffset, intensity, triggers, createdAt, modifiedAt) VALUES ('%@', '2026-01-01T10:00:00.000Z', 3600, %@, '%@', 'x', 'x')"
        try sql(String(format: good, UUID().uuidString, "7", "anxious,habit"))
        for (intensity, triggers) in [
            ("11", ""), ("0", ""), ("5", "angst"), ("5", "anxious,"), ("5", ",bored"), ("5", "bored,unknown"),
        ] {
            XCTAssertThrowsError(
                try sql(String(format: good, UUID().uuidString, intensity, triggers)), "\(intensity) \(triggers)")
        }
        let use =
            "INSERT INTO usage (id, at, utcOffset, method, amount, createdAt, modifiedAt) VALUES ('%@', '2026-01-01T10:00:00.000Z', 0, '%@', %@, 'x', 'x')"
        try sql(String(format: use, UUID().uuidString, "edible", "15"))
        for (method, amount) in [("bowls", "0.25"), ("vape", "1.5"), ("dab", "6"), ("edible", "12"), ("pipe", "1")] {
            XCTAssertThrowsError(try sql(String(format: use, UUID().uuidString, method, amount)), "\(method) \(amount)")
        }
        XCTAssertThrowsError(try sql("UPDATE craving SET location = 'space'"))
        XCTAssertThrowsError(try sql("UPDATE craving SET utcOffset = 90000"))
    }

    func testLinksAndTheirDeleteRules() throws {
        let message = try recording("Breathe")
        let craving = try tracker.logCraving(
            .init(intensity: 9, time: LogTime(Date().addingTimeInterval(-1_800))), now: Date())
        try tracker.notePlayed(message.id, during: craving.id)
        XCTAssertEqual(try tracker.cravings().first?.recordingId, message.id)
        XCTAssertEqual(
            try tracker.unlinkedCraving(before: Date())?.id, craving.id, "a craving in the last 2 hours with no use")
        XCTAssertNil(try tracker.unlinkedCraving(before: Date().addingTimeInterval(3 * 3_600)), "not 2 hours later")
        let use = try tracker.logUse(
            .init(method: .vape, amount: 3, time: LogTime(Date()), cravingId: craving.id), now: Date())
        XCTAssertNil(try tracker.unlinkedCraving(before: Date()), "it has its use now")
        XCTAssertEqual(try tracker.lastCraving(before: Date())?.id, craving.id)

        // Deleting the recording keeps the craving; only the link goes.
        try library.delete(message)
        XCTAssertEqual(try tracker.cravings().map(\.id), [craving.id])
        XCTAssertNil(try tracker.cravings().first?.recordingId)

        // A craving with a linked use needs a choice.
        XCTAssertThrowsError(try tracker.deleteCraving(craving.id, linked: nil)) { error in
            XCTAssertEqual(
                error as? TrackerError, .linkedUse(craving: String(craving.id.uuidString.prefix(8)), uses: 1))
        }
        XCTAssertEqual(try tracker.counts().cravings, 1, "nothing deleted without the choice")
        try tracker.deleteCraving(craving.id, linked: .keep)
        XCTAssertEqual(try tracker.uses().map(\.id), [use.id])
        XCTAssertNil(try tracker.uses().first?.cravingId, "the kept use no longer names it")

        let second = try tracker.logCraving(.init(time: LogTime(Date())), now: Date())
        let followed = try tracker.logUse(.init(time: LogTime(Date()), cravingId: second.id), now: Date())
        try tracker.deleteUse(followed.id)
        XCTAssertEqual(try tracker.cravings().map(\.id), [second.id], "deleting a use never changes its craving")
        _ = try tracker.logUse(.init(time: LogTime(Date()), cravingId: second.id), now: Date())
        XCTAssertEqual(try tracker.deleteCraving(second.id, linked: .delete), 1)
        XCTAssertEqual(try tracker.counts().cravings, 0)
        XCTAssertEqual(try tracker.uses().map(\.id), [use.id], "both deleted, the unrelated use stays")
        XCTAssertThrowsError(try tracker.deleteUse(UUID())) {
            XCTAssertTrue("\($0)".hasPrefix("no craving or use log matches"))
        }
    }

    func testAnExistingLibraryMigrates() throws {
        let old = base + "/old"
        try FileManager.default.createDirectory(atPath: old, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: old + "/library.sqlite")
        try Store.migrator.migrate(queue, upTo: "v4: transcripts")
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO recording (id, createdAt, kind, title, duration, filePath, modifiedAt)
                    VALUES ('\(UUID().uuidString)', '2025-01-01T00:00:00.000Z', 'audio', 'Old', 3, 'Recordings/x.m4a', '2025-01-01T00:00:00.000Z')
                    """)
        }
        try queue.close()
        XCTAssertThrowsError(
            try DatabaseQueue(path: old + "/library.sqlite").read { try $0.execute(sql: "SELECT 1 FROM craving") })
        let migrated = try Library(root: old)
        XCTAssertEqual(try migrated.recordings().map(\.title), [], "its file is missing, so it is not listed")
        let oldTracker = Tracker(library: migrated)
        _ = try oldTracker.logCraving(.init(intensity: 3, time: LogTime(Date())), now: Date())
        XCTAssertEqual(try oldTracker.counts().cravings, 1)
        let rows = try DatabaseQueue(path: old + "/library.sqlite").read {
            try Int.fetchOne($0, sql: "SELECT count(*) FROM recording")
        }
        XCTAssertEqual(rows, 1, "the recording's row is still there")
    }

    func testCheckFindsTamperedRowsAndRepairClearsDanglingLinks() throws {
        let craving = try tracker.logCraving(
            .init(intensity: 6, time: LogTime(Date()), notes: "evening walk"), now: Date())
        _ = try tracker.logUse(
            .init(method: .dab, amount: 2, time: LogTime(Date()), cravingId: craving.id), now: Date())
        XCTAssertEqual(try tracker.check(repair: false), [])
        try sql(
            """
            PRAGMA ignore_check_constraints = 1; PRAGMA foreign_keys = 0;
            UPDATE craving SET intensity = 12, triggers = 'bored,angry', ratings = '[[0,99],[-60,3]]', played = 'not-a-uuid'
              WHERE id = '\(craving.id.uuidString)';
            INSERT INTO usage (id, at, utcOffset, method, amount, cravingId, createdAt, modifiedAt)
              VALUES ('\(UUID().uuidString)', '2026-01-01T10:00:00.000Z', 0, 'vape', 2, '\(UUID().uuidString)', '2026-01-01T10:00:00.000Z', '2026-01-01T10:00:00.000Z');
            INSERT INTO usage (id, at, utcOffset, method, amount, createdAt, modifiedAt)
              VALUES ('not-a-uuid', 'yesterday', 0, 'pipe', 2, '2026-01-01T10:00:00.000Z', '2026-01-01T10:00:00.000Z');
            DELETE FROM logSearch;
            """)
        let found = try tracker.check(repair: false)
        let subjects = found.map(\.subject).joined(separator: "\n")
        XCTAssertTrue(subjects.contains("intensity 12 is not from 1 to 10"), subjects)
        XCTAssertTrue(subjects.contains("triggers 'bored,angry'"), subjects)
        XCTAssertTrue(
            subjects.contains("ratings \"[[0,99],[-60,3]]\" are not a ride's")
                && subjects.contains("played \"not-a-uuid\" is not a list of recordings' ids"), subjects)
        XCTAssertTrue(
            subjects.contains("id is not a UUID") && subjects.contains("at is not a time")
                && subjects.contains("method \"pipe\""), subjects)
        XCTAssertEqual(found.filter { $0.kind == .danglingLink }.count, 1, subjects)
        XCTAssertEqual(found.filter { $0.kind == .searchIndex }.count, 1, subjects)
        XCTAssertTrue(try tracker.entries().count == 4, "tampered rows are still read")
        _ = try tracker.check(repair: true)
        let after = try tracker.check(repair: false)
        XCTAssertEqual(after.filter { $0.kind != .invalidLog }, [], "links cleared, index rebuilt")
        XCTAssertEqual(
            after.filter { $0.kind == .invalidLog }.count, found.filter { $0.kind == .invalidLog }.count,
            "invalid logs are left for the user")
        XCTAssertEqual(try tracker.search("walk").count, 1, "the rebuilt index finds the notes")
    }

    /// The listing's byte writer and Encodable write the same objects (the same keys, values and
    /// escaping).
    func testTheListingWritesWhatEncodableWrites() throws {
        _ = try tracker.logCraving(
            .init(
                intensity: 9, time: LogTime(Date()), triggers: [.angry, .habit], location: .social,
                notes: "quote \" and é"), now: Date())
        _ = try tracker.logUse(.init(method: .bowls, amount: 2.5, time: LogTime(Date()), moodAfter: 4), now: Date())
        let entries = try tracker.entries()
        let fast = try JSONSerialization.jsonObject(with: LogExport.jsonArray(entries)) as! [[String: Any]]
        let slow = try JSONSerialization.jsonObject(with: try JSONText.data(entries)) as! [[String: Any]]
        XCTAssertEqual(fast.count, 2)
        for (a, b) in zip(fast, slow) { XCTAssertEqual(NSDictionary(dictionary: a), NSDictionary(dictionary: b)) }
        XCTAssertEqual((try JSONSerialization.jsonObject(with: LogExport.jsonArray([])) as? [Any])?.count, 0)
    }

    func testSearchAndPurge() throws {
        _ = try tracker.logCraving(.init(time: LogTime(Date()), notes: "Walking past the old café"), now: Date())
        _ = try tracker.logUse(
            .init(method: .edible, amount: 10, time: LogTime(Date()), notes: "after work, tired"), now: Date())
        _ = try recording("Keep")
        XCTAssertEqual(try tracker.search("cafe").map(\.snippet), ["Walking past the old café"])
        let hit = try XCTUnwrap(try tracker.search("walk").first)
        XCTAssertEqual(hit.matches.map { String(hit.snippet[$0]) }, ["Walking"])
        XCTAssertEqual(try tracker.search("tired work").count, 1)
        XCTAssertEqual(try tracker.search("nothing").count, 0)
        try library.purge()
        XCTAssertEqual(try tracker.counts().cravings, 0)
        XCTAssertEqual(try tracker.counts().uses, 0)
        XCTAssertEqual(try library.count(), 0)
        XCTAssertEqual(try tracker.search("walk").count, 0)
    }
}
