import CraveyTestSupport
import Foundation
import XCTest

/// Withdrawal checks are typed input, kept under the logs' rules as days' answers are: after a
/// lost database every check is back from the snapshot and the journal; a check that fails or
/// is killed at its commit is wholly there or wholly absent, and `check` agrees; a backup and its
/// restore carry them; a check the rules refuse (planted in the journal) is set aside, and one
/// another program wrote is named by `check` and removed by `check --repair`.
final class WithdrawalFaultTests: FaultCampaign {
    let environment = ["TZ": "UTC", "CRAVEY_NOW": "2026-11-20T12:00:00"]

    var rows: TypedRows {
        TypedRows(
            shown: shown, keep: ["withdrawal", "1,1,1,1,1,1"], step: "withdrawal.check", table: "withdrawalCheck")
    }

    /// The checks as `withdrawal --json` shows them: "day sleep,…,craving".
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

    /// The last use Nov 17, goal quit.
    func quitting(_ root: String) throws {
        for command in [["use", "vape", "2", "--at", "2026-11-17 21:00"], ["settings", "goal", "quit"]] {
            XCTAssertEqual(try run(command, root, environment: environment).status, 0)
        }
    }

    /// Checks on day 1 and day 3 (kept twice: the second replaces the first).
    func checked(_ root: String) throws -> [String] {
        try quitting(root)
        for (scores, now) in [
            ("2,3,4,5,1,8", "2026-11-18T20:00:00"), ("6,7,5,2,8,9", "2026-11-20T09:00:00"),
            ("7,7,5,2,8,10", "2026-11-20T12:00:00"),
        ] {
            let result = try run(
                ["withdrawal", scores], root, environment: environment.merging(["CRAVEY_NOW": now]) { $1 })
            XCTAssertEqual(result.status, 0, "\(scores): \(result.stderr)")
        }
        let shown = try shown(root)
        XCTAssertEqual(shown, ["2026-11-18 2,3,4,5,1,8", "2026-11-20 7,7,5,2,8,10"])
        return shown
    }

    func testChecksSurviveALostDatabase() throws {
        let root = base + "/lib"
        try assertSurviveALostDatabase(rows, made: try checked(root), root, environment: environment)
    }

    func testACheckFailedOrKilledAtItsCommitIsWhollyThereOrAbsent() throws {
        let root = base + "/lib"
        try quitting(root)
        try assertWhollyThereOrAbsent(
            rows, kept: ["2026-11-20 1,1,1,1,1,1"], absent: [], root, environment: environment,
            undo: "DELETE FROM withdrawalCheck")
    }

    func testABackupAndItsRestoreCarryTheChecks() throws {
        let root = base + "/lib"
        try assertBackupCarries(rows, made: try checked(root), root, environment: environment)
    }

    func testACheckTheRulesRefuseIsSetAsideFromTheJournal() throws {
        let root = base + "/lib"
        let before = try checked(root)
        let scores = #""sleep":11,"irritability":1,"anxiety":1,"appetite":1,"dreams":1,"craving":1"#
        try assertSetAside(
            rows,
            lines: [
                #"{"id":"2026-11-19","kind":"withdrawal","row":{"day":"2026-11-19","# + scores
                    + #","checkedAt":"2026-11-19T12:00:00.000Z"}}"#
            ], made: before, root, environment: environment)
    }

    func testCheckNamesAndRepairsACheckCraveyWouldRefuse() throws {
        let root = base + "/lib"
        _ = try checked(root)
        try assertCheckNamesAndRepairs(
            rows,
            planted: "INSERT INTO withdrawalCheck VALUES ('2099-01-01', 1, 1, 1, 1, 1, 1, '2026-11-20T12:00:00.000Z')",
            saying: "the withdrawal check of '2099-01-01' is for a day that has not come yet", root,
            environment: environment)
    }
}
