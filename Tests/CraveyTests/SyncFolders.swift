import CraveyTestSupport
import Foundation
import XCTest

/// Several machines (libraries) and the folders that carry their changes, for the sync tests
/// that need more than two: each machine's device folder is copied from one folder to another as
/// a stick or a sync tool would carry it.
class SyncFoldersTestCase: CommandTestCase {
    func library(_ name: String) -> String { base + "/" + name }

    func folder(_ name: String) throws -> String {
        let path = base + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// `cravey ARGUMENTS --library LIBRARY`, its status checked (nil: not checked).
    @discardableResult
    func cravey(
        _ library: String, _ arguments: [String], status: Int32? = 0, file: StaticString = #filePath, line: UInt = #line
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try runProcess(
            cravey, arguments + ["--library", library],
            environment: ["CRAVEY_TRANSCRIBE": "later", "NO_COLOR": "1", "TZ": "Europe/Berlin"])
        if let status {
            XCTAssertEqual(
                result.status, status, "\(arguments): \(result.stdout)\(result.stderr)", file: file, line: line)
        }
        return result
    }

    /// `cravey sync … --json`, parsed.
    @discardableResult
    func synced(
        _ library: String, _ arguments: [String] = [], status: Int32? = 0, file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> [String: Any] {
        try jsonObject(
            try cravey(library, ["sync", "--json"] + arguments, status: status, file: file, line: line).stdout)
    }

    /// The logs as `log --json` prints them.
    func logText(_ library: String) throws -> String { try cravey(library, ["log", "--json"]).stdout }

    func deviceDirectory(_ folder: String, _ library: String) throws -> String {
        folder + "/cravey/devices/" + (try synced(library, ["--status"], status: nil)["device"] as! String)
    }

    /// One machine's device folder copied from `from` to `to`, in place of what `to` had of it.
    func carry(_ library: String, from: String, to: String) throws {
        let source = try deviceDirectory(from, library)
        let target = to + "/cravey/devices/" + (source as NSString).lastPathComponent
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.createDirectory(atPath: to + "/cravey/devices", withIntermediateDirectories: true)
        XCTAssertEqual(try runProcess("/bin/cp", ["-a", source, target]).status, 0)
    }

    /// Machine A with one craving, sharing a folder made here; machine B not yet joined.
    func machineWithACraving() throws -> (a: String, b: String, shared: String) {
        let a = library("a"), b = library("b"), shared = try folder("shared")
        try cravey(a, ["craving", "4"])
        try synced(a, ["--folder", shared])
        return (a, b, shared)
    }

    func names(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }
}
