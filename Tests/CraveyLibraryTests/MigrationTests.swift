import CraveyTestSupport
import Foundation
import Synchronization
import GRDB
import XCTest

@testable import CraveyLibrary

/// A migration never changes once shipped: a library made by an older cravey has run it as it was,
/// so a change would leave that library with another schema than a new one. Each registered
/// migration's SQL (every statement it runs, traced) is held to the digest checked in here; a
/// change of schema is a new migration below the last, with a new line here.
final class MigrationTests: XCTestCase {
    static let shipped: [(name: String, sha256: String)] = [
        ("v1: recordings", "adfdf326bfc0a5adc3f3dc4b34db21be89d59c793cac0a8cc4954faae2fe58e3"),
        ("v2: loudness", "4accae856e8537e0285c7b644deebbdd3e1c3f96688b13cee7e258cb31d199e0"),
        ("v3: check-ins", "9b067c15aa39fcca018c241ca188862d3e6602e1cb27a4ba53eb27cb1e1893d5"),
        ("v4: transcripts", "7f16d97a01e321b8493f0c47e9477a2739e6cb7fe51b8f9859a07cece8d56771"),
        ("v5: cravings and use", "c1f443ea43bf488e7053ca66e3b5fedb0c4b606ee6af1c04a21025f65aadc67c"),
        ("v6: transcript queue", "c824f934e00d07d7298631de9dce3464a057084b37b7cf7c9804401dbe57de01"),
        ("v7: files' own tags", "3f56e7d5bf356f088247fed2272b6f256a2e9b06121514c15d49866263be6463"),
        ("v8: deleted logs leave the snapshots", "315656013ff000a3112b4442aeecb09388722a785cad5ee656fdab63f3eb0e97"),
        ("v9: the journal of logs and settings", "474e04dd2ce90d81335f0d7e5f1ad0b5a30ba6dafe30943a23a6cdfb51f2f4e3"),
        ("v10: scrubbed entries named as such", "bda1112d306a53f6a76723fdac5a495ddc402d194900be7fb1236bdbf3e550d3"),
        (
            "v11: rides, messages that help, milestones",
            "019a642d2335b14f86086f88fdeacb26c0995ea058ed18138428049e6031a3e6"
        ),
        ("v12: if-then plans", "cc9b5f032ba627470f5dd7bb0c4dbd2706b0a82e020e3a392d9191e39dd042e8"),
        ("v13: days that are known", "6822148c402a91a10150f4d0f8f7ce4e654e3a252759c98ad1db57165a88992c"),
        ("v14: withdrawal checks", "1844e56658ce8314760812c12c417cfda77c1e99f07627138ea08dd163c11b11"),
        ("v15: self-screens", "0d202ef691d0af6f0a34e79aacb39f3eb13807d1c26b5808b7af5069bbf02751"),
        ("v16: limits", "ee1bb1fac394392911d19c16af522b95762a0bf0d50efce6dc43c4b38aae88b7"),
        ("v17: sync", "25f9154aced90d61bd3ac179df774c0c0e44b74988c7315eb30ded463b819448"),
        ("v18: shared recordings", "701f709c308b20a033140d3da1d75d87e794a99f1c5853766e5c600b1cf81bb8"),
        ("v19: plays per device", "6c95876ac7a08b392c98cff7142bb339702dd8ea1d283320d90dcce1f906e498"),
        ("v20: the logs' search keyed by row", "52a75f3b879e00362a9b98d0657a5ff08e02e436f54833d09988f50de3b68564"),
    ]

    func testNoShippedMigrationChanges() throws {
        let migrator = Store.migrator
        XCTAssertEqual(migrator.migrations, Self.shipped.map(\.name), "migrations are only ever added, below the last")
        let statements = Mutex<[String]>([])
        var config = Configuration()
        config.prepareDatabase { db in
            db.trace { event in statements.withLock { $0.append("\(event)") } }
        }
        let queue = try DatabaseQueue(configuration: config)
        var digests: [String] = []
        for (name, _) in Self.shipped {
            statements.withLock { $0 = [] }
            try migrator.migrate(queue, upTo: name)
            let sql = statements.withLock { $0 }.filter {
                !$0.hasPrefix("INSERT INTO grdb_migrations") && !$0.hasPrefix("SELECT")
            }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                "migration-\(UUID().uuidString).sql")
            try sql.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            digests.append(String(try runProcess("/usr/bin/sha256sum", [file.path]).stdout.prefix(64)))
        }
        for ((name, expected), digest) in zip(Self.shipped, digests) {
            XCTAssertEqual(
                digest, expected, "the migration '\(name)' changed after it was shipped: add a new migration instead")
        }
    }

    /// v10 renames the scrub note's column: a note made before it is kept, and the triggers of
    /// v7 and v8 go on noting deletions under the new name.
    func testTheScrubNoteKeepsItsRowsAndTriggersUnderItsNewName() throws {
        let queue = try DatabaseQueue()
        try Store.migrator.migrate(queue, upTo: "v9: the journal of logs and settings")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO pendingScrub (recordingId) VALUES ('use:before')")
        }
        try Store.migrator.migrate(queue)
        try queue.write { db in
            XCTAssertEqual(try db.columns(in: "pendingScrub").map(\.name), ["entryId"])
            try db.execute(
                sql: """
                    INSERT INTO craving (id, at, utcOffset, intensity, createdAt, modifiedAt) VALUES ('c1', '2026-01-01T00:00:00Z', 0, 5, 'x', 'x');
                    DELETE FROM craving WHERE id = 'c1';
                    """)
            XCTAssertEqual(
                try String.fetchAll(db, sql: "SELECT entryId FROM pendingScrub ORDER BY entryId"),
                ["craving:c1", "use:before"])
        }
    }

    /// v11 on an older library: the message a craving named becomes the first it played, a
    /// deleted recording leaves the played list (the row is journaled again), and what a
    /// message was made for and the milestones hold only what cravey writes.
    func testRidesPlaysAndMilestonesOnAnOlderLibrary() throws {
        let queue = try DatabaseQueue()
        try Store.migrator.migrate(queue, upTo: "v10: scrubbed entries named as such")
        let recording = """
            INSERT INTO recording (id, createdAt, kind, title, duration, filePath, modifiedAt)
            VALUES ('%@', 'x', 'audio', 't', 1, 'Recordings/%@.m4a', 'x');
            """
        try queue.write { db in
            for id in ["r1", "r2"] { try db.execute(sql: recording.replacingOccurrences(of: "%@", with: id)) }
            try db.execute(
                sql: """
                    INSERT INTO craving (id, at, utcOffset, intensity, recordingId, createdAt, modifiedAt)
                    VALUES ('c1', '2026-01-01T00:00:00Z', 0, 5, 'r1', 'x', 'x'),
                           ('c2', '2026-01-02T00:00:00Z', 0, 5, NULL, 'x', 'x');
                    """)
        }
        try Store.migrator.migrate(queue)
        try queue.write { db in
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT played FROM craving ORDER BY id"), ["r1", ""])
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT forTriggers FROM recording"), ["", ""])
            try db.execute(sql: "UPDATE craving SET played = 'r2,r1', ratings = '[[0,7],[300,4]]' WHERE id = 'c1'")
            try db.execute(sql: "DELETE FROM pendingJournal")
            try db.execute(sql: "DELETE FROM recording WHERE id = 'r2'")
            XCTAssertEqual(try String.fetchOne(db, sql: "SELECT played FROM craving WHERE id = 'c1'"), "r1")
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT id FROM pendingJournal"), ["c1"])
            for refused in [
                "UPDATE craving SET ratings = '[[0,7' WHERE id = 'c1'",
                "UPDATE recording SET forTriggers = 'anxious,restless'",
                "INSERT INTO milestone (id, kind, count, reachedOn) VALUES ('days:3', 'daysInProgress', 3, '2026-01-03')",
                "INSERT INTO milestone (id, kind, count, reachedOn) VALUES ('daysInProgress:3', 'daysInProgress', 3, 'today')",
            ] {
                XCTAssertThrowsError(try db.execute(sql: refused), refused)
            }
            try db.execute(sql: "UPDATE recording SET forTriggers = 'anxious,bored'")
            try db.execute(
                sql:
                    "INSERT INTO milestone (id, kind, count, reachedOn) VALUES ('daysInProgress:3', 'daysInProgress', 3, '2026-01-03')"
            )
            XCTAssertEqual(
                try String.fetchAll(db, sql: "SELECT kind || ' ' || id FROM pendingJournal WHERE kind = 'milestone'"),
                ["milestone daysInProgress:3"])
        }
    }
}
