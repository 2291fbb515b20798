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

    func testARecordingLineTheRulesRefuseChangesNeitherTheFileNorTheRow() throws {
        let machineC = base + "/c"
        let id = try record(machineA, title: "Call Sam")
        try synced(machineA, ["--folder", shared])
        for machine in [machineB, machineC] {
            XCTAssertEqual(try synced(machine, ["--folder", shared])["broughtIn"] as? Int, 1)
        }
        try on(machineA, ["trim", id, "--start", "0.5", "--end", "1.5"])
        try synced(machineA)
        let changes = try deviceFolder(machineA, in: shared) + "/changes.jsonl"
        let written = try String(contentsOfFile: changes, encoding: .utf8)
        var lines = written.split(separator: "\n").map(String.init)
        let trim = try jsonObject(try XCTUnwrap(lines.last))
        XCTAssertNotNil((trim["row"] as? [String: Any])?["version"], "the trim's line names a new version")

        // A new version with a title of 41 characters, then with triggers out of their order.
        for (machine, field, value) in [
            (machineB, "title", String(repeating: "x", count: 41)), (machineC, "forTriggers", "bored,anxious"),
        ] {
            var line = trim
            var row = try XCTUnwrap(line["row"] as? [String: Any])
            row[field] = value
            line["row"] = row
            lines[lines.count - 1] = String(
                decoding: try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]), as: UTF8.self)
            try (lines.joined(separator: "\n") + "\n").write(toFile: changes, atomically: false, encoding: .utf8)

            let before = try XCTUnwrap(try listed(machine).first)
            let file = machine + "/" + (try XCTUnwrap(before["filePath"] as? String))
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            let refused = try synced(machine, status: 1)
            XCTAssertTrue(
                (refused["problems"] as? [String] ?? []).contains { $0.contains("recording from device") },
                "\(field): \(refused)")
            let after = try XCTUnwrap(try listed(machine).first)
            XCTAssertEqual(after["title"] as? String, "Call Sam", field)
            XCTAssertEqual(after["forTriggers"] as? String, before["forTriggers"] as? String, field)
            XCTAssertEqual(after["duration"] as? Double ?? 0, 2, accuracy: 0.05, "\(field): the file was not replaced")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), bytes, field)
            XCTAssertEqual(names(machine + "/.incoming"), [], field)
            try synced(machine, status: 1)
            XCTAssertEqual(
                names(try deviceFolder(machine, in: shared) + "/media"), [], "\(field): nothing shared as its own")
        }
    }
}
