import CraveyTestSupport
import Foundation
import XCTest

/// What cravey reads, replaces and removes in the sync folder is only what it wrote, in the form
/// it writes: this machine's change file grown far past what it wrote is named, never read; a
/// segment or snapshot name with a sign or a leading zero is left alone; a file in this machine's
/// media folder that is not one of its recordings' files stays; a recording's line that the
/// library's rules refuse changes neither the file nor the row.
final class SyncOwnFilesOnlyTests: TwoMachinesCase {
    var shared: String { base + "/shared" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
    }

    func names(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    /// Records a two-second message on `machine`; its id.
    func record(_ machine: String, title: String) throws -> String {
        try on(
            machine, ["record", "audio", "--mic", "cravey_file", "--max-seconds", "2", "--title", title],
            environment: ["CRAVEY_ALSA_INFILE": phraseFixture]
        ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func listed(_ machine: String) throws -> [[String: Any]] {
        try XCTUnwrap(try json(try on(machine, ["list", "--json"]).stdout) as? [[String: Any]])
    }

    func testThisMachinesChangeFileFarLargerThanItWroteIsNamedNeverReadAndNothingIsLost() throws {
        try on(machineA, ["craving", "4"])
        try synced(machineA, ["--folder", shared])
        let file = try deviceFolder(machineA, in: shared) + "/changes.jsonl"
        try tool("/usr/bin/truncate", ["-s", "64G", file])  // sparse: no disk used

        let craving = try on(machineA, ["craving", "5"])
        XCTAssertTrue(craving.stdout.lowercased().contains("logged"), craving.stdout)
        let report = try synced(machineA, status: 1)
        let problems = try XCTUnwrap(report["problems"] as? [String])
        XCTAssertEqual(problems.count, 1, "\(problems)")
        XCTAssertTrue(
            problems.first?.contains("changes.jsonl is larger than 1024 MB, more than cravey writes") == true,
            "\(problems)")
        XCTAssertEqual(report["waiting"] as? Int, 1, "the craving waits in the library")
        XCTAssertEqual(try logged(machineA).count, 2)
        let check = try on(machineA, ["check"], status: 1)
        XCTAssertTrue(check.stdout.contains("changes.jsonl is larger than 1024 MB"), check.stdout)
        let info = try FileManager.default.attributesOfItem(atPath: file)
        XCTAssertEqual((info[.size] as? NSNumber)?.int64Value, 64 << 30, "the file is left as it was")
    }

    func testSegmentAndSnapshotNamesWithASignOrALeadingZeroAreLeftAlone() throws {
        for craving in 1...7 { try on(machineA, ["craving", "\(craving % 10 + 1)"]) }
        try synced(machineA, ["--folder", shared])
        let device = try deviceFolder(machineA, in: shared)
        let strays = [
            "changes-+5.jsonl", "changes--1.jsonl", "changes-05.jsonl", "snapshot-+1.jsonl", "snapshot-+6.jsonl",
            ".snapshot-+2.jsonl.new",
        ]
        for name in strays { try Data("not cravey's\n".utf8).write(to: URL(fileURLWithPath: device + "/" + name)) }

        let compacted = try synced(machineA, ["--compact"])
        XCTAssertEqual(compacted["problems"] as? [String], [], "\(compacted)")
        XCTAssertNotNil(compacted["compacted"] as? Int, "\(compacted)")
        for name in strays {
            XCTAssertEqual(
                try? String(contentsOfFile: device + "/" + name, encoding: .utf8), "not cravey's\n",
                "\(name) left alone")
        }
        XCTAssertEqual(try synced(machineB, ["--folder", shared])["problems"] as? [String], [])
        XCTAssertEqual(try logged(machineB).count, 7, "B reads A's own files, not the strays")
    }

    func testOnlyThisMachinesOwnRecordingFilesLeaveItsMediaFolder() throws {
        let id = try record(machineA, title: "Breathe").lowercased()
        try synced(machineA, ["--folder", shared])
        let media = try deviceFolder(machineA, in: shared) + "/media"
        XCTAssertEqual(names(media), [id + ".1.m4a"])
        let strays = [
            ".gitkeep", "\(id).1.sync-conflict-20261127-120000-ABCDEFG.m4a", "\(id.uppercased()).1.m4a", "notes",
            "\(id).01.m4a", "\(id).+3.m4a", "\(id).3.wav", UUID().uuidString.lowercased() + ".1.m4a",
        ]
        for name in strays { try Data("kept\n".utf8).write(to: URL(fileURLWithPath: media + "/" + name)) }
        try FileManager.default.createDirectory(atPath: media + "/\(id).7.m4a", withIntermediateDirectories: true)
        // What cravey itself left there (a run killed before its line was kept, a copy cut short): it goes.
        for name in ["\(id).5.m4a", ".\(id).3.m4a.new"] {
            try Data("cravey's\n".utf8).write(to: URL(fileURLWithPath: media + "/" + name))
        }

        try on(machineA, ["trim", id, "--start", "0.5", "--end", "1.5"])
        try synced(machineA)
        XCTAssertEqual(names(media), (strays + ["\(id).7.m4a", "\(id).2.m4a"]).sorted())
        XCTAssertEqual(names(media + "/\(id).7.m4a"), [])
    }
}
