import CraveyTestSupport
import Foundation
import XCTest

/// A sync folder on an exFAT stick, as most USB sticks come: a real exFAT file system (made by
/// `mkfs.exfat`, on a loop device, mounted through `mount.exfat-fuse` where the kernel has no
/// exFAT of its own; root, as CI runs). cravey's names there are lowercase without `:`, the file
/// system keeps no modes (said once by `sync --folder` and `sync --status`), and two machines
/// that log apart come to one history through it. FAT is tested with the kernel's own vfat in the
/// VM rig (`VMPowerCutTests`).
final class SyncExFATStickTests: TwoMachinesCase {
    var stick: String { base + "/media/stick" }
    var loopDevice: String?

    override func tearDownWithError() throws {
        // Unmounted and let go on every way the test ends.
        _ = try? runProcess("/bin/umount", [stick])
        if let loopDevice { _ = try? runProcess("/sbin/losetup", ["-d", loopDevice]) }
        try super.tearDownWithError()
    }

    func testTwoMachinesComeToOneHistoryThroughAnExFATStick() throws {
        guard geteuid() == 0 else { throw XCTSkip("mounting the stick needs root (as CI runs)") }
        let image = base + "/stick.img"
        try tool("/usr/bin/truncate", ["-s", "64M", image])
        try tool("/sbin/mkfs.exfat", [image])
        try FileManager.default.createDirectory(atPath: stick, withIntermediateDirectories: true)
        let device = try tool("/sbin/losetup", ["-f", "--show", image]).trimmingCharacters(in: .whitespacesAndNewlines)
        loopDevice = device
        // The FUSE daemon outlives the mount command: it gets none of this process's descriptors
        // (an inherited one would be waited on until the daemon ends).
        let closing = "for fd in $(ls /proc/$$/fd); do [ \"$fd\" -gt 2 ] && eval \"exec $fd>&-\"; done"
        try tool(
            "/bin/bash",
            [
                "-c",
                "\(closing); exec mount.exfat-fuse \(shellQuote(device)) \(shellQuote(stick)) </dev/null >/dev/null 2>&1",
            ])
        XCTAssertTrue(try tool("/bin/sh", ["-c", "mount"]).contains(" \(stick) type fuseblk"), "mounted")

        try on(machineA, ["craving", "6", "--notes", "on the desktop"])
        let chosen = try on(machineA, ["sync", "--folder", stick])
        let said = "The folder's file system keeps no file modes"
        XCTAssertEqual(chosen.stdout.components(separatedBy: said).count - 1, 1, "said once: \(chosen.stdout)")
        XCTAssertEqual(try synced(machineA, ["--status"])["modesKept"] as? Bool, false)
        try on(machineB, ["use", "joints", "1", "--notes", "on the laptop"])
        try synced(machineB, ["--folder", stick])
        try on(machineB, ["craving", "3", "--notes", "later on the laptop"])
        try synced(machineA)
        try synced(machineB)
        try assertOneHistory("through the exFAT stick")
        XCTAssertEqual(try notes(machineA), ["later on the laptop", "on the desktop", "on the laptop"])

        // Every name cravey made there is lowercase, without ':' (exFAT folds case and refuses ':').
        let made = try XCTUnwrap(FileManager.default.subpaths(atPath: stick + "/cravey"))
        XCTAssertFalse(made.isEmpty)
        for name in made {
            XCTAssertEqual(name, name.lowercased(), name)
            XCTAssertFalse(name.contains(":"), name)
        }
        try on(machineA, ["check"])
        try on(machineB, ["check"])
    }
}
