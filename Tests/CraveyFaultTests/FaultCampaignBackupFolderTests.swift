import CraveyTestSupport
import Foundation
import XCTest

/// The fault campaign's backup folder: one folder that a second library backs up into, and two
/// backups of one library into one folder at once (see `FaultCampaign`).
final class FaultCampaignBackupFolderTests: FaultCampaign {
    /// The files a backup's manifest names, each with its SHA-256 as it is now in the folder.
    func backedUp(_ backup: String) throws -> [String: String] {
        let listed = try manifest(backup)
        var result: [String: String] = [:]
        for entry in [listed["database"] as! [String: Any]] + (listed["files"] as! [[String: Any]]) {
            let path = entry["path"] as! String
            result[path] = try sha256(backup + "/" + path)
            XCTAssertEqual(result[path], entry["sha256"] as? String, path)
        }
        return result
    }

    func testASecondLibraryIntoOneFolderLeavesTheFirstLibrarysBackupWhole() throws {
        let first = try makeLibrary(at: base + "/A")
        XCTAssertEqual(try run(["craving", "5", "--notes", "first library"], first.root).status, 0)
        let backup = base + "/usb"
        let made = try run(["backup", backup], first.root)
        XCTAssertEqual(made.status, 0, made.stderr)
        let firstBackup = try backedUp(backup)
        let folder = try tree(backup)
        let second = base + "/B"
        XCTAssertEqual(try run(["craving", "8", "--notes", "second library"], second).status, 0)
        Self.faults += 1
        let refused = try run(["backup", backup], second)
        assertOneLineError(refused, containing: "holds the backup of another library", "a second library's backup")
        XCTAssertTrue(refused.stderr.contains("--replace"), refused.stderr)
        XCTAssertEqual(try backedUp(backup), firstBackup, "every file of the first library's backup is there")
        XCTAssertEqual(try tree(backup), folder, "nothing in the folder changed")
        XCTAssertEqual(try run(["backup", "--verify", backup], first.root).status, 0)
        // Restored, the folder brings back the first library.
        let restored = base + "/restored"
        XCTAssertEqual(try run(["restore", backup], restored).status, 0)
        XCTAssertEqual(try holdings(restored), try holdings(first.root))
        // The first library keeps backing up there; the second only when told to replace it.
        XCTAssertEqual(try run(["backup", backup], first.root).status, 0)
        let replaced = try run(["backup", backup, "--replace", "--json"], second)
        XCTAssertEqual(replaced.status, 0, replaced.stderr)
        XCTAssertTrue(replaced.stdout.contains("\"removed\":4"), "the first library's files: \(replaced.stdout)")
        let again = base + "/again"
        XCTAssertEqual(try run(["restore", backup], again).status, 0)
        XCTAssertEqual(try holdings(again), try holdings(second))
        try assertIntact(first, "a second library backed up into the first one's folder")
    }

    /// Three backups of one library into one folder at once, and a fourth into another folder:
    /// each folder ends with one whole backup, and no copy is left anywhere.
    func testTwoBackupsAtOnceMakeOneWholeBackupAndNoOrphan() throws {
        let baseline = try makeLibrary(at: base + "/lib")
        let backup = base + "/usb", other = base + "/second-usb"
        for round in 1...4 {
            Self.faults += 1
            XCTAssertEqual(try run(["craving", String(round), "--notes", "round \(round)"], baseline.root).status, 0)
            let gathered = Gathered()
            let (cravey, root) = (cravey, baseline.root)
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                let folder = index == 3 ? other : backup
                let result =
                    (try? runProcess(cravey, ["backup", folder, "--library", root])) ?? (-1, "", "not started")
                gathered.lock.withLock { gathered.results.append(result) }
            }
            let results = gathered.results
            for result in results where result.status != 0 {
                assertOneLineError(
                    result, containing: "another backup is being written to", "round \(round): a concurrent backup")
            }
            XCTAssertTrue(results.contains { $0.status == 0 }, "round \(round): \(results)")
            for folder in [backup, other] {
                let verified = try run(["backup", "--verify", folder], baseline.root)
                XCTAssertEqual(verified.status, 0, "round \(round): \(verified.stdout) \(verified.stderr)")
                let database = (try manifest(folder)["database"] as! [String: Any])["path"] as! String
                XCTAssertEqual(databaseCopies(folder), [(database as NSString).lastPathComponent], "round \(round)")
                XCTAssertEqual(try partials(folder), [], "round \(round)")
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/.backup"), "round \(round): no work left")
        }
        let restored = base + "/restored"
        XCTAssertEqual(try run(["restore", backup], restored).status, 0)
        XCTAssertEqual(try holdings(restored), try holdings(baseline.root))
        try assertIntact(baseline, "backups into one folder at once")
    }
}

/// What processes started together said, gathered from their threads.
private final class Gathered: @unchecked Sendable {
    let lock = NSLock()
    var results: [(status: Int32, stdout: String, stderr: String)] = []
}
