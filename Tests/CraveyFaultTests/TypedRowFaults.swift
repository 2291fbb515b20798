import CraveyTestSupport
import Foundation
import XCTest

/// Rows the person types that are not logs (days' answers, withdrawal checks, …) are kept under
/// the logs' rules: what a campaign holds each kind to, given how its rows are read back through
/// the binary (`shown`), the command that keeps one (`keep`), its fault step and its table.
struct TypedRows {
    var shown: (String) throws -> [String]
    var keep: [String]
    var step: String
    var table: String
}

extension FaultCampaign {
    func lose(_ root: String) { for suffix in ["", "-wal", "-shm"] { unlink(root + "/library.sqlite" + suffix) } }

    /// After a lost database every row is back from the snapshot and the journal, and `check` agrees.
    func assertSurviveALostDatabase(
        _ rows: TypedRows, made before: [String], _ root: String, environment: [String: String]
    )
        throws
    {
        Self.faults += 1
        Self.cases += 1
        lose(root)
        let after = try rows.shown(root)
        if after != before { Self.lost += 1 }
        XCTAssertEqual(after, before, "every row is back from the journal")
        let checked = try run(["check"], root, environment: environment)
        XCTAssertEqual(checked.status, 0, checked.stdout + checked.stderr)
    }

    /// Keeping a row failed at its commit keeps nothing; killed at the commit and each of the
    /// next two steps it is wholly there (`kept`) or absent (`absent`), `check` agrees, and a
    /// lost database after gives the same. `undo` takes it back before the next step.
    func assertWhollyThereOrAbsent(
        _ rows: TypedRows, kept: [String], absent: [String], _ root: String, environment: [String: String],
        undo: String
    ) throws {
        func steps() throws -> [String] {
            var sites: [String] = []
            for _ in 0..<2 {  // a first run's once-only steps (the day's snapshot) are not counted
                let traced = try run(
                    rows.keep, root,
                    environment: environment.merging([
                        "CRAVEY_FAULT_TRACE": "1", "CRAVEY_FAULT_FAIL": rows.step + ".commit",
                    ]) { $1 })
                XCTAssertNotEqual(traced.status, 0, "failed at its commit")
                sites = traced.stderr.split(separator: "\n").filter { $0.hasPrefix("fault-site ") }.map {
                    String($0.dropFirst("fault-site ".count))
                }
            }
            return sites
        }
        XCTAssertTrue(try steps().contains(rows.step + ".commit"))
        XCTAssertEqual(try rows.shown(root), absent, "a failed commit keeps nothing")
        for offset in 0..<3 {
            let sites = try steps()
            let kill = try XCTUnwrap(sites.firstIndex(of: rows.step + ".commit")) + 1 + offset
            Self.faults += 1
            Self.cases += 1
            let killed = try run(
                rows.keep, root, environment: environment.merging(["CRAVEY_FAULT_KILL_AT": String(kill)]) { $1 })
            XCTAssertNotEqual(killed.status, 0, "killed at \(sites[kill - 1])")
            let shown = try rows.shown(root)
            XCTAssertTrue(shown == absent || shown == kept, "killed at \(sites[kill - 1]): \(shown)")
            let checked = try run(["check"], root, environment: environment)
            XCTAssertEqual(checked.status, 0, "killed at \(sites[kill - 1]): " + checked.stdout + checked.stderr)
            lose(root)
            XCTAssertEqual(try rows.shown(root), shown, "killed at \(sites[kill - 1]), then a lost database")
            try sqlite(root, undo)
        }
    }

    /// A backup and its restore carry the rows.
    func assertBackupCarries(_ rows: TypedRows, made before: [String], _ root: String, environment: [String: String])
        throws
    {
        let backup = base + "/backup"
        let saved = try run(["backup", backup], root, environment: environment)
        XCTAssertEqual(saved.status, 0, saved.stderr)
        let restored = try run(["restore", backup], base + "/restored", environment: environment)
        XCTAssertEqual(restored.status, 0, restored.stderr)
        XCTAssertEqual(try rows.shown(base + "/restored"), before)
    }

    /// `lines` planted at the journal's end are set aside after a lost database, the rows
    /// shown `before` kept.
    func assertSetAside(
        _ rows: TypedRows, lines: [String], made before: [String], _ root: String, environment: [String: String]
    ) throws {
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: root + "/logs.journal"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(lines.map { $0 + "\n" }.joined().utf8))
        try handle.close()
        Self.faults += 1
        lose(root)
        let after = try run(["log"], root, environment: environment)
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertTrue(after.stderr.contains("could not be brought back"), after.stderr)
        XCTAssertEqual(try rows.shown(root), before)
    }

    /// A row for 2099-01-01 planted by `insert` (another program's) keeps a backup of it from
    /// being restored, is named by `check` in `words`, removed by `check --repair`, and not
    /// brought back by the journal.
    func assertCheckNamesAndRepairs(
        _ rows: TypedRows, planted insert: String, saying words: String, _ root: String,
        environment: [String: String]
    ) throws {
        try sqlite(root, insert)
        Self.faults += 1
        Self.cases += 1
        let backup = base + "/backup"
        XCTAssertEqual(try run(["backup", backup], root, environment: environment).status, 0)
        let restored = try run(["restore", backup], base + "/restored", environment: environment)
        XCTAssertNotEqual(restored.status, 0, "a backup holding it is refused")
        XCTAssertTrue(restored.stderr.contains("2099-01-01"), restored.stderr)
        let checked = try run(["check"], root, environment: environment)
        XCTAssertEqual(checked.status, 1)
        XCTAssertTrue((checked.stdout + checked.stderr).contains(words), checked.stdout + checked.stderr)
        XCTAssertEqual(try run(["check", "--repair"], root, environment: environment).status, 0)
        XCTAssertEqual(try run(["check"], root, environment: environment).status, 0)
        lose(root)
        XCTAssertFalse(
            try runProcess("/usr/bin/sqlite3", [root + "/library.sqlite", "SELECT * FROM \(rows.table)"]).stdout
                .contains("2099"),
            "not brought back by the journal")
    }
}
