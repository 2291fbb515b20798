import CraveyTestSupport
import Foundation
import XCTest

/// Limits are typed input, kept under the logs' rules as days' answers are: after a lost
/// database every limit (and the setting that offers them) is back from the snapshot and the
/// journal; a window that fails or is killed at its commit is wholly there or wholly absent, and
/// `check` agrees; a backup and its restore carry them; a limit the rules refuse (planted in the
/// journal) is set aside, and one another program wrote is named by `check` and removed by
/// `check --repair`; "delete all data" takes them too.
final class LimitFaultTests: FaultCampaign {
    let environment = ["TZ": "UTC", "CRAVEY_NOW": "2026-11-20T12:00:00"]

    var rows: TypedRows {
        TypedRows(
            shown: shown, keep: ["limit", "break", "add", "21:00-23:00"], step: "limit.change", table: "limitRule")
    }

    /// The limits as `limit --json` shows them: each window, the target's words, the plan's words.
    func shown(_ root: String) throws -> [String] {
        let result = try run(["limit", "--json"], root, environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        return (object["breaks"] as? [String] ?? [])
            + [object["weeklyTarget"], object["planned"]].compactMap { ($0 as? [String: Any])?["text"] as? String }
            + ((object["offered"] as? Bool) == true ? ["offered"] : [])
    }

    /// Goal cut-down.
    func cuttingDown(_ root: String) throws {
        XCTAssertEqual(try run(["settings", "goal", "cut-down"], root, environment: environment).status, 0)
    }

    /// Two windows, a target and a plan, offered whatever the goal.
    func set(_ root: String) throws -> [String] {
        try cuttingDown(root)
        for command in [
            ["limit", "break", "add", "21:00-23:00"], ["limit", "break", "add", "23:30-06:00"],
            ["limit", "week", "--amount", "vape=20"],
            ["limit", "plan", "--methods", "vape", "--per-day", "3", "--hours", "18-23"],
            ["limit", "--offer", "any-goal"],
        ] {
            let result = try run(command, root, environment: environment)
            XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
        }
        let shown = try shown(root)
        XCTAssertEqual(
            shown,
            [
                "21:00-23:00", "23:30-06:00", "at most 20 pulls (vape) a week", "vape, up to 3 a day, 18:00–23:00",
                "offered",
            ])
        return shown
    }

    func testLimitsSurviveALostDatabase() throws {
        let root = base + "/lib"
        try assertSurviveALostDatabase(rows, made: try set(root), root, environment: environment)
    }

    func testAWindowFailedOrKilledAtItsCommitIsWhollyThereOrAbsent() throws {
        let root = base + "/lib"
        try cuttingDown(root)
        try assertWhollyThereOrAbsent(
            rows, kept: ["21:00-23:00", "offered"], absent: ["offered"], root, environment: environment,
            undo: "DELETE FROM limitRule")
    }

    func testABackupAndItsRestoreCarryTheLimitsAndDeleteAllTakesThem() throws {
        let root = base + "/lib"
        let before = try set(root)
        try assertBackupCarries(rows, made: before, root, environment: environment)
        let purged = try run(["purge", "--yes"], root, environment: environment)
        XCTAssertEqual(purged.status, 0, purged.stdout + purged.stderr)
        lose(root)
        XCTAssertEqual(
            try shown(root), [], "delete all data takes them (and the goal), and the journal does not bring them back")
    }

    func testALimitTheRulesRefuseIsSetAsideFromTheJournal() throws {
        let root = base + "/lib"
        let before = try set(root)
        try assertSetAside(
            rows,
            lines: [
                #"{"id":"break:25:00-26:00","kind":"limit","row":{"id":"break:25:00-26:00","kind":"break","startMinute":1500,"endMinute":1560,"methods":null,"amount":null,"createdAt":"2026-11-19T12:00:00.000Z"}}"#,
                #"{"id":"week:days","kind":"limit","row":{"id":"week:days","kind":"weekDays","startMinute":null,"endMinute":null,"methods":null,"amount":9,"createdAt":"2026-11-19T12:00:00.000Z"}}"#,
            ], made: before, root, environment: environment)
    }

    func testCheckNamesAndRepairsALimitCraveyWouldRefuse() throws {
        let root = base + "/lib"
        _ = try set(root)
        try assertCheckNamesAndRepairs(
            rows,
            planted:
                "INSERT INTO limitRule (id, kind, startMinute, endMinute, createdAt) VALUES ('break:2099-01-01', 'break', 60, 120, '2026-11-20T12:00:00.000Z')",
            saying: "the limit 'break:2099-01-01' is not named for its window", root, environment: environment)
    }
}
