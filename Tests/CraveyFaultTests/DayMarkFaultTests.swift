import CraveyTestSupport
import Foundation
import XCTest

/// Days answered for are typed input, kept under the logs' rules: after a lost database every
/// answer (and a mark a use withdrew) is back from the snapshot and the journal; an answer that
/// fails or is killed at its commit is wholly there or wholly absent, and `check` agrees; a backup
/// and its restore carry them; an answer the rules refuse (planted in the journal) is set aside.
final class DayMarkFaultTests: FaultCampaign {
    let environment = ["TZ": "UTC", "CRAVEY_NOW": "2026-11-20T12:00:00"]

    /// The answers as the shared typed-row checks read them back.
    var rows: TypedRows { TypedRows(shown: kinds, keep: ["today", "--none"], step: "day.mark", table: "dayMark") }

    func kinds(_ root: String) throws -> [String] {
        let result = try run(["report", "--json", "--from", "2026-11-15"], root, environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return (report?["days"] as? [[String: Any]] ?? []).map { "\($0["day"]!) \($0["kind"]!)" }
    }

    func answer(_ arguments: [String], _ root: String) throws {
        let result = try run(["today"] + arguments, root, environment: environment)
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
    }

    /// Tracking since Nov 16; Nov 17 no use, Nov 18 not remembered, Nov 19 no use then a use.
    func answered(_ root: String) throws -> [String] {
        XCTAssertEqual(try run(["craving", "4", "--at", "2026-11-16 09:00"], root, environment: environment).status, 0)
        try answer(["--none", "--date", "2026-11-17"], root)
        try answer(["--dont-remember", "--date", "2026-11-18"], root)
        try answer(["--none", "--date", "2026-11-19"], root)
        XCTAssertEqual(
            try run(["use", "vape", "2", "--at", "2026-11-19 20:00"], root, environment: environment).status, 0)
        let kinds = try kinds(root)
        XCTAssertEqual(
            kinds,
            [
                "2026-11-15 beforeTracking", "2026-11-16 notReported", "2026-11-17 noUse", "2026-11-18 dontRemember",
                "2026-11-19 used", "2026-11-20 notReported",
            ])
        return kinds
    }

    func testAnswersSurviveALostDatabase() throws {
        let root = base + "/lib"
        let before = try answered(root)
        Self.faults += 1
        Self.cases += 1
        for suffix in ["", "-wal", "-shm"] { unlink(root + "/library.sqlite" + suffix) }
        let after = try kinds(root)
        if after != before { Self.lost += 1 }
        XCTAssertEqual(after, before, "every answer is back from the journal")
        let marks = try runProcess(
            "/usr/bin/sqlite3",
            [root + "/library.sqlite", "SELECT day, answer, withdrawnBy IS NOT NULL FROM dayMark ORDER BY day"]
        ).stdout
        XCTAssertEqual(marks, "2026-11-17|none|0\n2026-11-18|unknown|0\n2026-11-19|none|1\n", "the withdrawn mark too")
        let checked = try run(["check"], root, environment: environment)
        XCTAssertEqual(checked.status, 0, checked.stdout + checked.stderr)
    }

    /// The fault seam's steps of answering a day, as counted in a run failed at its commit (run
    /// twice: what a first run does once, such as the day's snapshot, is not counted).
    func steps(_ root: String) throws -> [String] {
        var sites: [String] = []
        for _ in 0..<2 {
            let traced = try run(
                ["today", "--none", "--date", "2026-11-18"], root,
                environment: environment.merging(["CRAVEY_FAULT_TRACE": "1", "CRAVEY_FAULT_FAIL": "day.mark.commit"]) {
                    $1
                })
            XCTAssertNotEqual(traced.status, 0, "failed at its commit")
            sites = traced.stderr.split(separator: "\n").filter { $0.hasPrefix("fault-site ") }.map {
                String($0.dropFirst("fault-site ".count))
            }
        }
        return sites
    }

    func testAnAnswerFailedOrKilledAtItsCommitIsWhollyThereOrAbsent() throws {
        let root = base + "/lib"
        XCTAssertEqual(try run(["craving", "4", "--at", "2026-11-16 09:00"], root, environment: environment).status, 0)
        XCTAssertTrue(try steps(root).contains("day.mark.commit"))
        XCTAssertTrue(try kinds(root).contains("2026-11-18 notReported"), "a failed commit keeps nothing")
        for offset in 0..<3 {
            let sites = try steps(root)
            let commit = try XCTUnwrap(sites.firstIndex(of: "day.mark.commit"))
            let kill = commit + 1 + offset
            Self.faults += 1
            Self.cases += 1
            let killed = try run(
                ["today", "--none", "--date", "2026-11-18"], root,
                environment: environment.merging(["CRAVEY_FAULT_KILL_AT": String(kill)]) { $1 })
            XCTAssertNotEqual(killed.status, 0, "killed at \(sites[kill - 1])")
            let kinds = try kinds(root)
            XCTAssertTrue(
                kinds.contains("2026-11-18 notReported") || kinds.contains("2026-11-18 noUse"),
                "killed at \(sites[kill - 1]): \(kinds)")
            let checked = try run(["check"], root, environment: environment)
            XCTAssertEqual(checked.status, 0, "killed at \(sites[kill - 1]): " + checked.stdout + checked.stderr)
            // Wholly there or absent: a lost database after it gives the same answer.
            for suffix in ["", "-wal", "-shm"] { unlink(root + "/library.sqlite" + suffix) }
            XCTAssertEqual(try self.kinds(root), kinds, "killed at \(sites[kill - 1]), then a lost database")
            // Taken back, so that the next step answers the day anew.
            try sqlite(root, "DELETE FROM dayMark WHERE day = '2026-11-18'")
        }
    }

    func testABackupAndItsRestoreCarryTheAnswers() throws {
        let root = base + "/lib"
        try assertBackupCarries(rows, made: try answered(root), root, environment: environment)
    }

    func testAnAnswerTheRulesRefuseIsSetAsideFromTheJournal() throws {
        let root = base + "/lib"
        _ = try answered(root)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: root + "/logs.journal"))
        try handle.seekToEnd()
        try handle.write(
            contentsOf: Data(
                (#"{"id":"2099-01-01","kind":"day","row":{"answer":"none","day":"2099-01-01","markedAt":"2026-11-20T12:00:00.000Z","withdrawnBy":null}}"#
                    + "\n"
                    + #"{"id":"2026-11-20","kind":"day","row":{"answer":"maybe","day":"2026-11-20","markedAt":"2026-11-20T12:00:00.000Z","withdrawnBy":null}}"#
                    + "\n").utf8))
        try handle.close()
        Self.faults += 1
        for suffix in ["", "-wal", "-shm"] { unlink(root + "/library.sqlite" + suffix) }
        let after = try run(["log"], root, environment: environment)
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertTrue(after.stderr.contains("could not be brought back"), after.stderr)
        XCTAssertTrue(try kinds(root).contains("2026-11-20 notReported"))
        XCTAssertTrue(try kinds(root).contains("2026-11-17 noUse"))
    }

    /// An answer another program wrote that cravey would refuse (a day to come) is named by
    /// `check`, removed by `check --repair` (journaled as removed), and keeps a backup of it from
    /// being restored.
    func testCheckNamesAndRepairsAnAnswerCraveyWouldRefuse() throws {
        let root = base + "/lib"
        _ = try answered(root)
        try assertCheckNamesAndRepairs(
            rows,
            planted:
                "INSERT INTO dayMark (day, answer, markedAt) VALUES ('2099-01-01', 'none', '2026-11-20T12:00:00.000Z')",
            saying: "the answer for '2099-01-01' is for a day that has not come yet", root, environment: environment)
        XCTAssertEqual(try kinds(root).count, 6)
    }
}
