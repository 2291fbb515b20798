import CraveyTestSupport
import Foundation
import Synchronization
import XCTest

/// A hard moment never waits on the sync folder, and a recording's files go and come in the right
/// order: a craving logged while the folder hangs is said and done in moments and reaches the
/// folder by the next sync; processes writing to the folder at once write each change once; a
/// recording's file refused once is taken when it comes whole, with no new line; an older version
/// of this machine's recording stays in the folder until the line naming the new one is there.
final class SyncWaitTests: SyncFoldersTestCase {
    /// `cravey ARGUMENTS --library LIBRARY` with the tests' sound devices and `extra` in the
    /// environment; its status is the caller's to check.
    func run(_ library: String, _ arguments: [String], _ extra: [String: String] = [:]) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try runProcess(cravey, arguments + ["--library", library], environment: environment(extra))
    }

    func environment(_ extra: [String: String]) -> [String: String] {
        [
            "ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_INFILE": phraseFixture, "CRAVEY_TRANSCRIBE": "later",
            "NO_COLOR": "1", "TZ": "Europe/Berlin",
        ].merging(extra) { $1 }
    }

    /// This machine's change lines in the folder, in the file's order.
    func changeLines(_ shared: String, _ library: String) throws -> [[String: Any]] {
        try String(contentsOfFile: try deviceDirectory(shared, library) + "/changes.jsonl", encoding: .utf8)
            .split(separator: "\n").map { try jsonObject(String($0)) }
    }

    /// The recordings `list --json` gives.
    func listed(_ library: String) throws -> [[String: Any]] {
        try json(try cravey(library, ["list", "--json"]).stdout) as! [[String: Any]]
    }

    /// A two-second message recorded on `library` (the tests' microphone); its id.
    func record(_ library: String, title: String) throws -> String {
        let made = try run(
            library, ["record", "audio", "--mic", "cravey_file", "--max-seconds", "2", "--title", title])
        XCTAssertEqual(made.status, 0, made.stderr)
        return made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testACravingIsSaidAndDoneWhileTheFolderHangsAndReachesItByTheNextSync() throws {
        let (a, b, shared) = try machineWithACraving()
        let before = try changeLines(shared, a).count
        // The folder stops answering for a minute whenever this machine appends to it.
        let hanging = ["CRAVEY_FAULT_HANG": "sync.append:60"]
        for (arguments, note) in [
            (["craving", "8", "--notes", "while the stick hangs"], "while the stick hangs"),
            (["use", "vape", "1", "--notes", "used while it hangs"], "used while it hangs"),
        ] {
            let started = Date()
            let logged = try run(a, arguments, hanging)
            let seconds = Date().timeIntervalSince(started)
            XCTAssertEqual(logged.status, 0, logged.stderr)
            XCTAssertTrue(logged.stdout.contains("logged"), logged.stdout)
            XCTAssertLessThan(seconds, 10, "\(arguments[0]): said and gone in moments, not after the folder's minute")
            XCTAssertTrue(try logText(a).contains(note), "kept in the library")
        }
        XCTAssertEqual(try changeLines(shared, a).count, before, "not in the folder yet")

        let report = try synced(a)
        XCTAssertEqual(report["written"] as? Int, 2, "\(report)")
        XCTAssertEqual(report["waiting"] as? Int, 0)
        try synced(b, ["--folder", shared])
        XCTAssertTrue(try logText(b).contains("while the stick hangs"))
        XCTAssertTrue(try logText(b).contains("used while it hangs"))
        let counters = try changeLines(shared, a).map { $0["counter"] as! Int }
        XCTAssertEqual(counters, Array(1...counters.count), "each change once, in order")
    }

    func testProcessesWritingToTheFolderAtOnceWriteEachChangeOnce() throws {
        let (a, b, shared) = try machineWithACraving()
        let id = try record(a, title: "Breathe")
        try synced(a)
        // Two plays of it and a craving at once, each process's append held a while at the folder,
        // so that each reads the file's end before the others have written.
        let runs: [(arguments: [String], extra: [String: String])] =
            (0..<2).map { n in
                (
                    ["play", id, "--speaker", "cravey_capture"],
                    ["CRAVEY_ALSA_OUTFILE": base + "/speaker-\(n).raw", "CRAVEY_FAULT_HANG": "sync.append:1.5"]
                )
            } + [(["craving", "5", "--notes", "beside two plays"], ["CRAVEY_FAULT_HANG": "sync.append:1.5"])]
        let program = craveyUnderTest
        let started = runs.map { (arguments: $0.arguments + ["--library", a], environment: environment($0.extra)) }
        let ended = Mutex<[Int: String]>([:])
        DispatchQueue.concurrentPerform(iterations: started.count) { n in
            let ran = try? runProcess(program, started[n].arguments, environment: started[n].environment)
            ended.withLock { $0[n] = ran.map { "\($0.status) \($0.stderr)" } ?? "did not run" }
        }
        for n in runs.indices {
            XCTAssertEqual(
                ended.withLock { $0[n] }?.prefix(2), "0 ", "\(runs[n].arguments): \(ended.withLock { $0[n] } ?? "")")
        }

        XCTAssertEqual(try synced(a)["waiting"] as? Int, 0, "what waited is written now")
        let counters = try changeLines(shared, a).map { $0["counter"] as! Int }
        XCTAssertEqual(counters, Array(1...counters.count), "each change once, in order")
        try synced(b, ["--folder", shared])
        XCTAssertEqual(try listed(b).first?["playCount"] as? Int, 2, "both plays counted once")
        XCTAssertTrue(try logText(b).contains("beside two plays"))
        XCTAssertEqual(try cravey(a, ["check"]).status, 0)
    }

    func testARefusedFileIsTakenOnceItComesWholeWithoutANewLine() throws {
        let a = library("a"), b = library("b"), stickA = try folder("stick-a"), stickB = try folder("stick-b")
        let video = base + "/walk.mov"
        try makeTestVideo(video, seconds: 3)
        let id = try XCTUnwrap(try jsonObject(try cravey(a, ["import", video, "--json"]).stdout)["id"] as? String)
        try synced(a, ["--folder", stickA])
        try synced(b, ["--folder", stickB])
        try carry(a, from: stickA, to: stickB)
        let media = try deviceDirectory(stickB, a) + "/media"
        let name = try XCTUnwrap(try names(media).first { $0.hasPrefix(id.lowercased() + ".1.") })
        let whole = try Data(contentsOf: URL(fileURLWithPath: media + "/" + name))

        // Damaged on the way (a byte changed): refused and named.
        var damaged = whole
        damaged[damaged.count / 2] ^= 0xFF
        try damaged.write(to: URL(fileURLWithPath: media + "/" + name))
        let refused = try synced(b, status: 1)
        XCTAssertTrue(
            (refused["problems"] as! [String]).contains { $0.contains("SHA-256") && $0.contains(name) }, "\(refused)")
        XCTAssertEqual(try listed(b).count, 0)

        // The whole file put in its place, no new line: the next sync takes it, with a thumbnail.
        try whole.write(to: URL(fileURLWithPath: media + "/" + name))
        let taken = try synced(b)
        XCTAssertEqual(taken["problems"] as? [String], [], "nothing named any more")
        let onB = try XCTUnwrap(try listed(b).first { $0["id"] as? String == id })
        let thumbnail = try XCTUnwrap(onB["thumbnailPath"] as? String, "\(onB)")
        XCTAssertEqual(try ffprobe(b + "/" + thumbnail).codecs, ["mjpeg"])
        XCTAssertEqual(try cravey(b, ["check"]).status, 0)
    }

    func testAnOlderVersionStaysInTheFolderUntilTheLineNamingTheNewOneIsThere() throws {
        let a = library("a"), b = library("b"), shared = try folder("shared")
        let id = try record(a, title: "Call Sam")
        try synced(a, ["--folder", shared])
        let media = try deviceDirectory(shared, a) + "/media"
        let first = id.lowercased() + ".1.m4a", second = id.lowercased() + ".2.m4a"
        XCTAssertEqual(try names(media), [first])

        // A trim, its line not written (the change file refuses the append).
        try cravey(a, ["trim", id, "--start", "0.5", "--end", "1.5"])
        let failed = try run(a, ["sync"], ["CRAVEY_FAULT_FAIL": "sync.append"])
        XCTAssertNotEqual(failed.status, 0, failed.stdout)
        let kept = try names(media)
        XCTAssertTrue(kept.contains(first), "the version the folder's lines name stays: \(kept)")
        try synced(b, ["--folder", shared])
        XCTAssertEqual(try listed(b).first?["duration"] as? Double ?? 0, 2, accuracy: 0.05, "B takes what they name")

        // The trim's line written: the older version goes, and B follows the trim.
        try synced(a)
        XCTAssertEqual(try names(media), [second])
        try synced(b)
        XCTAssertEqual(try listed(b).first?["duration"] as? Double ?? 0, 1, accuracy: 0.05)
        XCTAssertEqual(try cravey(a, ["check"]).status, 0)
        XCTAssertEqual(try cravey(b, ["check"]).status, 0)
    }
}
