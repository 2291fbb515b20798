import CraveyTestSupport
import Foundation
import XCTest

/// Bringing in many changes: they are applied a chunk at a time, each chunk with how far it read,
/// so a merge killed half-way is taken up where it stopped and ends where an unbroken one ends.
final class SyncBulkTests: SyncFoldersTestCase {
    func testAMergeKilledBetweenChunksIsTakenUpWhereItStopped() throws {
        let a = library("a"), whole = library("whole"), killed = library("killed")
        let shared = try folder("shared")
        try cravey(a, ["settings", "name", "Sam"])
        let count = 5000
        let insert = try runProcess(
            "/usr/bin/sqlite3",
            [
                a + "/library.sqlite",
                """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
                INSERT INTO craving (id, at, utcOffset, intensity, triggers, location, notes, createdAt, modifiedAt)
                SELECT printf('%08X-0000-4000-8000-%012X', i, i),
                       strftime('%Y-%m-%dT%H:%M:%f', 1700000000 + i * 3600, 'unixepoch') || 'Z', 3600, 1 + i % 10,
                       CASE i % 2 WHEN 0 THEN 'bored' ELSE '' END, 'home', 'note ' || i,
                       '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM n;
                """,
            ])
        XCTAssertEqual(insert.status, 0, insert.stderr)
        try synced(a, ["--folder", shared])
        let expected = try logText(a)

        let trace = try runProcess(
            cravey, ["sync", "--folder", shared, "--library", whole],
            environment: ["CRAVEY_TRANSCRIBE": "later", "CRAVEY_FAULT_TRACE": "1"])
        XCTAssertEqual(trace.status, 0, trace.stderr.suffix(2000).description)
        XCTAssertEqual(try logText(whole), expected)
        let sites = trace.stderr.split(separator: "\n").filter { $0.hasPrefix("fault-site ") }
        let commits = sites.indices.filter { sites[$0] == "fault-site sync.merge.committed" }
        XCTAssertGreaterThanOrEqual(commits.count, 2, "more than one chunk")

        let cut = try runProcess(
            cravey, ["sync", "--folder", shared, "--library", killed],
            environment: ["CRAVEY_TRANSCRIBE": "later", "CRAVEY_FAULT_KILL_AT": String(commits[0] + 1)])
        XCTAssertEqual(cut.status, -9)
        let rest = try synced(killed)
        XCTAssertEqual(rest["broughtIn"] as? Int, count + 1 - 4096, "the first chunk was kept: \(rest)")
        XCTAssertEqual(try logText(killed), expected)
        try cravey(killed, ["check"])
        XCTAssertEqual(try cravey(killed, ["settings", "name"]).stdout, "Sam\n")
    }
}
