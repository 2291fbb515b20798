import CraveyTestSupport
import Foundation
import XCTest

/// A backup folder holds one library's backup, told apart by the library's id; a restored library
/// is its library again; what a backup cut short leaves goes with the next; a full folder and a
/// backup from a newer cravey are said in words.
final class BackupIdentityTests: FaultCampaign {
    func logs(_ root: String) throws -> String {
        let result = try run(["log", "--json"], root)
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout
    }

    func testARestoredLibraryBacksUpToTheSameFolderAgain() throws {
        let old = base + "/old-laptop"
        XCTAssertEqual(try run(["craving", "6", "--notes", "before the move"], old).status, 0)
        let stick = base + "/stick"
        XCTAssertEqual(try run(["backup", stick], old).status, 0)
        let id = try XCTUnwrap(try manifest(stick)["libraryId"] as? String)
        let new = base + "/new-laptop"
        // A backup tried first on the new laptop (no library there yet) is refused, makes nothing,
        // and restore still finds it empty.
        assertOneLineError(try run(["backup", stick], new), containing: "no cravey library", "the new laptop, empty")
        XCTAssertFalse(FileManager.default.fileExists(atPath: new))
        let restored = try run(["restore", stick], new)
        XCTAssertEqual(restored.status, 0, restored.stderr)
        XCTAssertEqual(try run(["craving", "4", "--notes", "after the move"], new).status, 0)
        let again = try run(["backup", stick], new)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try manifest(stick)["libraryId"] as? String, id, "the same library")
        let third = base + "/third"
        XCTAssertEqual(try run(["restore", stick], third).status, 0)
        XCTAssertEqual(try logs(third), try logs(new))
        XCTAssertTrue(try logs(third).contains("after the move"))
    }

    /// A manifest written before libraries had ids is this library's when it shares a log (or a
    /// recording) with it; any other library is refused.
    func testAnOldManifestIsTakenUpOnlyByItsOwnLibrary() throws {
        let mine = base + "/mine"
        XCTAssertEqual(try run(["craving", "6", "--notes", "mine"], mine).status, 0)
        let stick = base + "/stick"
        XCTAssertEqual(try run(["backup", stick], mine).status, 0)
        var old = try manifest(stick)
        old["libraryId"] = nil
        try write(old, to: stick)
        let before = try tree(stick)
        let other = base + "/other"
        XCTAssertEqual(try run(["craving", "3", "--notes", "not mine"], other).status, 0)
        let refused = try run(["backup", stick], other)
        assertOneLineError(refused, containing: "none of its recordings or logs are this library's", "another library")
        XCTAssertEqual(try tree(stick), before, "nothing in the folder changed")
        let taken = try run(["backup", stick], mine)
        XCTAssertEqual(taken.status, 0, taken.stderr)
        XCTAssertNotNil(try manifest(stick)["libraryId"] as? String, "the manifest names its library now")
        assertOneLineError(try run(["backup", stick], other), containing: "another library", "another library again")
    }

    func testABackupFromANewerCraveyIsRefusedInWords() throws {
        let root = base + "/lib"
        XCTAssertEqual(try run(["craving", "6"], root).status, 0)
        let stick = base + "/stick"
        XCTAssertEqual(try run(["backup", stick], root).status, 0)
        // What a newer cravey's backup holds: a migration this one has not got, and its column.
        let database = stick + "/" + ((try manifest(stick)["database"] as! [String: Any])["path"] as! String)
        let changed = try runProcess(
            "/usr/bin/sqlite3",
            [
                database,
                "ALTER TABLE craving ADD COLUMN mood TEXT; INSERT INTO grdb_migrations VALUES ('v12: from a newer cravey')",
            ])
        XCTAssertEqual(changed.status, 0, changed.stderr)
        try rehash(database, in: stick)
        let target = base + "/restored"
        let refused = try run(["restore", stick], target)
        assertOneLineError(
            refused, containing: "was made by a newer cravey; update cravey to restore it", "a newer backup")
        XCTAssertFalse(refused.stderr.contains("SQLite"), refused.stderr)
        XCTAssertEqual(try holdings(target), "[] [] []")
    }

    func testAFullFolderLeavesNothingNewBehind() throws {
        try requireRoot()
        let baseline = try makeLibrary(at: base + "/lib")
        let disk = try smallDisk("3M")
        let backup = disk + "/cravey"
        XCTAssertEqual(try run(["backup", backup], baseline.root).status, 0)
        XCTAssertEqual(try run(["craving", "7"], baseline.root).status, 0)
        try fill(disk)
        let before = try tree(backup)
        let full = try run(["backup", backup], baseline.root)
        assertOneLineError(full, containing: "there is not enough room in", "a full folder")
        XCTAssertTrue(full.stderr.contains("the last backup is whole"), full.stderr)
        XCTAssertEqual(try tree(backup), before, "nothing new left in the folder")
        XCTAssertEqual(try run(["backup", "--verify", backup], baseline.root).status, 0)
        unfill(disk)
        XCTAssertEqual(try run(["backup", backup], baseline.root).status, 0)
        XCTAssertEqual(databaseCopies(backup).count, 1)
        try assertIntact(baseline, "a full backup folder")
    }

    /// Killed at every step, a backup leaves at most what the next one removes: afterwards the
    /// folder holds one database copy, no temporary copy, and only the files its manifest names
    /// besides the person's own.
    func testWhatAKilledBackupLeftIsRemovedByTheNext() throws {
        var baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        var step = 1
        while step < 60 {
            Self.faults += 1
            let backup = base + "/usb-\(step)"
            try FileManager.default.createDirectory(atPath: backup + "/Database", withIntermediateDirectories: true)
            try plant(backup + "/Database/my-notes.txt", "mine", into: &baseline)
            let killed = try run(["backup", backup], root, environment: ["CRAVEY_FAULT_KILL_AT": String(step)])
            // A log meanwhile: the next backup's database is another copy, not the one left.
            XCTAssertEqual(try run(["craving", "3"], root).status, 0)
            XCTAssertEqual(try run(["backup", backup], root).status, 0, "after a kill at step \(step)")
            let listed = try manifest(backup)
            let named = Set(
                ([listed["database"] as! [String: Any]] + (listed["files"] as! [[String: Any]])).map {
                    $0["path"] as! String
                })
            let there = Set(
                try tree(backup).filter { $0.value.hasPrefix("f") }.keys.filter {
                    ![".cravey-backup.lock", "cravey-backup.json", "Database/my-notes.txt"].contains($0)
                })
            XCTAssertEqual(there, named, "killed at step \(step): only the backup's own files")
            if killed.status != -SIGKILL { break }
            step += 1
        }
        XCTAssertGreaterThan(step, 5, "the backup was killed at several steps")
        try assertIntact(baseline, "backups killed at every step")
    }

    /// The folder's lock file is the folder's, so others may have written it: a link, a pipe or a
    /// directory in its place is refused, and what its notes name is removed only when it is a
    /// copy cravey would make, inside the folder, still as noted.
    func testAHostileLockFileNeverMakesCraveyTouchWhatItDidNotWrite() throws {
        var baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        let backup = base + "/usb"
        XCTAssertEqual(try run(["backup", backup], root).status, 0)
        let lock = backup + "/.cravey-backup.lock"
        try plant(base + "/theirs.txt", "theirs", into: &baseline)
        try plant(backup + "/Recordings/audio_0D3B2E4C-9A1F-4B7E-8C2D-5E6F7A8B9C0D.m4a", "mine", into: &baseline)
        try plant(backup + "/Database/library-notes.txt", "mine", into: &baseline)
        let folder = try tree(backup)
        let theirs = base + "/theirs.txt"
        for (what, make) in [
            (
                "a link",
                { try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: theirs) }
            ),
            ("a pipe", { XCTAssertEqual(mkfifo(lock, 0o600), 0) }),
            (
                "a directory",
                { try FileManager.default.createDirectory(atPath: lock, withIntermediateDirectories: false) }
            ),
        ] as [(String, () throws -> Void)] {
            Self.faults += 1
            try FileManager.default.removeItem(atPath: lock)
            try make()
            let refused = try run(["backup", backup], root)
            XCTAssertNotEqual(refused.status, 0, what)
            XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, "\(what): \(refused.stderr)")
            XCTAssertEqual(
                try tree(backup).filter { $0.key != ".cravey-backup.lock" },
                folder.filter { $0.key != ".cravey-backup.lock" }, what)
        }
        try FileManager.default.removeItem(atPath: lock)
        // Notes naming what cravey did not write: outside the folder, a person's files, a name
        // cravey gives but other content.
        let noted = [
            "../theirs.txt", "/etc/hostname", "Database/library-notes.txt",
            "Recordings/audio_0D3B2E4C-9A1F-4B7E-8C2D-5E6F7A8B9C0D.m4a",
        ].map { "\($0)\t4\t\(String(repeating: "0", count: 64))" }
        try Data(
            (noted.joined(separator: "\n") + "\n../theirs.txt\t6\t" + (try sha256(base + "/theirs.txt")) + "\n").utf8
        )
        .write(to: URL(fileURLWithPath: lock))
        Self.faults += 1
        let made = try run(["backup", backup], root)
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertEqual(try run(["backup", "--verify", backup], root).status, 0)
        try assertIntact(baseline, "a hostile lock file")
    }
}
