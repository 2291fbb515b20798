import CraveyTestSupport
import Foundation
import XCTest

/// Two machines' libraries in one test (`machineA`, `machineB`), each run through the built
/// `cravey` on one clock: what the tests of the folder's transports, its file systems and a power
/// cut share. One history is `log --json`, `progress --json` and `list --json` the same on both.
class TwoMachinesCase: CommandTestCase {
    var machineA: String { base + "/a" }
    var machineB: String { base + "/b" }
    /// The clock of every run unless one says otherwise (nil: the real one).
    var now: String? = "2026-11-27T12:00:00"

    /// `cravey` with `arguments` on `machine`'s library; its status held to `status` unless nil.
    @discardableResult
    func on(
        _ machine: String, _ arguments: [String], status: Int32? = 0, at time: String? = nil,
        environment extra: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let environment = [
            "ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_TRANSCRIBE": "later", "NO_COLOR": "1", "TZ": "Europe/Berlin",
        ].merging((time ?? now).map { ["CRAVEY_NOW": $0] } ?? [:]) { $1 }.merging(extra) { $1 }
        let result = try runProcess(cravey, arguments + ["--library", machine], environment: environment)
        if let status {
            XCTAssertEqual(
                result.status, status, "\(arguments) on \(machine): \(result.stdout) \(result.stderr)", file: file,
                line: line)
        }
        return result
    }

    /// `cravey sync … --json` on `machine`, parsed.
    @discardableResult
    func synced(
        _ machine: String, _ arguments: [String] = [], status: Int32? = 0, at time: String? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> [String: Any] {
        let result = try on(
            machine, ["sync"] + arguments + ["--json"], status: status, at: time, file: file, line: line)
        return try jsonObject(result.stdout)
    }

    /// The logs of `machine` as `log --json` gives them.
    func logged(_ machine: String) throws -> [[String: Any]] {
        try XCTUnwrap(try json(try on(machine, ["log", "--json"]).stdout) as? [[String: Any]])
    }

    /// Each log's notes on `machine`, sorted.
    func notes(_ machine: String) throws -> [String] {
        try logged(machine).compactMap { $0["notes"] as? String }.sorted()
    }

    /// `machine`'s device folder in `folder`.
    func deviceFolder(_ machine: String, in folder: String) throws -> String {
        let device = try XCTUnwrap(try synced(machine, ["--status"], status: nil)["device"] as? String)
        return folder + "/cravey/devices/" + device
    }

    /// Both machines hold one history: the logs, the progress and the list of messages the same.
    func assertOneHistory(_ why: String = "", file: StaticString = #filePath, line: UInt = #line) throws {
        for arguments in [["log", "--json"], ["progress", "--json"], ["list", "--json"]] {
            let a = try on(machineA, arguments, file: file, line: line).stdout
            let b = try on(machineB, arguments, file: file, line: line).stdout
            XCTAssertEqual(a, b, "\(arguments.joined(separator: " ")) differs \(why)", file: file, line: line)
        }
    }

    /// Runs a tool the test drives (never cravey), which must succeed; its output.
    @discardableResult
    func tool(
        _ program: String, _ arguments: [String], environment: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> String {
        let result = try runProcess(program, arguments, environment: environment)
        XCTAssertEqual(
            result.status, 0, "\(program) \(arguments): \(result.stdout) \(result.stderr)", file: file, line: line)
        return result.stdout
    }
}
