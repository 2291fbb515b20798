import CraveyTestSupport
import Foundation
import XCTest

/// Bringing in many changes: they are applied a chunk at a time, each chunk with how far it read,
/// so a merge killed half-way is taken up where it stopped and ends where an unbroken one ends.
final class SyncBulkTests: SyncFoldersTestCase {
    func testAMergeKilledBetweenChunksIsTakenUpWhereItStopped() throws {
        let a = library("a"), whole = library("whole"), killed = library("killed")
        let shared = try folder("shared")
        try cravey(a, ["settings", "name", "Sam"])
        let count = 5000
        try putCravings(a, count: count)  // SyncReplayTests.swift
        try synced(a, ["--folder", shared])
        let expected = try logText(a)

        let trace = try runProcess(
            cravey, ["sync", "--folder", shared, "--library", whole],
            environment: ["CRAVEY_TRANSCRIBE": "later", "CRAVEY_FAULT_TRACE": "1"])
        XCTAssertEqual(trace.status, 0, trace.stderr.suffix(2000).description)
        XCTAssertEqual(try logText(whole), expected)
        let sites = trace.stderr.split(separator: "\n").filter { $0.hasPrefix("fault-site ") }
        let commits = sites.indices.filter { sites[$0] == "fault-site sync.merge.committed" }
        XCTAssertGreaterThanOrEqual(commits.count, 2, "more than one chunk")

        let cut = try runProcess(
            cravey, ["sync", "--folder", shared, "--library", killed],
            environment: ["CRAVEY_TRANSCRIBE": "later", "CRAVEY_FAULT_KILL_AT": String(commits[0] + 1)])
        XCTAssertEqual(cut.status, -9)
        let rest = try synced(killed)
        XCTAssertEqual(rest["broughtIn"] as? Int, count + 1 - 4096, "the first chunk was kept: \(rest)")
        XCTAssertEqual(try logText(killed), expected)
        try cravey(killed, ["check"])
        XCTAssertEqual(try cravey(killed, ["settings", "name"]).stdout, "Sam\n")
    }
}
