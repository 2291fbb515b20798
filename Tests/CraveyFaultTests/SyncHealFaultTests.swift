import CraveyTestSupport
import Foundation
import XCTest

/// The fault campaign's case of this machine's changes in the folder found older than its own
/// (its change file cut short by a power cut) and written again: kill -9 at each step of writing
/// them again. No log said to be logged is lost on either machine, and nothing foreign in the folder
/// or the library is touched.
final class SyncHealFaultTests: FaultCampaign {
    /// This machine's change file the folder holds now (its newest segment), cut to half.
    func cutShort(_ folder: String, _ root: String) throws {
        let status = try run(["sync", "--status", "--json"], root)
        let object = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        let device = try XCTUnwrap(object?["device"] as? String, status.stdout)
        let directory = folder + "/cravey/devices/" + device
        let segments = try FileManager.default.contentsOfDirectory(atPath: directory).compactMap {
            name -> (Int, String)? in
            if name == "changes.jsonl" { return (0, name) }
            guard name.hasPrefix("changes-"), name.hasSuffix(".jsonl") else { return nil }
            return Int(name.dropFirst("changes-".count).dropLast(".jsonl".count)).map { ($0, name) }
        }
        let newest = try XCTUnwrap(segments.max { $0.0 < $1.0 }?.1, "no change file in \(directory)")
        let path = directory + "/" + newest
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: path))
    }

    func testAKillWhileThisMachinesChangesAreWrittenAgainLosesNothing() throws {
        var baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root, other = base + "/other", folder = base + "/shared"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try plant(folder + "/notes.txt", "mine", into: &baseline)
        XCTAssertEqual(try run(["sync", "--folder", folder], root).status, 0)
        XCTAssertEqual(try run(["sync", "--folder", folder], other).status, 0)
        var said: [String] = []
        for site in ["sync.heal", "sync.heal.noted"] {
            for note in ["written before \(site)", "written again at \(site)"] {
                XCTAssertEqual(try run(["craving", "3", "--notes", note], root).status, 0)
                said.append(note)
            }
            try cutShort(folder, root)
            // One more that waits: the folder's file is shorter than this machine wrote it.
            let waits = try run(["craving", "4", "--notes", "waiting at \(site)"], root)
            XCTAssertEqual(waits.status, 0, waits.stderr)
            said.append("waiting at \(site)")
            // The steps of the sync that writes them again, stopped where nothing is changed yet
            // (failing at its first step), then the same sync killed at this one.
            let trace = try run(
                ["sync"], root, environment: ["CRAVEY_FAULT_TRACE": "1", "CRAVEY_FAULT_FAIL": "sync.heal"])
            XCTAssertNotEqual(trace.status, 0)
            let sites = trace.stderr.split(separator: "\n").filter { $0.hasPrefix("fault-site ") }.map {
                String($0.dropFirst("fault-site ".count))
            }
            let first = try XCTUnwrap(sites.firstIndex(of: "sync.heal"), "\(sites)")
            Self.faults += 1
            let killed = try run(
                ["sync"], root,
                environment: ["CRAVEY_FAULT_KILL_AT": "\(first + (site == "sync.heal" ? 1 : 2))"])
            XCTAssertEqual(killed.status, -9, "killed at \(site): \(killed.stderr)")
            // The next sync of each machine, then everything said is on the other one.
            for machine in [root, other] {
                let synced = try run(["sync"], machine)
                XCTAssertEqual(synced.status, 0, "after the kill at \(site): \(synced.stdout) \(synced.stderr)")
            }
            let reached = try run(["log", "--json"], other).stdout
            let missing = said.filter { !reached.contains($0) }
            Self.lost += missing.count
            XCTAssertEqual(missing, [], "killed at \(site): never reached the other machine")
            let check = try run(["check"], other)
            XCTAssertEqual(check.status, 0, "killed at \(site): \(check.stdout)")
            try assertIntact(baseline, "killed at \(site) while this machine's changes were written again")
        }
    }
}
