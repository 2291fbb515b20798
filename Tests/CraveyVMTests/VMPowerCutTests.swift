import CraveyTestSupport
import Foundation
import XCTest

/// A power cut while a change is written to the sync folder, on a real disk: the VM rig boots with
/// a disk of its own (an ext4 image, `/dev/vda`), a library and its sync folder on it, cravings
/// logged, the last stopped as its change is being written to the folder (written, not yet
/// fsynced), and the machine's power cut there (`sysrq b`: nothing synced). A second short boot
/// finds every log that was said to be logged in the library, and in the change file or still
/// waiting to be written; another machine reading the folder then names a torn last line and
/// applies only whole ones; `sync` writes the rest and both machines agree. The second boot also
/// runs a sync folder on a FAT stick (the kernel's vfat, a loop device in the machine).
final class VMPowerCutTests: XCTestCase {
    func testAPowerCutWhileAChangeIsWrittenLosesNothingSaid() throws {
        if ProcessInfo.processInfo.environment["CRAVEY_IN_VM"] == "1" { throw XCTSkip("already inside the VM") }
        let scratch = FileManager.default.temporaryDirectory.path + "/cravey-vm-cut-\(UUID().uuidString.prefix(8))"
        let results = scratch + "/results", disk = scratch + "/disk.img"
        try FileManager.default.createDirectory(atPath: results, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        XCTAssertEqual(try runProcess("/usr/bin/truncate", ["-s", "64M", disk]).status, 0)
        let made = try runProcess("/usr/sbin/mkfs.ext4", ["-q", "-F", disk])
        XCTAssertEqual(made.status, 0, made.stderr)
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
        func boot(_ tests: [String]) throws -> (status: Int32, stdout: String, stderr: String, seconds: Double) {
            let start = Date()
            let run = try runProcess(
                "/bin/bash",
                [
                    repositoryRoot + "/Tests/vm/rig.sh", "run", results, "--", testBinary,
                    tests.map { "CraveyVMTests.VMPowerCutInside/" + $0 }.joined(separator: ","),
                ], environment: ["CRAVEY_VM_DISK": disk])
            return (run.status, run.stdout, run.stderr, Date().timeIntervalSince(start))
        }

        let cut = try boot(["testLoggingUntilThePowerIsCut"])
        XCTAssertEqual(cut.status, 0, "the first boot:\n\(cut.stdout.suffix(3000))\n\(cut.stderr.suffix(2000))")
        XCTAssertTrue(FileManager.default.fileExists(atPath: results + "/cut"), "the power was cut:\n\(cut.stdout)")
        let said = try String(contentsOfFile: results + "/said", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(said.count, 6, "five cravings and the traced one were said: \(said)")

        let after = try boot(["testAfterThePowerCutNothingSaidIsLost", "testAFolderOnAFATStickWorks"])
        for line in after.stdout.split(separator: "\n")
        where line.hasPrefix("power cut:") || line.contains(": error: ") || line.hasPrefix("Test Case '") {
            print("in the VM: \(line)")
        }
        print(
            "VM power cut: the first boot (logging, then the cut) \(String(format: "%.0f", cut.seconds)) s, "
                + "the second (after it, and a FAT stick) \(String(format: "%.0f", after.seconds)) s")
        XCTAssertEqual(after.status, 0, "the second boot:\n\(after.stdout.suffix(4000))\n\(after.stderr.suffix(2000))")
        XCTAssertTrue(
            after.stdout.range(of: "Executed 2 tests, with 0 failures", options: .literal) != nil,
            after.stdout.suffix(3000).description)
    }
}

/// The two boots' parts, inside the VM rig (they skip elsewhere): see `VMPowerCutTests`.
final class VMPowerCutInside: XCTestCase {
    let cravey = productPath("cravey")
    let disk = "/dev/shm/disk"
    var results: String { ProcessInfo.processInfo.environment["CRAVEY_VM_RESULTS"] ?? "/dev/shm/rig" }
    var machineA: String { disk + "/machine-a" }
    var machineB: String { disk + "/machine-b" }
    var folder: String { disk + "/shared" }

    override func setUpWithError() throws {
        try XCTSkipUnless(
            ProcessInfo.processInfo.environment["CRAVEY_IN_VM"] == "1",
            "runs inside the VM rig (Tests/vm/rig.sh), through VMPowerCutTests")
    }

    /// The machine's disk, mounted (its journal replayed after a cut).
    func mountDisk() throws {
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        let mounted = try runProcess("/usr/bin/mount", ["-t", "ext4", "-o", "data=ordered", "/dev/vda", disk])
        XCTAssertEqual(mounted.status, 0, mounted.stderr)
    }

    @discardableResult
    func run(
        _ library: String, _ arguments: [String], status: Int32? = 0, environment: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try runProcess(
            cravey, arguments + ["--library", library],
            environment: ["CRAVEY_TRANSCRIBE": "later", "NO_COLOR": "1", "TZ": "UTC"].merging(environment) { $1 })
        if let status {
            XCTAssertEqual(
                result.status, status, "\(arguments): \(result.stdout) \(result.stderr)", file: file, line: line)
        }
        return result
    }

    /// Writes `text` to the results share, outside the machine, fsynced: it outlives the cut.
    func keep(_ text: String, in name: String) throws {
        let fd = open(results + "/" + name, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        let data = Array(text.utf8)
        XCTAssertEqual(write(fd, data, data.count), data.count)
        XCTAssertEqual(fsync(fd), 0)
    }

    func testLoggingUntilThePowerIsCut() throws {
        try mountDisk()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try run(machineA, ["sync", "--folder", folder])
        for n in 1...5 {
            let words = "said before the cut, \(n)"
            let logged = try run(machineA, ["craving", "\(n + 2)", "--notes", words])
            if logged.stdout.contains("logged") { try keep(words + "\n", in: "said") }
        }
        // The steps of a craving, then one stopped where its change is written but not yet fsynced.
        let traced = try run(machineA, ["craving", "2", "--notes", "traced"], environment: ["CRAVEY_FAULT_TRACE": "1"])
        if traced.stdout.contains("logged") { try keep("traced\n", in: "said") }
        let steps = traced.stderr.split(separator: "\n").filter { $0.hasPrefix("fault-site ") }
        let written = try XCTUnwrap(steps.firstIndex(of: "fault-site sync.fsync"), "\(steps)")
        let stopped = try run(
            machineA, ["craving", "9", "--notes", "stopped while its change was written"], status: -9,
            environment: ["CRAVEY_FAULT_KILL_AT": "\(written + 1)", "CRAVEY_FAULT_TRACE": "1"])
        XCTAssertFalse(stopped.stdout.contains("logged"), "never said")
        XCTAssertTrue(
            stopped.stderr.hasSuffix("fault-site sync.fsync\n"), "stopped before its fsync: \(stopped.stderr)")
        // The power, cut: nothing more is synced; the machine is gone at once.
        try keep("cut\n", in: "cut")
        let trigger = open("/proc/sysrq-trigger", O_WRONLY)
        XCTAssertGreaterThanOrEqual(trigger, 0)
        _ = write(trigger, "b", 1)
        sleep(10)
        XCTFail("the power was not cut")
    }

    /// Each change line's notes (the torn end left out) in a change file's bytes or outbox lines.
    func notes(_ lines: [Substring]) -> [String] {
        lines.compactMap { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return (object?["row"] as? [String: Any])?["notes"] as? String
        }
    }

    func testAfterThePowerCutNothingSaidIsLost() throws {
        try mountDisk()
        let said = try String(contentsOfFile: results + "/said", encoding: .utf8).split(separator: "\n").map(
            String.init)
        let logged = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(run(machineA, ["log", "--json"]).stdout.utf8))
                as? [[String: Any]])
        let kept = Set(logged.compactMap { $0["notes"] as? String })
        for words in said { XCTAssertTrue(kept.contains(words), "'\(words)' was said, and is in the library") }

        // Each said log is in the change file, or waits in the library to be written.
        let device =
            try XCTUnwrap(
                try JSONSerialization.jsonObject(
                    with: Data(run(machineA, ["sync", "--status", "--json"], status: nil).stdout.utf8))
                    as? [String: Any])[
                "device"] as? String
        let changeFile = folder + "/cravey/devices/" + (device ?? "") + "/changes.jsonl"
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: changeFile))) ?? Data()
        let torn = !bytes.isEmpty && bytes.last != 0x0A
        let whole = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast()
        let waiting = try runProcess(
            "/usr/bin/sqlite3", [machineA + "/library.sqlite", "SELECT line FROM syncOutbox ORDER BY counter"]
        ).stdout.split(separator: "\n")
        let written = Set(notes(Array(whole)) + notes(waiting))
        for words in said { XCTAssertTrue(written.contains(words), "'\(words)' is written or waits: \(written)") }
        print(
            "power cut: \(said.count) logs said, all kept; the change file \(whole.count) whole lines"
                + (torn ? " and a torn last line" : "") + ", \(waiting.count) waiting to be written")

        // The other machine reads the folder as the cut left it: whole lines only, a torn one named.
        let other = try run(machineB, ["sync", "--folder", folder, "--json"], status: torn ? 1 : 0)
        if torn { XCTAssertTrue(other.stdout.contains("cut short"), other.stdout) }
        // This machine's next sync writes the rest; then the other gets everything.
        try run(machineA, ["sync"])
        let after = try String(contentsOfFile: changeFile, encoding: .utf8)
        XCTAssertTrue(after.hasSuffix("\n"))
        let counters = after.split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["counter"] as? Int ?? 0
        }
        XCTAssertEqual(counters, Array(1...max(1, counters.count)), "each change once, in order")
        try run(machineB, ["sync"])
        XCTAssertEqual(try run(machineA, ["log", "--json"]).stdout, try run(machineB, ["log", "--json"]).stdout)
        try run(machineA, ["check"])
    }

    /// A sync folder on a FAT stick (the kernel's own vfat): names lowercase without `:`, no modes
    /// kept (said by `sync --folder` and `sync --status`, not by `sync`), no link possible, case
    /// folded; two machines come to one history through it.
    func testAFolderOnAFATStickWorks() throws {
        let scratch = NSTemporaryDirectory() + "fat-\(UUID().uuidString.prefix(8))"
        let image = scratch + "/stick.img", stick = scratch + "/stick"
        let a = scratch + "/a", b = scratch + "/b"
        try FileManager.default.createDirectory(atPath: stick, withIntermediateDirectories: true)
        XCTAssertEqual(try runProcess("/usr/bin/truncate", ["-s", "32M", image]).status, 0)
        XCTAssertEqual(try runProcess("/usr/sbin/mkfs.vfat", [image]).status, 0)
        let mounted = try runProcess("/usr/bin/mount", ["-t", "vfat", "-o", "loop", image, stick])
        XCTAssertEqual(mounted.status, 0, mounted.stderr)
        defer { _ = try? runProcess("/usr/bin/umount", [stick]) }
        try run(a, ["craving", "6", "--notes", "on A"])
        let words = "keeps no file modes (FAT or exFAT"
        let chosen = try run(a, ["sync", "--folder", stick]).stdout
        XCTAssertEqual(chosen.components(separatedBy: words).count, 2, chosen)
        XCTAssertEqual(try run(a, ["sync", "--status"]).stdout.components(separatedBy: words).count, 2)
        XCTAssertFalse(try run(a, ["sync"]).stdout.contains(words))
        for name in try FileManager.default.subpathsOfDirectory(atPath: stick + "/cravey") {
            XCTAssertEqual(name, name.lowercased())
            XCTAssertFalse(name.contains(":"), name)
        }
        XCTAssertNotEqual(symlink("/etc/passwd", stick + "/cravey/devices/planted"), 0, "no link on FAT")
        XCTAssertEqual(rename(stick + "/cravey", stick + "/Cravey"), 0, "renamed as a file manager would")
        try run(b, ["craving", "3", "--notes", "on B"])
        try run(b, ["sync", "--folder", stick])
        try run(a, ["sync"])
        let logs = try run(a, ["log", "--json"]).stdout
        XCTAssertEqual(logs, try run(b, ["log", "--json"]).stdout)
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(logs.utf8)) as? [Any])?.count, 2, logs)
    }
}

extension VMPowerCutTests: KeepsTheRealHome {}
extension VMPowerCutInside: KeepsTheRealHome {}
