import CraveyTestSupport
import Foundation
import XCTest

/// The daily backup's command with the stick not plugged in and its mount point left behind,
/// empty, on the internal disk: a real stick's worth (an ext4 image, loop-mounted as root) taken
/// away under it. The
/// run tells the empty mount point from the stick, makes nothing there, says one line for the
/// journal and ends well; with the stick back, the next run backs up as before.
final class BackupMountPointTests: CommandTestCase {
    var mountPoint: String { base + "/media/stick" }

    override func tearDownWithError() throws {
        _ = try? runProcess("/usr/bin/umount", [mountPoint])
        try super.tearDownWithError()
    }

    /// Plugs the stick in (its image, made once).
    func mount() throws {
        let image = base + "/stick.img"
        if !FileManager.default.fileExists(atPath: image) {
            XCTAssertEqual(try runProcess("/usr/bin/truncate", ["-s", "16M", image]).status, 0)
            let made = try runProcess("/usr/sbin/mkfs.ext4", ["-q", "-F", image])
            XCTAssertEqual(made.status, 0, made.stderr)
        }
        let mounted = try runProcess("/usr/bin/mount", ["-o", "loop", image, mountPoint])
        XCTAssertEqual(mounted.status, 0, mounted.stderr)
    }

    func scheduled(_ now: String) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProcess(
            cravey, ["backup", "--scheduled", "--library", root, "--", mountPoint], environment: clocked(now))
    }

    func testAnEmptyMountPointIsNotTakenForTheStick() throws {
        guard geteuid() == 0 else { throw XCTSkip("mounting the stick needs root (as CI runs)") }
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        try mount()
        try runClocked(["craving", "5"], now: "2026-11-20T09:00:00")
        try runClocked(["backup", mountPoint], now: "2026-11-20T12:00:00")
        XCTAssertEqual(try scheduled("2026-11-21T12:30:00").status, 0)

        XCTAssertEqual(try runProcess("/usr/bin/umount", [mountPoint]).status, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: mountPoint), [], "the mount point, empty")
        XCTAssertTrue(FileManager.default.fileExists(atPath: base + "/stick.img"))
        let skipped = try scheduled("2026-11-22T12:30:00")
        XCTAssertEqual(skipped.status, 0, "skipped quietly: \(skipped.stderr)")
        XCTAssertEqual(skipped.stdout, "")
        XCTAssertEqual(skipped.stderr.split(separator: "\n").count, 1, skipped.stderr)
        XCTAssertTrue(skipped.stderr.contains("holds no backup (a disk not plugged in"), skipped.stderr)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: mountPoint), [], "nothing written on the disk under it")
        let status = try jsonObject(
            try runClocked(["backup", "--every", "status", "--json"], now: "2026-11-22T13:00:00").stdout)
        XCTAssertEqual((status["newest"] as? [String: Any])?["at"] as? String, "2026-11-21T12:30:00.000Z")

        try mount()
        let back = try scheduled("2026-11-24T12:30:00")
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertTrue(back.stdout.contains("Backed up"), back.stdout)
        XCTAssertEqual(try runClocked(["backup", "--verify", mountPoint], now: "2026-11-24T13:00:00").status, 0)
    }
}
