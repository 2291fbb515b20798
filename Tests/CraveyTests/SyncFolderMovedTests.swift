import CraveyTestSupport
import Foundation
import XCTest

/// The shared folder found at another place (a USB stick mounted elsewhere, a folder moved whole):
/// chosen again there, it is the same folder, and nothing done while it was away is undone. Any
/// other folder, while one is chosen, is refused and changes nothing.
final class SyncFolderMovedTests: CommandTestCase {
    @discardableResult
    func run(_ arguments: [String], library: String? = nil, status: Int32 = 0, line: UInt = #line) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let result = try runProcess(
            cravey, arguments + ["--library", library ?? root], environment: ["CRAVEY_TRANSCRIBE": "later"])
        XCTAssertEqual(result.status, status, "\(arguments): \(result.stdout) \(result.stderr)", line: line)
        return result
    }

    func logs(_ library: String? = nil) throws -> [[String: Any]] {
        try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(run(["log", "--json"], library: library).stdout.utf8))
                as? [[String: Any]])
    }

    func testAStickMountedElsewhereKeepsWhatWasDoneWhileItWasAway() throws {
        let stick = base + "/stick", elsewhere = base + "/stick1"
        try FileManager.default.createDirectory(atPath: stick, withIntermediateDirectories: true)
        try run(["use", "vape", "3", "--notes", "first"])
        try run(["craving", "5", "--notes", "to be deleted"])
        try run(["sync", "--folder", stick])
        let before = try logs()
        let use = try XCTUnwrap(before.first { $0["kind"] as? String == "use" }?["id"] as? String)
        let craving = try XCTUnwrap(before.first { $0["kind"] as? String == "craving" }?["id"] as? String)

        // Unplugged; it comes back at another mount point. Meanwhile an edit and a delete.
        XCTAssertEqual(rename(stick, elsewhere), 0)
        try run(["log", "edit", use, "--notes", "edited while unplugged"])
        try run(["log", "delete", craving, "--yes"])
        try run(["sync", "--folder", elsewhere])
        let after = try logs()
        XCTAssertEqual(after.count, 1, "the deleted craving stays deleted: \(after)")
        XCTAssertEqual(after.first?["notes"] as? String, "edited while unplugged", "the edit stays")
        XCTAssertTrue(try run(["sync", "--status"]).stdout.contains(elsewhere), "the folder's new place is kept")

        // What was done meanwhile reached the folder at its new place: another machine sees it.
        let other = base + "/other"
        try run(["sync", "--folder", elsewhere], library: other)
        XCTAssertEqual(try logs(other).map { $0["notes"] as? String }, ["edited while unplugged"])

        // Another folder while one is chosen: refused in one line, nothing changed.
        let another = base + "/another"
        try FileManager.default.createDirectory(atPath: another, withIntermediateDirectories: true)
        let refused = try run(["sync", "--folder", another], status: 1)
        XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("does not hold it"), refused.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: another), [], "nothing written there")
        XCTAssertTrue(try run(["sync", "--status"]).stdout.contains(elsewhere))
        XCTAssertEqual(try logs().first?["notes"] as? String, "edited while unplugged")
    }
}
