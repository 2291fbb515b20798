import CraveyTestSupport
import Foundation
import XCTest

/// Withdrawal checks are typed input, kept under the logs' rules as days' answers are: after a
/// lost database every check is back from the snapshot and the journal; a check that fails or
/// is killed at its commit is wholly there or wholly absent, and `check` agrees; a backup and its
/// restore carry them; a check the rules refuse (planted in the journal) is set aside, and one
/// another program wrote is named by `check` and removed by `check --repair`.
final class WithdrawalFaultTests: FaultCampaign {
    var environment = ["TZ": "UTC", "CRAVEY_NOW": "2026-11-20T12:00:00"]

    /// The checks as `withdrawal --json` shows them: "day sleep … craving".
    func shown(_ root: String) throws -> [String] {
        let result = try run(["withdrawal", "--json"], root, environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return (object?["checks"] as? [[String: Any]] ?? []).map { check in
            let scores = check["scores"] as? [String: Int] ?? [:]
            return "\(check["day"]!) "
                + ["sleep", "irritability", "anxiety", "appetite", "dreams", "craving"].map { "\(scores[$0] ?? -1)" }
                .joined(separator: ",")
        }
    }

    func keep(_ scores: String, on now: String, _ root: String) throws {
        let result = try run(
            ["withdrawal", scores], root, environment: environment.merging(["CRAVEY_NOW": now]) { $1 })
        XCTAssertEqual(result.status, 0, "\(scores): \(result.stderr)")
    }

    /// The last use Nov 17, goal quit; checks on day 1 and day 3 (kept twice).
    func checked(_ root: String) throws -> [String] {
        XCTAssertEqual(
            try run(["use", "vape", "2", "--at", "2026-11-17 21:00"], root, environment: environment).status, 0)
        XCTAssertEqual(try run(["settings", "goal", "quit"], root, environment: environment).status, 0)
        try keep("2,3,4,5,1,8", on: "2026-11-18T20:00:00", root)
        try keep("6,7,5,2,8,9", on: "2026-11-20T09:00:00", root)
        try keep("7,7,5,2,8,10", on: "2026-11-20T12:00:00", root)
        let shown = try shown(root)
        XCTAssertEqual(shown, ["2026-11-18 2,3,4,5,1,8", "2026-11-20 7,7,5,2,8,10"])
        return shown
    }

    func lose(_ root: String) { for suffix in ["", "-wal", "-shm"] { unlink(root + "/library.sqlite" + suffix) } }

    func testChecksSurviveALostDatabase() throws {
        let root = base + "/lib"
        let before = try checked(root)
        Self.faults += 1
        Self.cases += 1
        lose(root)
        let after = try shown(root)
        if after != before { Self.lost += 1 }
        XCTAssertEqual(after, before, "every check is back from the journal")
        let checked = try run(["check"], root, environment: environment)
        XCTAssertEqual(checked.status, 0, checked.stdout + checked.stderr)
    }

    /// The fault seam's steps of keeping a check, as counted in a run failed at its commit (run
    /// twice: what a first run does once, such as the day's snapshot, is not counted).
    func steps(_ root: String) throws -> [String] {
        var sites: [String] = []
        for _ in 0..<2 {
            let traced = try run(
                ["withdrawal", "1,1,1,1,1,1"], root,
                environment: environment.merging([
                    "CRAVEY_FAULT_TRACE": "1", "CRAVEY_FAULT_FAIL": "withdrawal.check.commit",
                ]) { $1 })
            XCTAssertNotEqual(traced.status, 0, "failed at its commit")
            sites = traced.stderr.split(separator: "\n").filter { $0.hasPrefix("fault-site ") }.map {
                String($0.dropFirst("fault-site ".count))
            }
        }
        return sites
    }

    func testACheckFailedOrKilledAtItsCommitIsWhollyThereOrAbsent() throws {
        let root = base + "/lib"
        XCTAssertEqual(
            try run(["use", "vape", "2", "--at", "2026-11-17 21:00"], root, environment: environment).status, 0)
        XCTAssertEqual(try run(["settings", "goal", "quit"], root, environment: environment).status, 0)
        XCTAssertTrue(try steps(root).contains("withdrawal.check.commit"))
        XCTAssertEqual(try shown(root), [], "a failed commit keeps nothing")
        for offset in 0..<3 {
            let sites = try steps(root)
            let commit = try XCTUnwrap(sites.firstIndex(of: "withdrawal.check.commit"))
            let kill = commit + 1 + offset
            Self.faults += 1
            Self.cases += 1
            let killed = try run(
                ["withdrawal", "1,1,1,1,1,1"], root,
                environment: environment.merging(["CRAVEY_FAULT_KILL_AT": String(kill)]) { $1 })
            XCTAssertNotEqual(killed.status, 0, "killed at \(sites[kill - 1])")
            let shown = try shown(root)
            XCTAssertTrue(shown == [] || shown == ["2026-11-20 1,1,1,1,1,1"], "killed at \(sites[kill - 1]): \(shown)")
            let checked = try run(["check"], root, environment: environment)
            XCTAssertEqual(checked.status, 0, "killed at \(sites[kill - 1]): " + checked.stdout + checked.stderr)
            lose(root)
            XCTAssertEqual(try self.shown(root), shown, "killed at \(sites[kill - 1]), then a lost database")
            try sqlite(root, "DELETE FROM withdrawalCheck")
        }
    }

    func testABackupAndItsRestoreCarryTheChecks() throws {
        let root = base + "/lib"
        let before = try checked(root)
        let backup = base + "/backup"
        let saved = try run(["backup", backup], root, environment: environment)
        XCTAssertEqual(saved.status, 0, saved.stderr)
        let restored = try run(["restore", backup], base + "/restored", environment: environment)
        XCTAssertEqual(restored.status, 0, restored.stderr)
        XCTAssertEqual(try shown(base + "/restored"), before)
    }

    func testACheckTheRulesRefuseIsSetAsideFromTheJournal() throws {
        let root = base + "/lib"
        _ = try checked(root)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: root + "/logs.journal"))
        try handle.seekToEnd()
        let row =
            #""sleep":11,"irritability":1,"anxiety":1,"appetite":1,"dreams":1,"craving":1,"checkedAt":"2026-11-19T12:00:00.000Z""#
        try handle.write(
            contentsOf: Data(
                (#"{"id":"2026-11-19","kind":"withdrawal","row":{"day":"2026-11-19","# + row + "}}\n").utf8))
        try handle.close()
        Self.faults += 1
        lose(root)
        let after = try run(["log"], root, environment: environment)
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertTrue(after.stderr.contains("could not be brought back"), after.stderr)
        XCTAssertEqual(try shown(root), ["2026-11-18 2,3,4,5,1,8", "2026-11-20 7,7,5,2,8,10"])
    }

    func testCheckNamesAndRepairsACheckCraveyWouldRefuse() throws {
        let root = base + "/lib"
        _ = try checked(root)
        try sqlite(
            root,
            "INSERT INTO withdrawalCheck VALUES ('2099-01-01', 1, 1, 1, 1, 1, 1, '2026-11-20T12:00:00.000Z')")
        Self.faults += 1
        Self.cases += 1
        let backup = base + "/backup"
        XCTAssertEqual(try run(["backup", backup], root, environment: environment).status, 0)
        let restored = try run(["restore", backup], base + "/restored", environment: environment)
        XCTAssertNotEqual(restored.status, 0, "a backup holding it is refused")
        XCTAssertTrue(restored.stderr.contains("2099-01-01"), restored.stderr)
        let checked = try run(["check"], root, environment: environment)
        XCTAssertEqual(checked.status, 1)
        XCTAssertTrue(
            (checked.stdout + checked.stderr).contains(
                "the withdrawal check of '2099-01-01' is for a day that has not come yet"),
            checked.stdout + checked.stderr)
        XCTAssertEqual(try run(["check", "--repair"], root, environment: environment).status, 0)
        XCTAssertEqual(try run(["check"], root, environment: environment).status, 0)
        lose(root)
        XCTAssertFalse(
            try runProcess("/usr/bin/sqlite3", [root + "/library.sqlite", "SELECT day FROM withdrawalCheck"]).stdout
                .contains("2099"),
            "not brought back by the journal")
    }
}
