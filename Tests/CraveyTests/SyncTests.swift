import CraveyTestSupport
import Foundation
import XCTest

/// `cravey sync` end to end: two libraries (two machines) and a shared folder carried as a sync
/// tool or a USB stick would carry it (its files copied, in both orders, in pieces). Both come to
/// the same logs; each rule holds on its own; what the folder holds that cravey should not trust
/// changes nothing and is named by `check`; a kill while a change is written loses nothing said.
final class SyncTests: CommandTestCase {
    var machineA: String { base + "/a" }
    var machineB: String { base + "/b" }
    var shared: String { base + "/shared" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
    }

    func env(_ extra: [String: String] = [:]) -> [String: String] {
        ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_TRANSCRIBE": "later", "NO_COLOR": "1", "TZ": "Europe/Berlin"]
            .merging(extra) { $1 }
    }

    @discardableResult
    func run(
        _ library: String, _ arguments: [String], status: Int32? = 0, now: String? = nil, extra: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try runProcess(
            cravey, arguments + ["--library", library],
            environment: env(extra.merging(now.map { ["CRAVEY_NOW": $0] } ?? [:]) { $1 }))
        if let status {
            XCTAssertEqual(
                result.status, status, "\(arguments): \(result.stdout) \(result.stderr)", file: file, line: line)
        }
        return result
    }

    /// `cravey sync … --json` on a library, parsed.
    @discardableResult
    func sync(_ library: String, _ arguments: [String] = [], status: Int32? = 0, now: String? = nil) throws -> [String:
        Any]
    {
        try jsonObject(try run(library, ["sync"] + arguments + ["--json"], status: status, now: now).stdout)
    }

    func logs(_ library: String) throws -> String { try run(library, ["log", "--json"]).stdout }

    func logList(_ library: String) throws -> [[String: Any]] { try json(try logs(library)) as! [[String: Any]] }

    func device(_ library: String) throws -> String { try sync(library, ["--status"])["device"] as! String }

    func changeFile(_ folder: String, _ device: String) -> String {
        folder + "/cravey/devices/" + device + "/changes.jsonl"
    }

    /// Carries one device's folder from one copy of the shared folder to another, as a USB stick
    /// does (only the first `bytes` of its changes when given: a copy cut short).
    func carry(_ device: String, from: String, to: String, bytes: Int? = nil) throws {
        let source = from + "/cravey/devices/" + device, target = to + "/cravey/devices/" + device
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.createDirectory(atPath: to + "/cravey/devices", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: source, toPath: target)
        if let bytes {
            let data = try Data(contentsOf: URL(fileURLWithPath: changeFile(from, device)))
            try data.prefix(bytes).write(to: URL(fileURLWithPath: changeFile(to, device)))
        }
    }

    func testTwoMachinesComeToTheSameLogsThroughAFolderCarriedInPieces() throws {
        let stickA = base + "/stick-a", stickB = base + "/stick-b"
        for stick in [stickA, stickB] {
            try FileManager.default.createDirectory(atPath: stick, withIntermediateDirectories: true)
        }
        try run(machineA, ["craving", "7", "--trigger", "bored", "--notes", "after work"])
        try run(machineA, ["use", "vape", "3"])
        try run(machineA, ["settings", "goal", "cut-down"])
        let first = try sync(machineA, ["--folder", stickA])
        XCTAssertEqual(first["written"] as? Int, 3, "two logs and the goal: \(first)")
        let a = try device(machineA)
        XCTAssertEqual(a.count, 32)
        XCTAssertEqual(a, a.lowercased())
        XCTAssertEqual(try mode(stickA + "/cravey/devices/" + a), 0o700)
        XCTAssertEqual(try mode(changeFile(stickA, a)), 0o600)

        try run(machineB, ["craving", "3", "--notes", "on the train"])
        let join = try sync(machineB, ["--folder", stickB])
        let b = join["device"] as! String
        XCTAssertNotEqual(a, b)
        XCTAssertEqual(join["broughtIn"] as? Int, 0, "nothing of A's is on B's stick yet")

        // A's changes reach B in two pieces: the first cut in the middle of a line.
        let whole = try Data(contentsOf: URL(fileURLWithPath: changeFile(stickA, a)))
        let cut = whole.prefix(upTo: whole.firstIndex(of: 0x0A)!).count + 10
        try carry(a, from: stickA, to: stickB, bytes: cut)
        let piece = try sync(machineB, status: 1)
        XCTAssertEqual(piece["broughtIn"] as? Int, 1, "the whole first line only: \(piece)")
        XCTAssertTrue((piece["problems"] as! [String]).contains { $0.contains("cut short") }, "\(piece)")
        XCTAssertTrue(try run(machineB, ["check"], status: 1).stdout.contains("cut short"))
        try carry(a, from: stickA, to: stickB)
        XCTAssertEqual(try sync(machineB)["broughtIn"] as? Int, 2)
        XCTAssertEqual(try sync(machineB)["broughtIn"] as? Int, 0, "the same changes again bring in nothing")

        // B's stick goes to A, whole.
        try carry(b, from: stickB, to: stickA)
        XCTAssertEqual(try sync(machineA)["broughtIn"] as? Int, 1)
        XCTAssertEqual(try logs(machineA), try logs(machineB))
        XCTAssertEqual(try logList(machineA).count, 3)
        XCTAssertEqual(
            try run(machineA, ["settings", "--json"]).stdout, try run(machineB, ["settings", "--json"]).stdout,
            "the goal is shared")
        let now = "2026-11-27T12:00:00"
        XCTAssertEqual(
            try run(machineA, ["progress", "--json"], now: now).stdout,
            try run(machineB, ["progress", "--json"], now: now).stdout)
        let status = try sync(machineA, ["--status"])
        let devices = status["devices"] as! [[String: Any]]
        XCTAssertEqual(devices.count, 2, "\(status)")
        XCTAssertEqual(devices.first { $0["device"] as? String == b }?["changes"] as? Int, 1)
        XCTAssertTrue(try run(machineA, ["sync", "--status"]).stdout.hasPrefix("Syncing through \(stickA)."))
    }

    func testTheLaterEditWinsPerFieldEvenWithAClockAnHourBehind() throws {
        let ahead = "2026-11-20T12:00:00", behind = "2026-11-20T11:00:00"
        try run(machineA, ["craving", "5", "--notes", "first", "--at", "-3h"], now: ahead)
        try sync(machineA, ["--folder", shared], now: ahead)
        try sync(machineB, ["--folder", shared], now: behind)
        let id = try XCTUnwrap(try logList(machineB).first?["id"] as? String)
        // A edits the notes; B sees it, then edits them again, its clock an hour behind A's.
        try run(machineA, ["log", "edit", id, "--notes", "from A"], now: ahead)
        try sync(machineA, now: ahead)
        try sync(machineB, now: behind)
        try run(machineB, ["log", "edit", id, "--notes", "from B"], now: behind)
        try sync(machineB, now: behind)
        try sync(machineA, now: ahead)
        XCTAssertEqual(try logList(machineA).first?["notes"] as? String, "from B", "the later edit wins on A")
        XCTAssertEqual(try logList(machineB).first?["notes"] as? String, "from B")
        // Two machines change two fields of one log without seeing each other: both are kept.
        try run(machineA, ["log", "edit", id, "--intensity", "9"], now: ahead)
        try run(machineB, ["log", "edit", id, "--notes", "both"], now: behind)
        try sync(machineA, now: ahead)
        try sync(machineB, now: behind)
        try sync(machineA, now: ahead)
        XCTAssertEqual(try logs(machineA), try logs(machineB))
        XCTAssertEqual(try logList(machineA).first?["intensity"] as? Int, 9)
        XCTAssertEqual(try logList(machineA).first?["notes"] as? String, "both")
    }

    func testADeleteWinsOverAnEditAndSettingsAreShared() throws {
        // Each machine has its own stick, carried to the other: B edits after A deleted, unseen.
        let stickA = base + "/stick-a", stickB = base + "/stick-b"
        for stick in [stickA, stickB] {
            try FileManager.default.createDirectory(atPath: stick, withIntermediateDirectories: true)
        }
        try run(machineA, ["craving", "6"])
        try run(machineA, ["craving", "2"])
        let a = try sync(machineA, ["--folder", stickA])["device"] as! String
        try carry(a, from: stickA, to: stickB)
        let b = try sync(machineB, ["--folder", stickB])["device"] as! String
        let id = try XCTUnwrap(try logList(machineB).first?["id"] as? String)
        try run(machineA, ["log", "delete", id, "--yes"])
        try run(machineB, ["log", "edit", id, "--notes", "edited after"])
        try run(machineB, ["settings", "name", "Sam"])
        try carry(a, from: stickA, to: stickB)
        try carry(b, from: stickB, to: stickA)
        try sync(machineB)
        try sync(machineA)
        XCTAssertEqual(try logList(machineA).count, 1, "the delete wins")
        XCTAssertEqual(try logs(machineA), try logs(machineB))
        XCTAssertEqual(try run(machineA, ["settings", "name"]).stdout, "Sam\n")
    }

    func testAnEditAtLeisureBringsInTheOtherMachinesChangesFirst() throws {
        try sync(machineA, ["--folder", shared])
        try run(machineB, ["craving", "5"])
        try sync(machineB, ["--folder", shared])
        try run(machineA, ["settings", "name", "Sam"])
        XCTAssertEqual(try logList(machineA).count, 1, "the setting brought B's craving in first")
        try run(machineA, ["craving", "8"])
        let id = try logList(machineA).first { $0["intensity"] as? Int == 8 }!["id"] as! String
        // B edits A's craving without a sync first: the edit brings it in, then changes it.
        try run(machineB, ["log", "edit", id, "--notes", "seen on B"])
        XCTAssertEqual(try run(machineB, ["settings", "name"]).stdout, "Sam\n")
        XCTAssertEqual(try sync(machineB)["broughtIn"] as? Int, 0)
        try sync(machineA)
        XCTAssertEqual(try logs(machineA), try logs(machineB))
    }

    /// Plants `what` in the shared folder after A's changes are there: B's sync changes nothing of
    /// it and `check` names it (`words`).
    func assertRefused(
        _ words: String, file: StaticString = #filePath, line: UInt = #line, plant: () throws -> Void
    )
        throws
    {
        let before = try logs(machineB)
        try plant()
        let result = try sync(machineB, status: 1)
        XCTAssertTrue(
            (result["problems"] as! [String]).contains { $0.contains(words) }, "\(result)", file: file, line: line)
        XCTAssertEqual(try logs(machineB), before, "nothing changed", file: file, line: line)
        let check = try run(machineB, ["check"], status: 1)
        XCTAssertTrue(check.stdout.contains(words), check.stdout, file: file, line: line)
    }

    func testWhatTheFolderHoldsThatCraveyShouldNotTrustChangesNothingAndIsNamed() throws {
        try run(machineA, ["craving", "4"])
        try sync(machineA, ["--folder", shared])
        try sync(machineB, ["--folder", shared])
        let a = try device(machineA)
        let id = try XCTUnwrap(try logList(machineB).first?["id"] as? String)
        let ms = Int(Date().timeIntervalSince1970 * 1000)
        let hostile = """
            {"clock":[\(ms),0],"counter":50,"device":"DEVICE","id":"\(id)","kind":"craving","row":{"intensity":99}}

            """
        try assertRefused("was not applied") {
            let handle = FileHandle(forWritingAtPath: self.changeFile(self.shared, a))!
            handle.seekToEndOfFile()
            handle.write(Data(hostile.replacingOccurrences(of: "DEVICE", with: a).utf8))
            try handle.close()
        }
        try assertRefused("conflict") {
            let copy = self.shared + "/cravey/devices/\(a)/changes.sync-conflict-20261127-001122-ABCDEFG.jsonl"
            try Data(hostile.replacingOccurrences(of: "DEVICE", with: a).utf8).write(to: URL(fileURLWithPath: copy))
        }
        try assertRefused("is a link; it was not followed") {
            let planted = self.shared + "/cravey/devices/" + String(repeating: "ab", count: 16)
            XCTAssertEqual(symlink(self.machineA, planted), 0)
        }
        try assertRefused("newer than this cravey reads") {
            let newer = self.shared + "/cravey/devices/" + String(repeating: "cd", count: 16)
            try FileManager.default.createDirectory(atPath: newer, withIntermediateDirectories: true)
            try Data("{\"device\":\"x\",\"format\":2}\n".utf8).write(to: URL(fileURLWithPath: newer + "/device.json"))
            try Data(hostile.replacingOccurrences(of: "DEVICE", with: String(repeating: "cd", count: 16)).utf8)
                .write(to: URL(fileURLWithPath: newer + "/changes.jsonl"))
        }
        try assertRefused("counter goes back") {
            // A's first line again, after the others: two machines writing as one device.
            let path = self.changeFile(self.shared, a)
            let first = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")[0]
            let handle = FileHandle(forWritingAtPath: path)!
            handle.seekToEndOfFile()
            handle.write(Data((first + "\n").utf8))
            try handle.close()
        }
        XCTAssertEqual(try logList(machineB).first?["intensity"] as? Int, 4)
    }

    func testAPurgeDeletesThisMachinesDataOnlyAndLeavesTheFolder() throws {
        try run(machineA, ["craving", "4"])
        try sync(machineA, ["--folder", shared])
        try sync(machineB, ["--folder", shared])
        try run(machineA, ["purge", "--yes"])
        try run(machineA, ["craving", "7"])
        XCTAssertTrue(try run(machineA, ["sync"], status: 1).stderr.contains("no sync folder is chosen"))
        try sync(machineB)
        XCTAssertEqual(try logList(machineB).count, 1, "the other machine keeps its history")
        try sync(machineA, ["--folder", shared])
        XCTAssertEqual(try logList(machineA).count, 2, "chosen again, the history comes back")
        try sync(machineB)
        XCTAssertEqual(try logs(machineA), try logs(machineB))
    }

    func testACopiedLibraryIsNamedAndGetsItsOwnDeviceId() throws {
        try run(machineA, ["craving", "4"])
        try sync(machineA, ["--folder", shared])
        let copy = base + "/a-copy"
        XCTAssertEqual(try runProcess("/bin/cp", ["-a", machineA, copy]).status, 0)
        try run(machineA, ["craving", "5"])
        try sync(machineA)
        try run(copy, ["craving", "6"])
        let cloned = try sync(copy, status: 1)
        XCTAssertTrue((cloned["problems"] as! [String]).contains { $0.contains("--new-device") }, "\(cloned)")
        XCTAssertTrue(try run(copy, ["check"], status: 1).stdout.contains("another machine writes as this one"))
        let renewed = try sync(copy, ["--new-device"])
        XCTAssertNotEqual(renewed["device"] as? String, try device(machineA))
        try sync(machineA)
        XCTAssertEqual(try logList(machineA).count, 3)
        XCTAssertEqual(try logs(machineA), try logs(copy))
        try run(copy, ["check"])
    }

    func testAnUnpluggedFolderIsSaidBySyncAndCheckOnlyAndItsChangesWait() throws {
        let stick = base + "/stick"
        try FileManager.default.createDirectory(atPath: stick, withIntermediateDirectories: true)
        try sync(machineA, ["--folder", stick])
        let a = try device(machineA)
        try FileManager.default.moveItem(atPath: stick, toPath: stick + ".away")
        let logged = try run(machineA, ["craving", "3"])
        XCTAssertEqual(logged.stderr, "", "silent where it is not asked")
        let away = try run(machineA, ["sync"], status: 1)
        XCTAssertTrue(away.stdout.contains("is not there"), away.stdout)
        XCTAssertTrue(try run(machineA, ["check"], status: 1).stdout.contains("cannot be reached"))
        try FileManager.default.moveItem(atPath: stick + ".away", toPath: stick)
        XCTAssertEqual(try sync(machineA)["written"] as? Int, 1)
        try sync(machineB, ["--folder", stick])
        XCTAssertEqual(try logs(machineA), try logs(machineB))
        XCTAssertTrue(FileManager.default.fileExists(atPath: changeFile(stick, a)))
    }

    func testBadInputChangesNothing() throws {
        let nowhere = try run(machineB, ["sync", "--folder", base + "/nowhere"], status: 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: machineB), "no library made: \(nowhere.stderr)")
        for arguments in [["sync"], ["sync", "--status"], ["sync", "--new-device"]] {
            let nothing = try run(machineB, arguments, status: 1)
            XCTAssertTrue(nothing.stderr.contains("there is no cravey library"), nothing.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: machineB), "no library made by \(arguments)")
        }
        try run(machineA, ["craving", "2"])
        let missing = try run(machineA, ["sync", "--folder", base + "/nowhere"], status: 1)
        XCTAssertTrue(missing.stderr.contains("cannot be reached"), missing.stderr)
        XCTAssertEqual(missing.stderr.split(separator: "\n").count, 1)
        let inside = try run(machineA, ["sync", "--folder", machineA], status: 1)
        XCTAssertTrue(inside.stderr.contains("library's own directory"), inside.stderr)
        let none = try run(machineA, ["sync"], status: 1)
        XCTAssertTrue(none.stderr.contains("no sync folder is chosen"), none.stderr)
        try run(machineA, ["sync", "--status", "--new-device"], status: 64)
    }

    /// Killed at each step of writing a change (the fault seam's steps), nothing said to be logged
    /// is lost: the next sync writes it once, and the other machine gets it.
    func testAKillWhileAChangeIsWrittenLosesNothingSaid() throws {
        try sync(machineA, ["--folder", shared])
        var said = 0
        for site in ["journal.forget", "sync.append", "sync.fsync", "sync.forget"] {
            // The steps of a craving as it runs now, then the same craving killed at this one.
            let trace = try run(machineA, ["craving", "2"], extra: ["CRAVEY_FAULT_TRACE": "1"])
            said += 1
            let sites = trace.stderr.split(separator: "\n").filter { $0.hasPrefix("fault-site ") }.map {
                String($0.dropFirst("fault-site ".count))
            }
            let index = try XCTUnwrap(sites.firstIndex(of: site), "\(sites)")
            let killed = try run(
                machineA, ["craving", "3"], status: nil, extra: ["CRAVEY_FAULT_KILL_AT": String(index + 1)])
            XCTAssertEqual(killed.status, -9, "killed at \(site)")
            if killed.stdout.contains("logged") { said += 1 }
            try sync(machineA)
        }
        try sync(machineB, ["--folder", shared])
        XCTAssertEqual(try logs(machineA), try logs(machineB))
        XCTAssertGreaterThanOrEqual(try logList(machineB).count, said)
        let counters = try String(contentsOfFile: changeFile(shared, try device(machineA)), encoding: .utf8)
            .split(separator: "\n").map { (try! jsonObject(String($0)))["counter"] as! Int }
        XCTAssertEqual(counters, Array(1...counters.count), "each change once, in order")
    }
}
