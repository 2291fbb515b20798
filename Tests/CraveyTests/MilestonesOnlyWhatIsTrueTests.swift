import CraveyLibrary
import CraveyTestSupport
import Foundation
import XCTest

/// "N days since your last use" is reached on the first calendar day that ends N whole days with
/// no use after a use; status shows a milestone only on the day it is reached; a stored one the
/// logs contradict is not shown, `check` names it and `check --repair` removes only it, so a
/// replay of the journal and a restore do not bring it back. The clock is in Berlin.
final class MilestonesOnlyWhatIsTrueTests: CommandTestCase {
    @discardableResult
    func run(_ arguments: [String], at now: String = "2026-10-12T22:00:00", root: String? = nil, status: Int32 = 0)
        throws -> String
    {
        let environment = ["NO_COLOR": "1", "TZ": "Europe/Berlin", "CRAVEY_TRANSCRIBE": "later", "CRAVEY_NOW": now]
        let result = try runProcess(cravey, arguments + ["--library", root ?? self.root], environment: environment)
        XCTAssertEqual(result.status, status, "\(arguments): \(result.stdout) \(result.stderr)")
        return result.stdout + result.stderr
    }

    func milestones(at now: String = "2026-10-12T22:00:00", root: String? = nil) throws -> [String] {
        try XCTUnwrap(
            try jsonObject(try run(["progress", "--json"], at: now, root: root))["milestones"] as? [[String: Any]]
        )
        .map { "\($0["kind"]!) \($0["count"]!) \($0["reachedOn"]!)" }
    }

    /// Used 12 and 3 days ago and today: "7 days since your last use" was reached 5 days ago and
    /// is kept, but status on the day of a use says no milestone.
    func testOnTheDayOfAUseStatusClaimsNoneAndProgressKeepsTheOneReached() throws {
        try run(["settings", "goal", "quit"])
        try run(["use", "vape", "2", "--at", "2026-09-30 20:00"])
        try run(["use", "vape", "2", "--at", "2026-10-09 20:00"])
        try run(["use", "vape", "1", "--at", "2026-10-12 21:00"])
        let listed = try milestones().filter { $0.hasPrefix("daysSinceUse") }
        XCTAssertEqual(
            listed, ["daysSinceUse 1 2026-10-01", "daysSinceUse 3 2026-10-03", "daysSinceUse 7 2026-10-07"])
        XCTAssertEqual(try run(["status"]), "🌱 Day 13\n")
        XCTAssertTrue(try run(["progress"]).contains("🌿 7 days since your last use  Oct 7"))
    }

    /// A use every evening: no day ends a whole day without use, so none is reached.
    func testAUseEveryEveningReachesNoDaysSinceUse() throws {
        for day in ["08", "09", "10", "11"] { try run(["use", "joints", "1", "--at", "2026-10-\(day) 21:00"]) }
        try run(["settings", "goal", "quit"])
        // The morning after, today counts while it has no use (as the streak counts it): today's
        // is worked out, listed and shown by status, and not stored until the day ends without a use.
        XCTAssertEqual(
            try milestones(at: "2026-10-12T09:00:00").filter { $0.hasPrefix("daysSinceUse") },
            ["daysSinceUse 1 2026-10-12"])
        XCTAssertFalse(try Library(root: root).milestones().contains { $0.kind == "daysSinceUse" })
        XCTAssertEqual(
            try run(["status"], at: "2026-10-12T09:00:00"),
            "🌱 Day 5 · 1 day since use · 🏅 1 day since your last use\n")
        try run(["use", "joints", "1", "--at", "2026-10-12 21:00"], at: "2026-10-12T21:00:00")
        XCTAssertEqual(try milestones().filter { $0.hasPrefix("daysSinceUse") }, [])
        XCTAssertEqual(try run(["status"]), "🌱 Day 5\n")
        XCTAssertFalse(try run(["check"]).contains("never reached"))
    }

    /// A false milestone stored by an older rule: not shown; check names it; repair removes only
    /// it, journaled, so neither a rebuild from the journal nor a restore brings it back.
    func testCheckNamesAFalseMilestoneAndRepairRemovesOnlyIt() throws {
        for day in ["08", "09", "10", "11", "12"] { try run(["use", "joints", "1", "--at", "2026-10-\(day) 21:00"]) }
        try run(["craving", "4", "--at", "2026-10-08 10:00"])
        XCTAssertTrue(try milestones().contains("cravingsResisted 1 2026-10-08"))
        try Library(root: root).noteMilestonesReached([
            MilestoneRow(kind: "daysSinceUse", count: 1, reachedOn: "2026-10-09")
        ])
        let before = try milestones()
        XCTAssertFalse(before.contains { $0.hasPrefix("daysSinceUse") }, "not shown: \(before)")
        XCTAssertFalse(try run(["progress"]).contains("since your last use"))

        let check = try run(["check"], status: 1)
        XCTAssertTrue(
            check.contains(
                "a milestone that was never reached (run 'cravey check --repair' to remove it): '1 day since your last use' on 2026-10-09, with a use logged on 2026-10-09"
            ), check)
        let repaired = try run(["check", "--repair"])
        XCTAssertTrue(
            repaired.contains(
                "removed a milestone that was never reached: '1 day since your last use' on 2026-10-09"), repaired)
        XCTAssertTrue(try run(["check"]).contains("Library OK"))
        let stored = try Library(root: root).milestones().map(\.id)
        XCTAssertFalse(stored.contains("daysSinceUse:1"), "\(stored)")
        XCTAssertTrue(stored.contains("cravingsResisted:1"), "only the false one removed: \(stored)")

        // A rebuild from the day's snapshot and the journal.
        for suffix in ["", "-wal", "-shm"] { unlink(root + "/library.sqlite" + suffix) }
        try run(["log"])
        XCTAssertEqual(try Library(root: root).milestones().map(\.id), stored)
        // A backup restored elsewhere.
        let stick = base + "/stick"
        let elsewhere = base + "/elsewhere"
        try run(["backup", stick])
        try run(["restore", stick], root: elsewhere)
        XCTAssertEqual(try Library(root: elsewhere).milestones().map(\.id), stored)
        XCTAssertFalse(try run(["check"], root: elsewhere).contains("never reached"))
    }
}
