import CraveyTestSupport
import Foundation
import XCTest

/// The fault campaign's recording cases: kill -9 at each step of taking a recording's file in from
/// the shared folder. Nothing the other machine said was saved is lost (a later `sync` takes it
/// in whole), no partial file is left in either library, and nothing foreign is touched.
final class SyncMediaFaultTests: FaultCampaign {
    func testAKillWhileARecordingIsTakenInLeavesNoPartFileAndLosesNothing() throws {
        var baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root, folder = base + "/shared"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try plant(folder + "/notes.txt", "mine", into: &baseline)
        XCTAssertEqual(try run(["sync", "--folder", folder], root).status, 0)

        // The steps of taking the two recordings in, as they run now.
        let traced = base + "/traced"
        let trace = try run(["sync", "--folder", folder], traced, environment: ["CRAVEY_FAULT_TRACE": "1"])
        XCTAssertEqual(trace.status, 0, trace.stderr)
        let sites = trace.stderr.split(separator: "\n").filter { $0.hasPrefix("fault-site ") }.map {
            String($0.dropFirst("fault-site ".count))
        }
        XCTAssertEqual(try listed(traced).count, 2)
        for site in [
            "sync.media.copy", "sync.media.fsync.file", "sync.media.rename", "sync.media.fsync.dir",
            "sync.media.commit",
        ] {
            let index = try XCTUnwrap(sites.firstIndex(of: site), "\(site) in \(sites)")
            let other = base + "/other-\(site)"
            Self.faults += 1
            let killed = try run(
                ["sync", "--folder", folder], other, environment: ["CRAVEY_FAULT_KILL_AT": "\(index + 1)"])
            XCTAssertNotEqual(killed.status, 0, "killed at \(site)")
            let again = try run(["sync"], other)
            XCTAssertEqual(again.status, 0, "after a kill at \(site): \(again.stdout) \(again.stderr)")
            let rows = try listed(other)
            for (id, data) in baseline.saved {
                guard let row = rows.first(where: { $0["id"] as? String == id }),
                    let copy = try? Data(contentsOf: URL(fileURLWithPath: other + "/" + (row["filePath"] as! String))),
                    sameMedia(copy, data)
                else {
                    Self.lost += 1
                    XCTFail("killed at \(site): recording \(id) did not come whole to the other machine")
                    continue
                }
            }
            let left = (try? FileManager.default.contentsOfDirectory(atPath: other + "/.incoming")) ?? []
            XCTAssertEqual(left, [], "killed at \(site): no part file is left")
            let check = try run(["check"], other)
            XCTAssertEqual(check.status, 0, "killed at \(site): \(check.stdout) \(check.stderr)")
            try assertIntact(baseline, "killed at \(site) while the other machine took a recording in")
        }
    }

    func testAKillWhileARecordingIsCopiedOutLeavesNoHalfFileInTheFolder() throws {
        // The steps of sharing one message, as they run now, on a library like the one killed.
        let traced = base + "/traced", folder = base + "/shared"
        try FileManager.default.createDirectory(atPath: folder + "/traced", withIntermediateDirectories: true)
        XCTAssertEqual(try record(traced).status, 0)
        let trace = try run(
            ["sync", "--folder", folder + "/traced"], traced, environment: ["CRAVEY_FAULT_TRACE": "1"])
        let sites = trace.stderr.split(separator: "\n").filter { $0.hasPrefix("fault-site ") }.map {
            String($0.dropFirst("fault-site ".count))
        }
        let index = try XCTUnwrap(sites.firstIndex(of: "sync.media.out"), "\(sites)")

        let root = base + "/lib", other = base + "/other"
        XCTAssertEqual(try record(root).status, 0)
        let id = try XCTUnwrap(try listed(root).first?["id"] as? String)
        Self.faults += 1
        let killed = try run(["sync", "--folder", folder], root, environment: ["CRAVEY_FAULT_KILL_AT": "\(index + 1)"])
        XCTAssertNotEqual(killed.status, 0, "killed while the file was copied out")
        XCTAssertEqual(try run(["sync"], root).status, 0)
        let device = try XCTUnwrap(
            try FileManager.default.contentsOfDirectory(atPath: folder + "/cravey/devices").first)
        let media = try FileManager.default.contentsOfDirectory(atPath: folder + "/cravey/devices/" + device + "/media")
        XCTAssertEqual(media, [id.lowercased() + ".1.m4a"], "the file once, no half copy beside it")
        XCTAssertEqual(try run(["sync", "--folder", folder], other).status, 0)
        Self.cases += 1
        if try listed(other).map({ $0["id"] as? String }) != [id] {
            Self.lost += 1
            XCTFail("the message shared by a run killed half-way did not reach the other machine")
        }
        XCTAssertEqual(try run(["check"], root).status, 0)
        XCTAssertEqual(try run(["check"], other).status, 0)
    }
}
