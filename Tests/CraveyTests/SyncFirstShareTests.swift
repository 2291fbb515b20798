import CraveyTestSupport
import Foundation
import XCTest

/// The history logged before a folder was chosen goes to the folder even when the first
/// `sync --folder` is cut short after choosing it (an error, a kill); and a folder gone at the end
/// of a sync is said with what came in before it went.
final class SyncFirstShareTests: SyncFoldersTestCase {
    let plain = ["CRAVEY_TRANSCRIBE": "later", "NO_COLOR": "1", "TZ": "Europe/Berlin"]

    /// Two cravings logged on `machine` before any folder is chosen.
    func twoCravingsBefore(_ machine: String) throws {
        try cravey(machine, ["craving", "4", "--notes", "first before the folder"])
        try cravey(machine, ["craving", "5", "--notes", "second before the folder"])
    }

    func assertBothCravingsOnce(_ machine: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let logs = try logText(machine)
        for note in ["first before the folder", "second before the folder"] {
            XCTAssertEqual(logs.components(separatedBy: note).count, 2, "\(note) once: \(logs)", file: file, line: line)
        }
    }

    func testAFirstSyncThatFailsAfterChoosingTheFolderLeavesTheEarlierHistoryToTheNextSync() throws {
        let a = library("a"), b = library("b"), shared = try folder("shared"), elsewhere = try folder("elsewhere")
        try twoCravingsBefore(a)
        try FileManager.default.createSymbolicLink(atPath: shared + "/cravey", withDestinationPath: "../elsewhere")

        let failed = try cravey(a, ["sync", "--folder", shared], status: 1)
        XCTAssertTrue(failed.stderr.contains("a link there is not followed"), failed.stdout + failed.stderr)
        XCTAssertEqual(try names(elsewhere), [], "nothing written through the link")
        try FileManager.default.removeItem(atPath: shared + "/cravey")

        // The next sync writes what this machine had before the folder, and the other machine gets it.
        let report = try synced(a)
        XCTAssertGreaterThanOrEqual(report["written"] as? Int ?? 0, 2, "\(report)")
        try synced(b, ["--folder", shared])
        try assertBothCravingsOnce(b)
        XCTAssertEqual(try synced(a)["written"] as? Int, 0, "told once")
        try synced(b)
        try assertBothCravingsOnce(b)
        try cravey(a, ["check"])
        try cravey(b, ["check"])
    }

    func testAFirstSyncKilledAfterBringingInLeavesTheEarlierHistoryToTheNextSync() throws {
        let a = library("a"), b = library("b"), twin = library("twin"), shared = try folder("shared")
        try cravey(b, ["craving", "3", "--notes", "from the other machine"])
        try synced(b, ["--folder", shared])
        try twoCravingsBefore(a)
        try twoCravingsBefore(twin)

        // The steps of a first sync as they run now: a twin of a choosing a copy of the folder.
        let copy = base + "/copy"
        XCTAssertEqual(try runProcess("/bin/cp", ["-a", shared, copy]).status, 0)
        let trace = try runProcess(
            cravey, ["sync", "--folder", copy, "--library", twin],
            environment: plain.merging(["CRAVEY_FAULT_TRACE": "1"]) { $1 })
        XCTAssertEqual(trace.status, 0, trace.stderr)
        let sites = trace.stderr.split(separator: "\n").filter { $0.hasPrefix("fault-site ") }.map {
            String($0.dropFirst("fault-site ".count))
        }
        let index = try XCTUnwrap(sites.firstIndex(of: "sync.merge.committed"), "\(sites)")

        // Killed once the other machine's history is in, before this machine's is told.
        let killed = try runProcess(
            cravey, ["sync", "--folder", shared, "--library", a],
            environment: plain.merging(["CRAVEY_FAULT_KILL_AT": "\(index + 1)"]) { $1 })
        XCTAssertEqual(killed.status, -SIGKILL, killed.stdout + killed.stderr)
        XCTAssertTrue(try logText(a).contains("from the other machine"), "brought in before the kill")

        // Any later sync tells the folder what a had before it: the other machine gets it, once.
        let report = try synced(a)
        XCTAssertGreaterThanOrEqual(report["written"] as? Int ?? 0, 2, "\(report)")
        try synced(b)
        try assertBothCravingsOnce(b)
        XCTAssertEqual(try synced(a)["written"] as? Int, 0, "told once")
        try cravey(a, ["check"])
        try cravey(b, ["check"])
    }
}
