import CraveyTestSupport
import Foundation
import XCTest

/// Another machine's years taken in: a chunk of lines is applied in a savepoint, each statement
/// with its triggers in one of its own, and the pages they change are kept as they were (SQLite's
/// sub-journal) in memory, never written to a temporary file: ten years of lines wrote 3.4 GB
/// there, twenty-five times the library. The logs and the journal come out as before.
final class SyncReplayTests: SyncFoldersTestCase {
    func testAMergeOfThousandsOfLogsWritesNoTemporaryFileAndKeepsEveryLog() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else {
            throw XCTSkip("strace is not installed (Tests/install-deps.sh installs it)")
        }
        let a = library("a"), b = library("b")
        let shared = try folder("shared")
        try cravey(a, ["settings", "name", "Sam"])
        let count = 3000
        try putCravings(
            a, count: count, notesEnding: #"' "said" \ / é'"#,
            then: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count / 3))
                INSERT INTO usage (id, at, utcOffset, method, amount, triggers, moodAfter, createdAt, modifiedAt)
                SELECT printf('%08X-0000-4000-9000-%012X', i, i),
                       strftime('%Y-%m-%dT%H:%M:%f', 1700000000 + i * 7200, 'unixepoch') || 'Z', 3600,
                       CASE i % 2 WHEN 0 THEN 'bowls' ELSE 'vape' END, CASE i % 2 WHEN 0 THEN 1.5 ELSE 3 END, 'social',
                       1 + i % 10, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM n;
                """)
        try synced(a, ["--folder", shared])
        try cravey(b, ["settings", "name", "--clear"])  // made first: its making is not the merge

        let trace = base + "/strace.log"
        let traced = try runProcess(
            "/usr/bin/strace",
            ["-f", "-o", trace, "-e", "trace=openat,open,creat", cravey, "sync", "--folder", shared, "--library", b],
            environment: ["CRAVEY_TRANSCRIBE": "later", "NO_COLOR": "1", "TZ": "Europe/Berlin"])
        XCTAssertEqual(traced.status, 0, traced.stderr.suffix(2000).description)
        let calls = try String(contentsOfFile: trace, encoding: .utf8)
        // SQLite names its temporary files `etilqs_…` (the sub-journal among them).
        let temporary = calls.split(separator: "\n").filter { $0.contains("etilqs_") }
        XCTAssertEqual(temporary, [], "a temporary file opened by the merge")
        XCTAssertTrue(calls.contains(b + "/library.sqlite"), "the trace follows the library")

        // The journal, before anything else reads the library (a day's snapshot empties it), holds
        // each log in the encoder's form.
        let journal = try String(contentsOfFile: b + "/logs.journal", encoding: .utf8)
        let lines = journal.split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.contains(#""kind":"craving""#) }.count, count, "one line a craving")
        XCTAssertEqual(lines.filter { $0.contains(#""kind":"use""#) }.count, count / 3, "one line a use")
        XCTAssertTrue(journal.contains(#""notes":"note 7 \"said\" \\ / é""#), "the encoder's escapes")
        XCTAssertTrue(journal.contains(#""amount":1.5,"#) && journal.contains(#""amount":3,"#))
        XCTAssertEqual(try logText(b), try logText(a))
        XCTAssertEqual(try cravey(b, ["check"], status: nil).status, 0)
    }
}

extension SyncFoldersTestCase {
    /// `count` cravings put straight into a library's database, as years of logs are: an hour
    /// apart, every other one bored, each with a note (`note N` and `notesEnding`, an SQL string);
    /// then the SQL `then`.
    func putCravings(_ library: String, count: Int, notesEnding: String = "''", then: String = "") throws {
        let insert = try runProcess(
            "/usr/bin/sqlite3",
            [
                library + "/library.sqlite",
                """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
                INSERT INTO craving (id, at, utcOffset, intensity, triggers, location, notes, createdAt, modifiedAt)
                SELECT printf('%08X-0000-4000-8000-%012X', i, i),
                       strftime('%Y-%m-%dT%H:%M:%f', 1700000000 + i * 3600, 'unixepoch') || 'Z', 3600, 1 + i % 10,
                       CASE i % 2 WHEN 0 THEN 'bored' ELSE '' END, 'home', 'note ' || i || \(notesEnding),
                       '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM n;
                """ + then,
            ])
        XCTAssertEqual(insert.status, 0, insert.stderr)
    }
}
