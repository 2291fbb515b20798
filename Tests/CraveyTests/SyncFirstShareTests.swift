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

    /// The machine has a recording of its own, whose file the sync looks for in the folder after
    /// the bring-in: the folder gone then is said the same way.
    func testAFolderGoneAfterBringingInIsSaidWithWhatCameIn() throws {
        let a = library("a"), b = library("b"), shared = try folder("shared")
        try cravey(a, ["craving", "4"])
        let tone = base + "/tone.wav"
        try makeToneWAV(tone, seconds: 1)
        try cravey(a, ["import", tone, "--title", "Walk"])
        try synced(a, ["--folder", shared])
        try synced(b, ["--folder", shared])
        try cravey(b, ["craving", "3", "--notes", "from the other machine"])
        try synced(b)

        // a's sync waits after its bring-in is kept; the folder is taken away then (a stick pulled).
        let program = Process()
        program.executableURL = URL(fileURLWithPath: cravey)
        program.arguments = ["sync", "--library", a]
        program.environment = ProcessInfo.processInfo.environment.merging(
            plain.merging(["CRAVEY_FAULT_TRACE": "1", "CRAVEY_FAULT_HANG": "sync.merge.committed:5"]) { $1 }
        ) { $1 }
        let traced = base + "/trace.txt"
        FileManager.default.createFile(atPath: traced, contents: nil)
        let out = Pipe()
        program.standardOutput = out
        program.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: traced))
        try program.run()
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline,
            !((try? String(contentsOfFile: traced, encoding: .utf8)) ?? "").contains("fault-site sync.merge.committed")
        {
            usleep(20_000)
        }
        XCTAssertEqual(rename(shared, base + "/away"), 0)
        let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        program.waitUntilExit()
        let stderr = try String(contentsOfFile: traced, encoding: .utf8)

        XCTAssertEqual(program.terminationStatus, 1, said + stderr)
        XCTAssertTrue(said.contains("1 change brought in"), said)
        XCTAssertTrue(said.contains("then the folder could not be reached"), said)
        XCTAssertFalse(said.contains("Nothing synced"), said)
        XCTAssertFalse(stderr.contains("nothing was brought in"), stderr)
        XCTAssertTrue(stderr.contains("what it brought in and wrote before then is kept"), stderr)
        XCTAssertTrue(try logText(a).contains("from the other machine"), "kept")

        // Back: the next sync goes on, with nothing to bring in again.
        XCTAssertEqual(rename(base + "/away", shared), 0)
        XCTAssertEqual(try synced(a)["broughtIn"] as? Int, 0)
        try cravey(a, ["check"])
        try synced(b)
        XCTAssertEqual(
            (try json(try cravey(b, ["list", "--json"]).stdout) as? [[String: Any]])?.count, 1, "the recording")
    }

    /// A message played before any folder was chosen, a first `sync --folder` cut short after the
    /// choice, the message played again: the next sync counts both plays as this machine's, once
    /// each, here and on the other machine (it failed on the plays' table before).
    func testPlaysBeforeAndAfterAFirstSyncCutShortAreCountedOnceEach() throws {
        let a = library("a"), b = library("b"), shared = try folder("shared")
        let tone = base + "/tone.wav"
        try makeToneWAV(tone, seconds: 1)
        try cravey(a, ["import", tone, "--title", "Walk"])
        try cravey(a, ["play", "--top", "--speaker", "null"])
        let cut = try runProcess(
            cravey, ["sync", "--folder", shared, "--library", a],
            environment: plain.merging(["CRAVEY_FAULT_FAIL": "sync.survey"]) { $1 })
        XCTAssertNotEqual(cut.status, 0, cut.stdout + cut.stderr)
        try cravey(a, ["play", "--top", "--speaker", "null"])

        try synced(a)
        try synced(b, ["--folder", shared])
        for machine in [a, b] {
            let list = try XCTUnwrap(try json(try cravey(machine, ["list", "--json"]).stdout) as? [[String: Any]])
            XCTAssertEqual(list.first?["playCount"] as? Int, 2, "\(machine): \(list)")
        }
        XCTAssertEqual(try synced(a)["written"] as? Int, 0, "told once")
        try cravey(a, ["check"])
        try cravey(b, ["check"])
    }

    func testANewDeviceIdWaitsForAPushUnderWay() throws {
        let (a, _, _) = try machineWithACraving()
        let before = try XCTUnwrap(try synced(a, ["--status"])["device"] as? String)

        // Another process of this machine writes to the folder (it holds the push lock) a while.
        let lock = a + "/sync.lock"
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = [lock, "sleep", "8"]
        try holder.run()
        let held = Date().addingTimeInterval(10)
        while Date() < held, try runProcess("/usr/bin/flock", ["-n", lock, "true"]).status == 0 { usleep(20_000) }

        let program = Process()
        program.executableURL = URL(fileURLWithPath: cravey)
        program.arguments = ["sync", "--new-device", "--library", a]
        program.environment = ProcessInfo.processInfo.environment.merging(plain) { $1 }
        program.standardOutput = FileHandle.nullDevice
        program.standardError = FileHandle.nullDevice
        try program.run()
        usleep(2_000_000)
        XCTAssertEqual(
            try synced(a, ["--status"])["device"] as? String, before, "the id waits while the push is under way")
        program.waitUntilExit()
        holder.waitUntilExit()
        XCTAssertEqual(program.terminationStatus, 0)
        XCTAssertNotEqual(try synced(a, ["--status"])["device"] as? String, before)
        try cravey(a, ["check"])
    }
}
