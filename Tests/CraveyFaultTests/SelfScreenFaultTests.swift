import CraveyTestSupport
import Foundation
import XCTest

/// Self-screens are typed input, kept under the logs' rules, as days' answers are: after a lost
/// database every screen (and the reminder's setting) is back from the snapshot and the journal;
/// a screen failed or killed at its commit is wholly there or wholly absent, and `check` agrees; a
/// backup and its restore carry them; one the rules refuse is set aside from the journal, named by
/// `check` and removed by `check --repair`; "delete all data" takes them too.
final class SelfScreenFaultTests: FaultCampaign {
    let environment = ["TZ": "UTC", "CRAVEY_NOW": "2026-11-20T12:00:00"]

    func screens(_ root: String) throws -> [String] {
        try runProcess(
            "/usr/bin/sqlite3",
            [root + "/library.sqlite", "SELECT takenAt, answers, score FROM selfScreen ORDER BY takenAt"]
        ).stdout.split(separator: "\n").map(String.init)
    }

    /// What `screen list --json` says (read through cravey: a lost database is rebuilt first).
    func screenList(_ root: String) throws -> String {
        let result = try run(["screen", "list", "--json"], root, environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout
    }

    /// Two screens, a month apart, and the reminder on.
    func taken(_ root: String) throws -> String {
        for (answers, now) in [("2,1,2,1,1,1,0,4", "2026-10-20T09:00:00"), ("1,1,1,0,1,0,0,2", "2026-11-20T12:00:00")] {
            let result = try run(
                ["screen", "--answers", answers], root, environment: ["TZ": "UTC", "CRAVEY_NOW": now])
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        XCTAssertEqual(try run(["screen", "--remind", "on"], root, environment: environment).status, 0)
        let listed = try screenList(root)
        XCTAssertTrue(listed.contains(#""score":12"#) && listed.contains(#""score":6"#), listed)
        XCTAssertTrue(listed.contains(#""on":true"#), listed)
        return listed
    }

    func testScreensSurviveALostDatabase() throws {
        let root = base + "/lib"
        let before = try taken(root)
        let stored = try screens(root)
        Self.faults += 1
        Self.cases += 1
        for suffix in ["", "-wal", "-shm"] { unlink(root + "/library.sqlite" + suffix) }
        let after = try screenList(root)
        if after != before { Self.lost += 1 }
        XCTAssertEqual(after, before, "every screen, and the reminder, is back from the journal")
        XCTAssertEqual(try screens(root), stored)
        let checked = try run(["check"], root, environment: environment)
        XCTAssertEqual(checked.status, 0, checked.stdout + checked.stderr)
    }

    func testAScreenFailedOrKilledAtItsCommitIsWhollyThereOrAbsent() throws {
        let root = base + "/lib"
        XCTAssertEqual(try run(["craving", "4", "--at", "2026-11-16 09:00"], root, environment: environment).status, 0)
        let answer = ["screen", "--answers", "1,1,1,1,1,1,1,2"]
        var sites: [String] = []
        for _ in 0..<2 {
            let traced = try run(
                answer, root,
                environment: environment.merging(["CRAVEY_FAULT_TRACE": "1", "CRAVEY_FAULT_FAIL": "screen.save.commit"])
                {
                    $1
                })
            XCTAssertNotEqual(traced.status, 0, "failed at its commit")
            sites = traced.stderr.split(separator: "\n").filter { $0.hasPrefix("fault-site ") }.map {
                String($0.dropFirst("fault-site ".count))
            }
        }
        XCTAssertTrue(sites.contains("screen.save.commit"), "\(sites)")
        XCTAssertEqual(try screens(root), [], "a failed commit keeps nothing")
        let commit = try XCTUnwrap(sites.firstIndex(of: "screen.save.commit"))
        for offset in 0..<3 {
            let kill = commit + 1 + offset
            Self.faults += 1
            Self.cases += 1
            let killed = try run(
                answer, root, environment: environment.merging(["CRAVEY_FAULT_KILL_AT": String(kill)]) { $1 })
            XCTAssertNotEqual(killed.status, 0, "killed at \(sites[kill - 1])")
            let kept = try screens(root)
            XCTAssertTrue(kept.count <= 1, "killed at \(sites[kill - 1]): \(kept)")
            let checked = try run(["check"], root, environment: environment)
            XCTAssertEqual(checked.status, 0, "killed at \(sites[kill - 1]): " + checked.stdout + checked.stderr)
            for suffix in ["", "-wal", "-shm"] { unlink(root + "/library.sqlite" + suffix) }
            _ = try screenList(root)
            XCTAssertEqual(try screens(root), kept, "killed at \(sites[kill - 1]), then a lost database")
            try sqlite(root, "DELETE FROM selfScreen")
        }
    }

    func testABackupAndItsRestoreCarryTheScreensAndDeleteAllTakesThem() throws {
        let root = base + "/lib"
        let before = try taken(root)
        let backup = base + "/backup"
        let saved = try run(["backup", backup], root, environment: environment)
        XCTAssertEqual(saved.status, 0, saved.stderr)
        let restored = try run(["restore", backup], base + "/restored", environment: environment)
        XCTAssertEqual(restored.status, 0, restored.stderr)
        XCTAssertEqual(try screenList(base + "/restored"), before)
        let purged = try run(["purge", "--yes"], root, environment: environment)
        XCTAssertEqual(purged.status, 0, purged.stdout + purged.stderr)
        XCTAssertEqual(try screens(root), [], "delete all data takes the screens")
        for suffix in ["", "-wal", "-shm"] { unlink(root + "/library.sqlite" + suffix) }
        XCTAssertFalse(try screenList(root).contains("score"), "and the journal does not bring them back")
    }

    func testAScreenTheRulesRefuseIsSetAsideNamedAndRepaired() throws {
        let root = base + "/lib"
        _ = try taken(root)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: root + "/logs.journal"))
        try handle.seekToEnd()
        try handle.write(
            contentsOf: Data(
                (#"{"id":"A","kind":"screen","row":{"id":"A","takenAt":"2026-11-19T12:00:00.000Z","answers":"0,0,0,0,0,0,0,3","score":3}}"#
                    + "\n"
                    + #"{"id":"B","kind":"screen","row":{"id":"B","takenAt":"2026-11-19T12:00:00.000Z","answers":"1,1,1,1,1,1,1,2","score":30}}"#
                    + "\n").utf8))
        try handle.close()
        Self.faults += 1
        Self.cases += 1
        for suffix in ["", "-wal", "-shm"] { unlink(root + "/library.sqlite" + suffix) }
        let after = try run(["log"], root, environment: environment)
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertTrue(after.stderr.contains("could not be brought back"), after.stderr)
        XCTAssertEqual(try screens(root).count, 2, "the two real screens are back, the refused ones set aside")

        // Planted by another program: named by check, removed by check --repair for good.
        try sqlite(
            root,
            "INSERT INTO selfScreen (id, takenAt, answers, score) VALUES ('C', '2026-11-19T12:00:00.000Z', '1,1,1,1,1,1,1,2', 31)"
        )
        let checked = try run(["check"], root, environment: environment)
        XCTAssertEqual(checked.status, 1)
        XCTAssertTrue(
            (checked.stdout + checked.stderr).contains("the self-screen 'C': its score is not the sum of its answers"),
            checked.stdout + checked.stderr)
        let repaired = try run(["check", "--repair"], root, environment: environment)
        XCTAssertEqual(repaired.status, 0, repaired.stdout + repaired.stderr)
        XCTAssertEqual(try run(["check"], root, environment: environment).status, 0)
        for suffix in ["", "-wal", "-shm"] { unlink(root + "/library.sqlite" + suffix) }
        _ = try screenList(root)
        XCTAssertEqual(try screens(root).count, 2, "not brought back by the journal")
    }
}
