import CraveyTestSupport
import Foundation
import XCTest

/// The fault campaign's sync cases: kill -9 at each step of writing a change to the shared folder,
/// and a stick that is full. No log said to be logged is lost on either machine, nothing foreign
/// in the folder or the library is touched, and both libraries stay consistent.
final class SyncFaultTests: FaultCampaign {
    func testAKillWhileAChangeIsWrittenLosesNothingOnEitherMachine() throws {
        var baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root, other = base + "/other", folder = base + "/shared"
        try FileManager.default.createDirectory(atPath: folder + "/.git", withIntermediateDirectories: true)
        try plant(folder + "/.git/config", "[core]", into: &baseline)
        try plant(folder + "/notes.txt", "mine", into: &baseline)
        XCTAssertEqual(try run(["sync", "--folder", folder], root).status, 0)
        XCTAssertEqual(try run(["sync", "--folder", folder], other).status, 0)
        var said: [String] = []
        for site in ["journal.forget", "sync.append", "sync.fsync", "sync.forget"] {
            // The steps of a craving as they run now, then the same craving killed at this one.
            let trace = try run(
                ["craving", "3", "--notes", "traced \(site)"], root, environment: ["CRAVEY_FAULT_TRACE": "1"])
            XCTAssertEqual(trace.status, 0, trace.stderr)
            said.append("traced \(site)")
            let sites = trace.stderr.split(separator: "\n").filter { $0.hasPrefix("fault-site ") }.map {
                String($0.dropFirst("fault-site ".count))
            }
            let index = try XCTUnwrap(sites.firstIndex(of: site), "\(sites)")
            Self.faults += 1
            let killed = try run(
                ["craving", "4", "--notes", "killed \(site)"], root,
                environment: ["CRAVEY_FAULT_KILL_AT": "\(index + 1)"])
            if killed.stdout.contains("logged") { said.append("killed \(site)") }
            XCTAssertEqual(try run(["sync"], root).status, 0)
            XCTAssertEqual(try run(["sync"], other).status, 0)
            let logs = try run(["log"], other).stdout
            for note in said where !logs.contains(note) {
                Self.lost += 1
                XCTFail("killed at \(site): the log '\(note)' did not reach the other machine")
            }
            try assertIntact(baseline, "killed at \(site) while a change was written")
        }
    }

    func testAFullStickKeepsTheChangeUntilThereIsRoom() throws {
        try requireRoot()
        let baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root, other = base + "/other"
        let stick = try smallDisk("256k")
        XCTAssertEqual(try run(["sync", "--folder", stick], root).status, 0)
        XCTAssertEqual(try run(["sync", "--folder", stick], other).status, 0)
        try fill(stick)
        // The change file's last page may still have room (its recordings' lines are there): logs
        // are made until the stick refuses one.
        var said: [String] = []
        var refused: (status: Int32, stdout: String, stderr: String)?
        while refused == nil, said.count < 20 {
            said.append("on a full stick \(said.count + 1)")
            let logged = try run(["craving", "6", "--notes", said.last!], root)
            XCTAssertEqual(logged.status, 0, "the log is kept in the library: \(logged.stderr)")
            let synced = try run(["sync"], root)
            if synced.status != 0 { refused = synced }
        }
        let full = try XCTUnwrap(refused, "the full stick never refused a change")
        XCTAssertEqual(full.status, 1)
        XCTAssertEqual(full.stderr.split(separator: "\n").count, 1, full.stderr)
        unfill(stick)
        XCTAssertEqual(try run(["sync"], root).status, 0)
        XCTAssertEqual(try run(["sync"], other).status, 0)
        let logs = try run(["log"], other).stdout
        for note in said where !logs.contains(note) {
            Self.lost += 1
            XCTFail("the log '\(note)' written while the stick was full did not reach the other machine")
        }
        try assertIntact(baseline, "a full stick while a change was written")
    }
}
