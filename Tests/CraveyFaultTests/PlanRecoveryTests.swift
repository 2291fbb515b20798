import CraveyTestSupport
import Foundation
import XCTest

/// If-then plans are typed by the person and kept as the logs are: after a lost database they all
/// come back from the journal (a removed one stays removed), a journal append that failed is made
/// by the next command, a backup and its restore carry them, and `check` holds a plan written by
/// another program to the rules typed input meets. Each case runs the built binary.
final class PlanRecoveryTests: FaultCampaign {
    func plans(_ root: String) throws -> String {
        let listed = try run(["plan", "list", "--json"], root)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        return listed.stdout
    }

    func add(_ root: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try run(["plan", "add"] + arguments, root, environment: environment)
    }

    func loseDatabase(_ root: String) {
        for suffix in ["", "-wal", "-shm"] { unlink(root + "/library.sqlite" + suffix) }
    }

    func testPlansComeBackAfterALostDatabaseAndARemovedOneStaysRemoved() throws {
        let baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        for (trigger, instead) in [("bored", "walk round the block"), ("sad", "call Sam"), ("tired", "go to bed")] {
            XCTAssertEqual(try add(root, ["--trigger", trigger, "--hour", "21", "--instead", instead]).status, 0)
        }
        XCTAssertEqual(try run(["plan", "remove", "2"], root).status, 0)
        let before = try plans(root)
        XCTAssertTrue(before.contains("walk round the block") && !before.contains("call Sam"), before)
        Self.faults += 1
        loseDatabase(root)
        let after = try plans(root)
        if after != before {
            Self.lost += 1
            XCTFail("plans after a lost database: \(after), before: \(before)")
        }
        try assertIntact(baseline, "plans, then a lost database")
    }

    func testAPlanWhoseJournalAppendFailedIsWrittenByTheNextCommand() throws {
        let root = base + "/lib"
        XCTAssertEqual(try run(["craving", "3"], root).status, 0)
        Self.faults += 1
        let failed = try add(
            root, ["--trigger", "bored", "--instead", "walk first"],
            environment: ["CRAVEY_FAULT_FAIL": "journal.append"])
        XCTAssertEqual(failed.status, 0, "kept in the database, said on standard error: \(failed.stderr)")
        XCTAssertTrue(failed.stderr.contains("the journal of logs"), failed.stderr)
        XCTAssertEqual(try run(["log"], root).status, 0)  // the next command appends what is noted
        loseDatabase(root)
        let after = try plans(root)
        if !after.contains("walk first") {
            Self.lost += 1
            XCTFail("the plan was lost: \(after)")
        }
    }

    func testABackupAndItsRestoreCarryThePlans() throws {
        let root = base + "/lib"
        XCTAssertEqual(try add(root, ["--trigger", "anxious", "--place", "work", "--instead", "breathe"]).status, 0)
        let before = try plans(root)
        XCTAssertEqual(try run(["backup", base + "/bk"], root).status, 0)
        let restored = try run(["restore", base + "/bk"], base + "/again")
        XCTAssertEqual(restored.status, 0, restored.stderr)
        XCTAssertEqual(try plans(base + "/again"), before)
        // A library holding only a plan is not empty: a restore into it is refused, the plan kept.
        let planned = base + "/planned"
        XCTAssertEqual(try add(planned, ["--trigger", "sad", "--instead", "call Sam"]).status, 0)
        let kept = try plans(planned)
        XCTAssertNotEqual(try run(["restore", base + "/bk"], planned).status, 0)
        XCTAssertEqual(try plans(planned), kept)
    }

    func testCheckHoldsAPlanWrittenByAnotherProgramToTheRulesOfTypedInput() throws {
        let root = base + "/lib"
        XCTAssertEqual(try add(root, ["--trigger", "bored", "--instead", "walk"]).status, 0)
        try sqlite(
            root,
            "INSERT INTO plan (id, forTrigger, instead, createdAt) VALUES ('00000000-0000-0000-0000-00000000000A', 'bored', 'walk' || char(27) || '[2J', '2026-01-01T00:00:00.000Z')"
        )
        let check = try run(["check"], root)
        XCTAssertNotEqual(check.status, 0)
        XCTAssertTrue(check.stdout.contains("plan '00000000': its sentence is not one cravey would keep"), check.stdout)
        XCTAssertEqual(try run(["check", "--repair"], root).status, 0)
        XCTAssertEqual(try run(["check"], root).status, 0)
        let left = try plans(root)
        XCTAssertTrue(left.contains("\"walk\"") && !left.contains("00000000-0000"), left)
    }

    func testARemovedPlanLeavesTheSnapshotsToo() throws {
        let root = base + "/lib"
        XCTAssertEqual(try add(root, ["--trigger", "lonely", "--instead", "call my sister Lena"]).status, 0)
        // Today's snapshot was taken before the plan: a new one is, by the next change.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: root + "/Snapshots")) ?? [] {
            unlink(root + "/Snapshots/" + name)
        }
        XCTAssertEqual(try run(["craving", "2"], root).status, 0)
        let snapshot =
            root + "/Snapshots/" + (try FileManager.default.contentsOfDirectory(atPath: root + "/Snapshots"))[0]
        let sentence = Data("call my sister Lena".utf8)
        XCTAssertNotNil(try Data(contentsOf: URL(fileURLWithPath: snapshot)).range(of: sentence), "the control")
        XCTAssertEqual(try run(["plan", "remove", "1"], root).status, 0)
        XCTAssertNil(
            try Data(contentsOf: URL(fileURLWithPath: snapshot)).range(of: sentence),
            "not a byte of the removed plan is left in the snapshot")
        let counts = try runProcess(
            "/usr/bin/sqlite3", [snapshot, "SELECT count(*) FROM plan; SELECT count(*) FROM pendingScrub"]
        ).stdout
        XCTAssertEqual(counts, "0\n0\n")
    }

    /// `plan add` and `plan remove` killed at each of their steps: the plan is wholly there or
    /// wholly absent, `check` finds the journal in step, and a lost database then gives back the
    /// plans as they stood.
    func testAPlanAddedOrRemovedKilledAtEveryStepIsWholeAndSurvivesALostDatabase() throws {
        let root = base + "/lib"
        XCTAssertEqual(try add(root, ["--trigger", "bored", "--instead", "walk first"]).status, 0)
        for (name, arguments) in [
            ("add", ["plan", "add", "--trigger", "sad", "--instead", "call Sam"]), ("remove", ["plan", "remove", "1"]),
        ] {
            var step = 1
            while step < 40 {
                let before = try plans(root)
                Self.faults += 1
                let killed = try run(arguments, root, environment: ["CRAVEY_FAULT_KILL_AT": String(step)])
                let after = try plans(root)
                let count = { (text: String) in text.components(separatedBy: "\"instead\"").count - 1 }
                XCTAssertTrue(
                    after == before || count(after) == count(before) + (name == "add" ? 1 : -1),
                    "\(name) killed at step \(step): \(after)")
                let check = try run(["check"], root)
                XCTAssertEqual(check.status, 0, "\(name) killed at step \(step): \(check.stdout)")
                loseDatabase(root)
                if try plans(root) != after {
                    Self.lost += 1
                    XCTFail("\(name) killed at step \(step), then a lost database: \(try plans(root))")
                }
                if killed.status != -SIGKILL { break }
                if after != before {  // done before its kill: put back as it was for the next step
                    XCTAssertEqual(
                        try run(
                            name == "add"
                                ? ["plan", "remove", "2"]
                                : ["plan", "add", "--trigger", "bored", "--instead", "walk first"],
                            root
                        ).status, 0)
                }
                step += 1
            }
            XCTAssertGreaterThan(step, 1, "\(name) was killed at least once")
        }
    }
}
