import GRDB
import XCTest

@testable import CraveyLibrary

/// Rows are read by column name: a query that selects the columns in another order, or selects
/// more than a recording's columns, reads the same recording.
final class RecordingRowTests: XCTestCase {
    func testAColumnAddedOrReorderedBreaksNothing() throws {
        let lib = try TemporaryLibrary()
        let library = try lib.open()
        let saved = try lib.add(library, title: "Walk", kind: .video)
        let path = lib.root + "/library.sqlite"
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.write { db in
            try db.execute(sql: "ALTER TABLE recording ADD COLUMN somethingNew TEXT DEFAULT 'x'")
        }
        let columns = try queue.read { db in try db.columns(in: "recording").map(\.name) }
        XCTAssertTrue(columns.contains("somethingNew"))
        try queue.read { db in
            let reversed = columns.reversed().joined(separator: ", ")
            let row = try XCTUnwrap(
                try Row.fetchOne(db, sql: "SELECT 42 AS extra, \(reversed), 'y' AS other FROM recording"))
            XCTAssertEqual(Recording(row: row), saved, "reversed, with columns before and after")
            let star = try XCTUnwrap(try Recording.fetchOne(db, sql: "SELECT * FROM recording"))
            XCTAssertEqual(star, saved, "SELECT * with a column the code does not know")
            let some = try XCTUnwrap(try Recording.fetchOne(db, sql: "SELECT title, id, kind FROM recording"))
            XCTAssertEqual(some.title, "Walk")
            XCTAssertEqual(some.id, saved.id)
            XCTAssertEqual(some.media.waveform, [], "a column not selected reads as absent")
        }
        XCTAssertEqual(
            try library.recording(matching: saved.id.uuidString), saved, "the library reads it after the schema grew")
    }
}
