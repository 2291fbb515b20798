import CraveyTestSupport
import Foundation
import GRDB
import XCTest

@testable import CraveyLibrary

/// The search over the logs' notes is keyed by each log's own row (v20): a library made before
/// keeps every log findable under its notes as they are, edits and deletes after keep the index in
/// step, and each finds its entry at once instead of reading the whole index.
final class LogSearchKeyTests: XCTestCase {
    static let before = "v19: plays per device"

    func found(_ word: String, _ db: Database) throws -> [String] {
        try String.fetchAll(
            db, sql: "SELECT kind || ' ' || logId FROM logSearch WHERE logSearch MATCH ? ORDER BY kind, logId",
            arguments: [word])
    }

    func assertInStep(_ db: Database, file: StaticString = #filePath, line: UInt = #line) throws {
        let entries = try Int.fetchOne(db, sql: "SELECT count(*) FROM logSearch")
        let withNotes = try Int.fetchOne(
            db,
            sql:
                "SELECT (SELECT count(*) FROM craving WHERE notes IS NOT NULL) + (SELECT count(*) FROM usage WHERE notes IS NOT NULL)"
        )
        XCTAssertEqual(entries, withNotes, "one entry a log with notes", file: file, line: line)
        let elsewhere = try Int.fetchOne(
            db,
            sql: """
                SELECT count(*) FROM logSearch s WHERE NOT EXISTS
                  (SELECT 1 FROM craving c WHERE s.rowid = c.rowid * 2 AND s.logId = c.id AND s.notes = c.notes)
                AND NOT EXISTS
                  (SELECT 1 FROM usage u WHERE s.rowid = u.rowid * 2 + 1 AND s.logId = u.id AND s.notes = u.notes)
                """)
        XCTAssertEqual(
            elsewhere, 0, "each entry under its log's row, with its notes as they are", file: file, line: line)
    }

    func testAnOlderLibraryKeepsEveryLogFindableAndEditsKeepTheIndexInStep() throws {
        let queue = try DatabaseQueue()
        try Store.migrator.migrate(queue, upTo: Self.before)
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO craving (id, at, utcOffset, intensity, notes, createdAt, modifiedAt) VALUES
                      ('c1', '2026-01-01T08:00:00.000Z', 0, 5, 'a walk by the lake', 'x', 'x'),
                      ('c2', '2026-01-02T08:00:00.000Z', 0, 6, 'first draft', 'x', 'x'),
                      ('c3', '2026-01-03T08:00:00.000Z', 0, 7, 'gone soon', 'x', 'x'),
                      ('c4', '2026-01-04T08:00:00.000Z', 0, 4, NULL, 'x', 'x');
                    INSERT INTO usage (id, at, utcOffset, method, amount, notes, createdAt, modifiedAt) VALUES
                      ('u1', '2026-01-01T09:00:00.000Z', 0, 'vape', 2, 'after the walk', 'x', 'x'),
                      ('u2', '2026-01-02T09:00:00.000Z', 0, 'dab', 1, 'Café évening', 'x', 'x');
                    UPDATE craving SET notes = 'second thoughts' WHERE id = 'c2';
                    DELETE FROM craving WHERE id = 'c3';
                    """)
        }
        try Store.migrator.migrate(queue)
        try queue.write { db in
            XCTAssertEqual(try found("walk", db), ["craving c1", "use u1"])
            XCTAssertEqual(try found("second", db), ["craving c2"])
            XCTAssertEqual(try found("draft", db), [], "the notes as they were edited, not as first written")
            XCTAssertEqual(try found("gone", db), [], "a deleted log is not found")
            XCTAssertEqual(try found("evening", db), ["use u2"], "accents folded as before")
            try assertInStep(db)

            // Edits and deletes after the migration, and a log with the same rowid of the other kind.
            try db.execute(
                sql: """
                    UPDATE craving SET notes = 'by the sea' WHERE id = 'c1';
                    UPDATE craving SET notes = 'now written' WHERE id = 'c4';
                    UPDATE usage SET notes = NULL WHERE id = 'u2';
                    DELETE FROM usage WHERE id = 'u1';
                    INSERT INTO usage (id, at, utcOffset, method, amount, notes, createdAt, modifiedAt)
                      VALUES ('u3', '2026-01-05T09:00:00.000Z', 0, 'bowls', 1, 'the sea again', 'x', 'x');
                    UPDATE craving SET intensity = 9 WHERE id = 'c2';
                    """)
            XCTAssertEqual(try found("walk", db), [])
            XCTAssertEqual(try found("sea", db), ["craving c1", "use u3"])
            XCTAssertEqual(try found("written", db), ["craving c4"])
            XCTAssertEqual(try found("evening", db), [])
            XCTAssertEqual(try found("second", db), ["craving c2"])
            try assertInStep(db)
            try db.execute(sql: "DELETE FROM craving; DELETE FROM usage")
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM logSearch"), 0)
        }
    }

    /// Edits of many logs' notes in a large index: before, each one read the whole index (its
    /// entry looked up by an unindexed id); now each goes straight to its entry.
    func testAnEditFindsItsEntryAtOnce() throws {
        let queue = try DatabaseQueue()
        try Store.migrator.migrate(queue, upTo: Self.before)
        let logs = 20_000
        let edited = Array(stride(from: 1, through: logs, by: logs / 300))
        func fill(_ db: Database) throws {
            try db.execute(
                sql: """
                    DELETE FROM craving;
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(logs))
                    INSERT INTO craving (id, at, utcOffset, intensity, notes, createdAt, modifiedAt)
                    SELECT printf('%08X', i), '2026-01-01T00:00:00.000Z', 0, 5, 'note number ' || i, 'x', 'x' FROM n;
                    """)
        }
        func timeEdits() throws -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            try queue.write { db in
                for i in edited {
                    try db.execute(
                        sql: "UPDATE craving SET notes = 'looked back on' WHERE id = ?",
                        arguments: [String(format: "%08X", i)])
                }
            }
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        try queue.write(fill)
        let byId = try timeEdits()
        try Store.migrator.migrate(queue)
        try queue.write(fill)
        // The best of three: a loaded machine slows one pass, not the way the index is kept.
        let byRow = try (0..<3).map { _ in try timeEdits() }.min() ?? .infinity
        try queue.read { db in
            XCTAssertEqual(try found("looked", db).count, edited.count)
            try assertInStep(db)
        }
        XCTAssertLessThan(byRow * 10, byId, "\(edited.count) edits: \(byRow) s by row, \(byId) s by id")
        print("\(edited.count) edits of notes in an index of \(logs): \(byId) s by id, \(byRow) s by row")
    }
}
