import CraveyLibrary
import CraveyTestSupport
import Foundation
import XCTest

@testable import cravey

/// Two machines, each with its own library and its own stick, the sticks' device folders carried
/// from one to the other by copying (as a person carries a USB stick): the machinery of the
/// tests of each rule of syncing, alone.
class SyncMachinesTestCase: CommandTestCase {
    var machineA: String { base + "/a" }
    var machineB: String { base + "/b" }
    var stickA: String { base + "/stick-a" }
    var stickB: String { base + "/stick-b" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        for stick in [stickA, stickB] {
            try FileManager.default.createDirectory(atPath: stick, withIntermediateDirectories: true)
        }
    }

    var environment: [String: String] {
        [
            "ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_TRANSCRIBE": "later", "NO_COLOR": "1", "TZ": "Europe/Berlin",
            "CRAVEY_ALSA_OUTFILE": base + "/heard.raw",
        ]
    }

    /// `cravey …` on one machine's library, on its own clock when `now` is given.
    @discardableResult
    func on(
        _ library: String, _ arguments: [String], now: String? = nil, status: Int32? = 0,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try runProcess(
            cravey, arguments + ["--library", library],
            environment: environment.merging(now.map { ["CRAVEY_NOW": $0] } ?? [:]) { $1 })
        if let status {
            XCTAssertEqual(
                result.status, status, "\(arguments): \(result.stdout) \(result.stderr)", file: file, line: line)
        }
        return result
    }

    /// `cravey sync … --json`, parsed.
    @discardableResult
    func sync(_ library: String, _ arguments: [String] = [], now: String? = nil) throws -> [String: Any] {
        try jsonObject(try on(library, ["sync"] + arguments + ["--json"], now: now).stdout)
    }

    /// A's stick on A and B's on B, each machine's device id there.
    @discardableResult
    func chooseSticks(now: String? = nil) throws -> (a: String, b: String) {
        let a = try XCTUnwrap(try sync(machineA, ["--folder", stickA], now: now)["device"] as? String)
        let b = try XCTUnwrap(try sync(machineB, ["--folder", stickB], now: now)["device"] as? String)
        return (a, b)
    }

    /// Carries every device folder of one stick to the other, but the other machine's own (the
    /// one it writes there).
    func carry(from: String, to: String, except own: String) throws {
        let devices = from + "/cravey/devices"
        try FileManager.default.createDirectory(atPath: to + "/cravey/devices", withIntermediateDirectories: true)
        for device in try FileManager.default.contentsOfDirectory(atPath: devices) where device != own {
            let target = to + "/cravey/devices/" + device
            try? FileManager.default.removeItem(atPath: target)
            try FileManager.default.copyItem(atPath: devices + "/" + device, toPath: target)
        }
    }

    /// Both sticks carried both ways, and both machines synced (twice: each sees the other's last).
    func meet(_ devices: (a: String, b: String), now: String? = nil) throws {
        for _ in 0..<2 {
            try carry(from: stickA, to: stickB, except: devices.b)
            try sync(machineB, now: now)
            try carry(from: stickB, to: stickA, except: devices.a)
            try sync(machineA, now: now)
        }
    }

    func logs(_ library: String) throws -> [[String: Any]] {
        try XCTUnwrap(try json(try on(library, ["log", "--json"]).stdout) as? [[String: Any]])
    }

    /// Imports a tone as a message; returns its id.
    func message(_ title: String, on library: String) throws -> String {
        let wav = base + "/\(UUID().uuidString.prefix(6)).wav"
        try makeToneWAV(wav, seconds: 1)
        return try XCTUnwrap(
            jsonObject(try on(library, ["import", wav, "--title", title, "--json"]).stdout)["id"] as? String)
    }

    /// Plays message `id` on a machine, `times` times, through the tests' ALSA file plugin.
    func play(_ id: String, on library: String, times: Int = 1) throws {
        for _ in 0..<times { try on(library, ["play", id, "--speaker", "cravey_capture"]) }
    }

    /// Each message's id and play count (`list --json`), by id.
    func playCounts(_ library: String) throws -> [String: Int] {
        let list = try XCTUnwrap(try json(try on(library, ["list", "--json"]).stdout) as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: list.map { ($0["id"] as! String, $0["playCount"] as! Int) })
    }

    /// Quick Play's order (`top --json`), as titles.
    func quickPlay(_ library: String) throws -> [String] {
        let top = try XCTUnwrap(try json(try on(library, ["top", "--json"]).stdout) as? [[String: Any]])
        return top.map { $0["title"] as! String }
    }

    /// This machine's change lines as written to its stick.
    func changeLines(_ stick: String, _ device: String) throws -> [[String: Any]] {
        try String(contentsOfFile: stick + "/cravey/devices/" + device + "/changes.jsonl", encoding: .utf8)
            .split(separator: "\n").map { try jsonObject(String($0)) }
    }

    /// The wall clock of Berlin `offset` seconds from now, as `CRAVEY_NOW` takes it.
    func berlinNow(_ offset: TimeInterval = 0) -> String {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "Europe/Berlin")
        format.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return format.string(from: Date().addingTimeInterval(offset))
    }
}

/// Each rule of syncing on its own, through the binary (the later edit per field with a clock an
/// hour wrong, and a delete against an edit, are `SyncTests`'): milestones worked out on each
/// machine from the logs of both, and which settings are shared and which stay on their machine.
final class SyncRulesTests: SyncMachinesTestCase {
    /// Quitting. A logged a use on Nov 10: by Nov 25, 1, 3, 7 and 14 days since it. B logged one
    /// on Nov 14, which A sees only now: 7 days since a use were first reached on Nov 21, 14 not
    /// yet. A's milestones are worked out again from both machines' logs and agree with B's; home
    /// says the one that moved once, with its new day; status says 11 days since use; the one the
    /// logs of both never reach is shown nowhere and named by check.
    func testMilestonesFollowAUseLoggedOnTheOtherMachine() throws {
        let now = "2026-11-25T12:00:00"
        try on(machineA, ["settings", "goal", "quit"], now: now)
        try on(machineA, ["use", "vape", "1", "--at", "2026-11-10 20:00"], now: now)
        let before = try on(machineA, ["progress"], now: now).stdout
        XCTAssertTrue(before.contains("14 days since your last use"), before)
        // Home has shown what was reached so far.
        let moment = try XCTUnwrap(ISO8601DateFormatter().date(from: "2026-11-25T11:00:00Z"))
        var shown = 0
        while Home.newMilestone(try Library(root: machineA), now: moment) != nil, shown < 20 { shown += 1 }
        let devices = try chooseSticks(now: now)
        try meet(devices, now: now)
        try on(machineB, ["use", "vape", "1", "--at", "2026-11-14 20:00"], now: now)
        try meet(devices, now: now)

        func sinceUse(_ library: String) throws -> [String] {
            let progress = try jsonObject(try on(library, ["progress", "--json"], now: now).stdout)
            return try XCTUnwrap(progress["milestones"] as? [[String: Any]]).filter {
                $0["kind"] as? String == "daysSinceUse"
            }.map { "\($0["count"]!) \($0["reachedOn"]!)" }
        }
        XCTAssertEqual(try sinceUse(machineA), ["1 2026-11-11", "3 2026-11-13", "7 2026-11-21"])
        XCTAssertEqual(try sinceUse(machineA), try sinceUse(machineB))
        let status = try on(machineA, ["status"], now: now).stdout
        XCTAssertTrue(status.contains("11 days since use"), status)
        XCTAssertEqual(status, try on(machineB, ["status"], now: now).stdout)
        XCTAssertTrue(try on(machineA, ["progress"], now: now).stdout.contains("7 days since your last use  Nov 21"))

        // Home's note says the moved one once, with its day, then nothing.
        let library = try Library(root: machineA)
        XCTAssertEqual(Home.newMilestone(library, now: moment), "🌿 7 days since your last use — reached Nov 21")
        XCTAssertNil(Home.newMilestone(library, now: moment))
        // 14 days since a use, reached on A alone, the logs of both never reach: shown nowhere,
        // named by check (as a use told late makes one), removed by its repair.
        XCTAssertFalse(try on(machineA, ["progress"], now: now).stdout.contains("14 days since your last use"))
        let check = try on(machineA, ["check"], now: now, status: 1).stdout
        XCTAssertTrue(
            check.contains("'14 days since your last use' on 2026-11-24, with a use logged on 2026-11-14"), check)
        try on(machineA, ["check", "--repair"], now: now)
        try on(machineA, ["check"], now: now)
    }

    /// Shared: goal, name, prices and currency, Quick Play's order, set on either machine. Kept on
    /// each machine: its folder, and everything else (no change line names another setting).
    func testSharedSettingsTravelAndPerMachineOnesStay() throws {
        let devices = try chooseSticks()
        try on(machineA, ["settings", "goal", "cut-down"])
        try on(machineA, ["settings", "name", "Sam"])
        try on(machineA, ["settings", "price", "vape", "0.5"])
        try on(machineA, ["settings", "price", "--currency", "GBP"])
        try on(machineB, ["settings", "quick-play", "helped-most"])
        try on(machineB, ["limit", "--offer", "any-goal"])
        try meet(devices)
        let a = try on(machineA, ["settings", "--json"]).stdout
        XCTAssertEqual(a, try on(machineB, ["settings", "--json"]).stdout)
        for words in ["\"cut-down\"", "\"Sam\"", "\"helped-most\"", "GBP"] {
            XCTAssertTrue(a.contains(words), "\(words) in \(a)")
        }
        XCTAssertEqual(try sync(machineA, ["--status"])["folder"] as? String, stickA)
        XCTAssertEqual(try sync(machineB, ["--status"])["folder"] as? String, stickB)
        let settings = try (changeLines(stickA, devices.a) + changeLines(stickB, devices.b)).filter {
            $0["kind"] as? String == "setting"
        }.map { $0["id"] as! String }
        XCTAssertEqual(Set(settings), ["goal", "name", "prices", "currency", "quickPlay"])
    }
}
