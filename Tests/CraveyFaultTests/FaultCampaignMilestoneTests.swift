import CraveyTestSupport
import Foundation
import XCTest

/// The fault campaign's milestone case: `check --repair` removing a milestone the logs say was
/// never reached fails at its commit, or is killed there; nothing is removed and nothing else
/// changes, and the next repair removes it and only it.
final class FaultCampaignMilestoneTests: FaultCampaign {
    func stored(_ root: String) throws -> [String] {
        try runProcess("/usr/bin/sqlite3", [root + "/library.sqlite", "SELECT id FROM milestone ORDER BY id"]).stdout
            .split(separator: "\n").map(String.init)
    }

    func testARepairFailedOrKilledAtItsCommitRemovesNothing() throws {
        let baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        let environment = ["TZ": "UTC", "CRAVEY_NOW": "2026-10-12T12:00:00"]
        for day in ["08", "09", "10", "11"] {
            XCTAssertEqual(try run(["use", "vape", "2", "--at", "2026-10-\(day) 21:00"], root).status, 0)
        }
        XCTAssertEqual(try run(["progress", "--json"], root, environment: environment).status, 0)
        try sqlite(
            root,
            "INSERT INTO milestone (id, kind, count, reachedOn) VALUES ('daysSinceUse:1', 'daysSinceUse', 1, '2026-10-09')"
        )
        let before = try stored(root)
        XCTAssertTrue(before.contains("daysSinceUse:1"), "\(before)")
        // The step of the commit, counted as the seam counts them (once the row inserted here is
        // journaled, by a check that changes nothing).
        XCTAssertEqual(try run(["check"], root, environment: environment).status, 1)
        let traced = try run(
            ["check", "--repair"], root,
            environment: environment.merging([
                "CRAVEY_FAULT_TRACE": "1", "CRAVEY_FAULT_FAIL": "milestone.remove.commit",
            ]) { $1 })
        let sites = traced.stderr.split(separator: "\n").filter { $0.hasPrefix("fault-site ") }
        let step = try XCTUnwrap(sites.firstIndex { $0 == "fault-site milestone.remove.commit" }) + 1
        for fault in [["CRAVEY_FAULT_FAIL": "milestone.remove.commit"], ["CRAVEY_FAULT_KILL_AT": String(step)]] {
            Self.faults += 1
            Self.cases += 1
            let failed = try run(["check", "--repair"], root, environment: environment.merging(fault) { $1 })
            XCTAssertNotEqual(failed.status, 0, "\(fault): \(failed.stdout)")
            XCTAssertEqual(try stored(root), before, "\(fault): nothing removed")
        }
        let repaired = try run(["check", "--repair"], root, environment: environment)
        XCTAssertEqual(repaired.status, 0, repaired.stderr)
        XCTAssertEqual(try stored(root), before.filter { $0 != "daysSinceUse:1" })
        try assertIntact(baseline, "a repair of milestones failed or killed at its commit")
    }
}
