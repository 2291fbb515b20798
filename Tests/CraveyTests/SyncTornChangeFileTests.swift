import CraveyTestSupport
import Foundation
import XCTest

/// What a power cut leaves of this machine's last change line, byte by byte: a change stopped as
/// it is written to the folder (written, not yet fsynced), then its line cut at each byte of the
/// write (a journaling file system keeps a prefix of an append) or its end left as zeros (FAT
/// keeps the new size and loses the bytes). From each, the other machine applies whole lines only
/// and names the torn one; this machine's next `sync` writes the line whole, once, never taking
/// itself for another machine; and both come to one history. (The VM rig cuts a real machine's
/// power in `VMPowerCutTests`; this walks every ending it could leave.)
final class SyncTornChangeFileTests: TwoMachinesCase {
    func copy(_ from: String, _ to: String) throws {
        try? FileManager.default.removeItem(atPath: to)
        try tool("/bin/cp", ["-a", from, to])
    }

    func testALastLineTornAtEachByteOrLeftAsZerosIsWrittenWholeByTheNextSync() throws {
        let folder = base + "/shared", saved = base + "/as-the-cut-left-it"
        for dir in [folder, saved] {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        }
        // Two logs first: the day's snapshot is taken (the journal emptied) and the journal made
        // again before the craving traced, so the one stopped passes the same steps.
        try on(machineA, ["craving", "3", "--notes", "whole before the folder"])
        try synced(machineA, ["--folder", folder])
        try synced(machineB, ["--folder", folder])
        try on(machineA, ["craving", "2", "--notes", "whole before the cut"])
        let traced = try on(machineA, ["craving", "4", "--notes", "traced"], environment: ["CRAVEY_FAULT_TRACE": "1"])
        let steps = traced.stderr.split(separator: "\n").filter { $0.hasPrefix("fault-site ") }
        let written = try XCTUnwrap(steps.firstIndex(of: "fault-site sync.fsync"), "\(steps)")
        let stopped = try on(
            machineA, ["craving", "5", "--notes", "cut while written"], status: -9,
            environment: ["CRAVEY_FAULT_KILL_AT": "\(written + 1)", "CRAVEY_FAULT_TRACE": "1"])
        XCTAssertTrue(
            stopped.stderr.hasSuffix("fault-site sync.fsync\n"), "stopped before its fsync: \(stopped.stderr)")
        let file = try deviceFolder(machineA, in: folder) + "/changes.jsonl"
        let full = try Data(contentsOf: URL(fileURLWithPath: file))
        let whole = full.dropLast().lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let line = full.count - whole
        XCTAssertGreaterThan(line, 100, "the last write is one change line")
        try copy(machineA, saved + "/a")
        try copy(folder, saved + "/shared")

        // Every byte near both ends of the line, every 16th between; then zeros for its end.
        let cuts = (0..<line).filter { $0 < 12 || $0 >= line - 12 || $0 % 16 == 0 }.map { full.prefix(whole + $0) }
        let zeros =
            [1, line / 2, line].map { full.prefix(whole) + Data(count: $0) }
            + [full.prefix(whole + 10) + Data(count: line - 10)]
        for (n, ending) in (cuts + zeros).enumerated() {
            try copy(saved + "/a", machineA)
            try copy(saved + "/shared", folder)
            try ending.write(to: URL(fileURLWithPath: file))
            let torn = ending.count > whole
            if n % 8 == 0 || n >= cuts.count {
                let other = try synced(machineB, status: torn ? 1 : 0)
                XCTAssertEqual(
                    (other["problems"] as? [String])?.contains { $0.contains("cut short") }, torn,
                    "ending \(n): \(other)")
                XCTAssertFalse(try notes(machineB).contains("cut while written"), "ending \(n): never applied torn")
            }
            let next = try synced(machineA)
            XCTAssertEqual(next["written"] as? Int, 1, "ending \(n) (\(ending.count - whole) bytes): \(next)")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), full, "ending \(n): the line whole, once")
        }
        try synced(machineB)
        try assertOneHistory()
        XCTAssertEqual(
            try notes(machineB), ["cut while written", "traced", "whole before the cut", "whole before the folder"])
    }
}
