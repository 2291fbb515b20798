import CraveyLibrary
import CraveyTestSupport
import Foundation
import XCTest

/// Nothing outside its own: a backup folder is untrusted input, and a link planted in a library
/// never leads cravey out of it (see `FaultCampaign`). Each case checks that a sentinel tree beside
/// the backup and the library are byte for byte as they were.
final class HostileBackupTests: FaultCampaign {
    // MARK: - A tampered backup

    func testATamperedBackupNeverMakesCraveyReadWriteOrDeleteOutsideIt() throws {
        try requireRoot()
        let baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        XCTAssertEqual(try run(["craving", "7", "--trigger", "tired"], root).status, 0)
        let pristine = base + "/share/pristine"
        try FileManager.default.createDirectory(atPath: base + "/share", withIntermediateDirectories: true)
        XCTAssertEqual(try run(["backup", pristine], root).status, 0)
        let whole = try holdings(root)
        let original = try manifest(pristine)
        let files = original["files"] as! [[String: Any]]
        let audio = files.first { ($0["libraryPath"] as! String).hasSuffix(".m4a") }!
        let database = original["database"] as! [String: Any]

        // The sentinel tree beside the backup: a person's own files, among them a playable
        // recording and a cravey database that a hostile manifest could name.
        let home = base + "/home"
        try FileManager.default.createDirectory(atPath: home + "/deep", withIntermediateDirectories: true)
        try Data("my thesis".utf8).write(to: URL(fileURLWithPath: home + "/thesis.txt"))
        try FileManager.default.copyItem(
            atPath: pristine + "/" + (audio["path"] as! String), toPath: home + "/outside.m4a")
        try FileManager.default.copyItem(
            atPath: pristine + "/" + (database["path"] as! String), toPath: home + "/outside.sqlite")
        try FileManager.default.copyItem(atPath: "/etc/passwd", toPath: home + "/deep/passwd")
        let thesis =
            [
                "path": "../../home/thesis.txt",
                "libraryPath": "Recordings/audio_00000000-0000-0000-0000-000000000001.m4a",
                "size": size(home + "/thesis.txt"), "sha256": try sha256(home + "/thesis.txt"),
            ] as [String: Any]
        func outside(_ path: String, as entry: [String: Any]) throws -> [String: Any] {
            var changed = entry
            changed["path"] = path
            changed["size"] = size(home + "/outside.m4a")
            changed["sha256"] = try sha256(home + "/outside.m4a")
            return changed
        }
        func withFiles(_ change: ([[String: Any]]) throws -> [[String: Any]]) rethrows -> [String: Any] {
            var changed = original
            changed["files"] = try change(files)
            return changed
        }
        let audioIndex = files.firstIndex { ($0["path"] as! String) == (audio["path"] as! String) }!

        // Each way a manifest or the folder can lie; each applied to a fresh copy of the backup.
        var mutations: [(String, (String) throws -> Void)] = [
            ("an entry stepping out to a person's file", { try self.write(withFiles { $0 + [thesis] }, to: $0) }),
            (
                "a recording replaced by a file outside (right size and hash)",
                { dir in
                    try self.write(
                        try withFiles {
                            var f = $0; f[audioIndex] = try outside("../../home/outside.m4a", as: audio); return f
                        }, to: dir)
                }
            ),
            (
                "an absolute path outside",
                { dir in
                    try self.write(
                        try withFiles {
                            var f = $0; f[audioIndex] = try outside(home + "/outside.m4a", as: audio); return f
                        }, to: dir)
                }
            ),
            (
                "the database outside",
                { dir in
                    var changed = original
                    var db = database
                    db["path"] = "../../home/outside.sqlite"
                    changed["database"] = db
                    try self.write(changed, to: dir)
                }
            ),
            (
                "a path through '.' and ''",
                { dir in
                    try self.write(
                        withFiles {
                            var f = $0;
                            f[audioIndex]["path"] =
                                "Recordings/./" + ((audio["path"] as! String) as NSString).lastPathComponent;
                            return f
                        }, to: dir)
                }
            ),
            (
                "a library path out of Recordings",
                { dir in
                    try self.write(
                        withFiles {
                            var f = $0; f[audioIndex]["libraryPath"] = "../library.sqlite"; return f
                        }, to: dir)
                }
            ),
            (
                "a symbolic link for the recordings' directory",
                { dir in
                    try FileManager.default.moveItem(
                        atPath: dir + "/Recordings", toPath: home + "/moved-\((dir as NSString).lastPathComponent)")
                    try FileManager.default.createSymbolicLink(
                        atPath: dir + "/Recordings",
                        withDestinationPath: home + "/moved-\((dir as NSString).lastPathComponent)")
                }
            ),
            (
                "a symbolic link for the database's directory",
                { dir in
                    try FileManager.default.moveItem(
                        atPath: dir + "/Database", toPath: home + "/db-\((dir as NSString).lastPathComponent)")
                    try FileManager.default.createSymbolicLink(
                        atPath: dir + "/Database",
                        withDestinationPath: home + "/db-\((dir as NSString).lastPathComponent)")
                }
            ),
            (
                "a recording's file a link to one outside",
                { dir in
                    let victim = dir + "/" + (audio["path"] as! String)
                    try FileManager.default.removeItem(atPath: victim)
                    try FileManager.default.createSymbolicLink(
                        atPath: victim, withDestinationPath: home + "/outside.m4a")
                }
            ),
            (
                "the manifest a link to one outside",
                { dir in
                    try FileManager.default.copyItem(
                        atPath: dir + "/cravey-backup.json",
                        toPath: home + "/manifest-\((dir as NSString).lastPathComponent).json")
                    try FileManager.default.removeItem(atPath: dir + "/cravey-backup.json")
                    try FileManager.default.createSymbolicLink(
                        atPath: dir + "/cravey-backup.json",
                        withDestinationPath: home + "/manifest-\((dir as NSString).lastPathComponent).json")
                }
            ),
            (
                "a FIFO in place of a recording",
                { dir in
                    let victim = dir + "/" + (audio["path"] as! String)
                    try FileManager.default.removeItem(atPath: victim)
                    XCTAssertEqual(mkfifo(victim, 0o600), 0)
                }
            ),
            (
                "a wrong size",
                { dir in
                    try self.write(
                        withFiles {
                            var f = $0; f[audioIndex]["size"] = 12; return f
                        }, to: dir)
                }
            ),
            (
                "a wrong hash",
                { dir in
                    try self.write(
                        withFiles {
                            var f = $0; f[audioIndex]["sha256"] = String(repeating: "0", count: 64); return f
                        }, to: dir)
                }
            ),
            ("a duplicated recording", { dir in try self.write(withFiles { $0 + [$0[audioIndex]] }, to: dir) }),
            (
                "a second entry for the same recording",
                { dir in
                    try self.write(
                        withFiles {
                            var copy = $0[audioIndex]; copy["path"] = "Recordings/other.m4a"; return $0 + [copy]
                        }, to: dir)
                }
            ),
            (
                "huge counts",
                { dir in
                    var changed = original; changed["recordings"] = 1_000_000_000_000_000_000;
                    changed["logs"] = 1_000_000_000_000_000; try self.write(changed, to: dir)
                }
            ),
            (
                "negative counts",
                { dir in
                    var changed = original; changed["recordings"] = -5; changed["logs"] = -5;
                    try self.write(changed, to: dir)
                }
            ),
            (
                "an unknown format",
                { dir in
                    var changed = original; changed["format"] = 99; try self.write(changed, to: dir)
                }
            ),
            (
                "a cut-short manifest",
                { dir in
                    let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/cravey-backup.json"))
                    try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: dir + "/cravey-backup.json"))
                }
            ),
            (
                "a manifest that is not JSON",
                { dir in
                    try Data("\u{1B}]0;pwned\u{07}".utf8).write(to: URL(fileURLWithPath: dir + "/cravey-backup.json"))
                }
            ),
        ]
        mutations.append(("no mutation (the control case)", { _ in }))

        let sentinel = try tree(home)
        for (index, (what, mutate)) in mutations.enumerated() {
            let backup = base + "/share/bk-\(index)"
            XCTAssertEqual(try runProcess("/bin/cp", ["-a", pristine, backup]).status, 0)
            try mutate(backup)
            let homeNow = try tree(home)  // the mutation may have moved part of the backup into it
            Self.faults += 1
            // Counts are only claims: a backup whose files are whole restores, counted as it is.
            let control = what.hasPrefix("no mutation") || what == "huge counts"
            // --verify reads only inside the folder, and calls nothing outside whole.
            let verified = try run(["backup", "--verify", backup], root)
            if control {
                XCTAssertEqual(verified.status, 0, verified.stderr)
            } else {
                XCTAssertNotEqual(verified.status, 0, "\(what): --verify passed it: \(verified.stdout)")
            }
            // restore: refused in one line with the target library left empty, or whole.
            let target = base + "/restored-\(index)"
            let restored = try run(["restore", backup], target)
            let now = try holdings(target)
            if restored.status == 0 {
                XCTAssertEqual(now, whole, "\(what): a restore that succeeded restored everything")
                XCTAssertTrue(control, "\(what): restored: \(restored.stdout)")
            } else {
                XCTAssertEqual(restored.stderr.split(separator: "\n").count, 1, "\(what): \(restored.stderr)")
                XCTAssertFalse(restored.stderr.contains("\u{1B}"), "\(what): \(restored.stderr)")
                XCTAssertEqual(
                    try run(["list", "--json"], target).stdout.trimmingCharacters(in: .whitespacesAndNewlines), "[]",
                    what)
                XCTAssertEqual(try run(["log", "--json"], target).stdout.contains("\"id\""), false, what)
            }
            // backup over it: never deletes, reads or writes outside the folder.
            let backedUp = try run(["backup", backup], root)
            if !backedUp.stderr.isEmpty {
                XCTAssertEqual(backedUp.stderr.split(separator: "\n").count, 1, "\(what): \(backedUp.stderr)")
            }
            XCTAssertEqual(try tree(home), homeNow, "\(what): the files beside the backup were touched")
            // The library: every recording there with its media, every file planted in it as it was.
            try assertIntact(baseline, what)
            Self.cases += 3
        }
        XCTAssertEqual(
            try tree(home).filter {
                !$0.key.contains("moved-") && !$0.key.contains("db-") && !$0.key.contains("manifest-")
            }, sentinel)
        XCTAssertEqual(try runProcess("/bin/cat", [home + "/thesis.txt"]).stdout, "my thesis")
        XCTAssertEqual(try holdings(root), whole)
    }

    func testABackupRemovesOnlyWhatStillHashesAsItsManifestSays() throws {
        let baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        let backup = base + "/bk"
        XCTAssertEqual(try run(["backup", backup], root).status, 0)
        // The last backup's copy of a recording replaced by a person's file of the same size: a
        // later backup (the recording deleted meanwhile) leaves that file alone.
        let files = try manifest(backup)["files"] as! [[String: Any]]
        let audio = files.first { ($0["libraryPath"] as! String).hasSuffix(".m4a") }!
        let copy = backup + "/" + (audio["path"] as! String)
        let mine = Data(repeating: 0x41, count: size(copy))
        try mine.write(to: URL(fileURLWithPath: copy))
        let id = String(((audio["libraryPath"] as! String) as NSString).lastPathComponent.dropFirst(6).prefix(36))
        XCTAssertEqual(try run(["delete", id, "--yes"], root).status, 0)
        let again = try run(["backup", backup, "--json"], root)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("\"removed\":1"), "only the last backup's database: \(again.stdout)")
        XCTAssertEqual(
            FileManager.default.contents(atPath: copy), mine,
            "a file that no longer hashes as the manifest says is not removed")
        // And a copy whose content changed is not counted as 'already there': copied again.
        let video = files.first { ($0["libraryPath"] as! String).hasSuffix(".mov") }!
        try Data(repeating: 0x42, count: size(backup + "/" + (video["path"] as! String))).write(
            to: URL(fileURLWithPath: backup + "/" + (video["path"] as! String)))
        let third = try run(["backup", backup, "--json"], root)
        XCTAssertTrue(third.stdout.contains("\"copied\":1") || third.stdout.contains("\"copied\" : 1"), third.stdout)
        XCTAssertEqual(try run(["backup", "--verify", backup], root).status, 0)
    }

    /// A backup never goes into the library or around it, whatever name reaches it: the library
    /// itself, a folder inside it, the folder holding it, a link to it, and (as root) a bind mount
    /// of it, which no path comparison can see.
    func testABackupNeverGoesInsideTheLibraryOrAroundItByAnyName() throws {
        let root = try makeLibrary(at: base + "/lib").root
        XCTAssertEqual(symlink(root, base + "/alias"), 0)
        var names = [root, root + "/Recordings", base, base + "/alias", base + "/alias/Snapshots"]
        if getuid() == 0 {
            let mount = base + "/bound"
            try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: false)
            if try runProcess("/usr/bin/mount", ["--bind", root, mount]).status == 0 {
                addTeardownBlock { _ = try? runProcess("/usr/bin/umount", [mount]) }
                names.append(mount)
            }
        }
        // SQLite's shared-memory index changes whenever the library is opened: all else stays.
        func files() throws -> [String: String] { try tree(root).filter { !$0.key.hasSuffix("-shm") } }
        let before = try files()
        for name in names {
            let result = try run(["backup", name], root)
            XCTAssertEqual(result.status, 1, name)
            XCTAssertTrue(result.stderr.contains("is inside the library (or holds it)"), "\(name): \(result.stderr)")
        }
        XCTAssertEqual(try files(), before, "nothing written in the library")
        XCTAssertEqual(try run(["backup", base + "/elsewhere"], root).status, 0)
    }

    func testTwoFilesWithTheSameContentStayTwoEntriesBackupAfterBackup() throws {
        let baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        // The same clip imported again: its thumbnail has the same bytes as the first one's.
        let clip = base + "/same.mp4"
        XCTAssertEqual(
            try runProcess(
                "/usr/bin/ffmpeg",
                [
                    "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x90:rate=10:d=1",
                    "-f", "lavfi", "-i", "sine=d=1", "-c:v", "libx264", "-c:a", "aac", "-shortest", clip,
                ]
            ).status, 0)
        for title in ["Once", "Twice"] { XCTAssertEqual(try run(["import", clip, "--title", title], root).status, 0) }
        let thumbs = try listed(root).compactMap { $0["thumbnailPath"] as? String }.map {
            try Data(contentsOf: URL(fileURLWithPath: root + "/" + $0))
        }
        XCTAssertGreaterThan(thumbs.count - Set(thumbs).count, 0, "two thumbnails with the same bytes")
        let backup = base + "/bk"
        for round in 1...3 {
            let backedUp = try run(["backup", backup], root)
            XCTAssertEqual(backedUp.status, 0, "round \(round): \(backedUp.stderr)")
            let verified = try run(["backup", "--verify", backup], root)
            XCTAssertEqual(verified.status, 0, "round \(round): \(verified.stdout) \(verified.stderr)")
        }
        let restored = try run(["restore", backup], base + "/restored")
        XCTAssertEqual(restored.status, 0, restored.stderr)
        XCTAssertEqual(try holdings(base + "/restored"), try holdings(root))
    }

    func testRestoreCountsWhatItRestoredAndHoldsRowsToTheRulesOfTypedInput() throws {
        let root = base + "/lib"
        XCTAssertEqual(try run(["craving", "6"], root).status, 0)
        XCTAssertEqual(try run(["use", "vape", "3"], root).status, 0)
        let backup = base + "/bk"
        XCTAssertEqual(try run(["backup", backup], root).status, 0)
        var changed = try manifest(backup)
        changed["recordings"] = 1_000_000_000_000_000_000
        changed["logs"] = 7
        try write(changed, to: backup)
        let restored = try run(["restore", backup, "--json"], base + "/one")
        XCTAssertEqual(restored.status, 0, restored.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(restored.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["recordings"] as? Int, 0, "what was restored, not what the manifest says")
        XCTAssertEqual(json["logs"] as? Int, 2)

        // A backup database holding a value cravey would refuse when typed: refused whole.
        let database = backup + "/" + ((try manifest(backup)["database"] as! [String: Any])["path"] as! String)
        XCTAssertEqual(
            try runProcess(
                "/usr/bin/sqlite3",
                [database, "PRAGMA ignore_check_constraints = 1; UPDATE craving SET intensity = 99"]
            ).status, 0)
        try rehash(database, in: backup)
        let refused = try run(["restore", backup], base + "/two")
        assertOneLineError(refused, containing: "the backup's database", "a log out of range")
        XCTAssertTrue(
            refused.stderr.contains("intensity") && refused.stderr.contains("nothing was restored"), refused.stderr)
        XCTAssertEqual(try run(["log", "--json"], base + "/two").stdout.contains("\"id\""), false)

        // A backup database that is not SQLite: said of the backup, not of the person's library.
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: database))
        try rehash(database, in: backup)
        let foreign = try run(["restore", backup], base + "/three")
        assertOneLineError(foreign, containing: "the backup's database", "a database that is not SQLite")
        XCTAssertFalse(
            foreign.stderr.contains("library database:") || foreign.stderr.contains("corrupt("), foreign.stderr)
    }

    /// Settings, check-in days and transcripts of a backup's database are held to what cravey
    /// writes, as its recordings and logs are: each tampered row is refused whole, in one line.
    func testRestoreHoldsSettingsDaysAndTranscriptsToWhatCraveyWrites() throws {
        let root = base + "/lib"
        XCTAssertEqual(try run(["settings", "name", "Sam"], root).status, 0)
        let backup = base + "/bk"
        XCTAssertEqual(try run(["backup", backup], root).status, 0)
        let database = backup + "/" + ((try manifest(backup)["database"] as! [String: Any])["path"] as! String)
        let pristine = try Data(contentsOf: URL(fileURLWithPath: database))
        let tampered = [
            ("UPDATE setting SET value = 'Sam' || char(27) || '[2J' WHERE key = 'name'", "the name setting"),
            ("INSERT INTO setting (key, value) VALUES ('theme', 'x')", "setting 'theme'"),
            ("INSERT INTO setting (key, value) VALUES ('goal', 'quit; rm -rf')", "the goal setting"),
            ("INSERT INTO checkinDay (day, prompt) VALUES ('2026-13-40', 'How are you?')", "is not a date"),
            ("INSERT INTO setting (key, value) VALUES ('prices', '{\"bowls\":-5}')", "the prices setting"),
            ("INSERT INTO setting (key, value) VALUES ('prices', '{\"pipe\":500}')", "the prices setting"),
            ("INSERT INTO setting (key, value) VALUES ('currency', 'e' || char(27))", "the currency setting"),
        ]
        for (index, (sql, said)) in tampered.enumerated() {
            try pristine.write(to: URL(fileURLWithPath: database))
            XCTAssertEqual(try runProcess("/usr/bin/sqlite3", [database, sql]).status, 0, sql)
            try rehash(database, in: backup)
            let target = base + "/into\(index)"
            let refused = try run(["restore", backup], target)
            assertOneLineError(refused, containing: "the backup's database", sql)
            XCTAssertTrue(
                refused.stderr.contains(said) && refused.stderr.contains("nothing was restored"), refused.stderr)
            XCTAssertEqual(try run(["settings"], target).stdout.contains("Sam"), false, "nothing restored: \(sql)")
        }
    }

    // MARK: - Links planted in a library, and its privacy

    func testALinkInPlaceOfAnyOfCraveysOwnNamesIsRefused() throws {
        let root = base + "/lib"
        XCTAssertEqual(try run(["craving", "5"], root).status, 0)
        let elsewhere = base + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: elsewhere + "/theirs.txt"))
        let before = try tree(elsewhere)
        for name in [
            "Snapshots", ".backup", "Quarantine", ".purging", "transcripts.lock", ".reserve", "library.sqlite-wal",
            "library.sqlite-journal", ".rebuilding",
        ] {
            Self.faults += 1
            let link = root + "/" + name
            if FileManager.default.fileExists(atPath: link) {
                try FileManager.default.moveItem(atPath: link, toPath: base + "/aside-" + name)
            }
            let directories: Set = ["Snapshots", ".backup", "Quarantine", ".purging"]
            try FileManager.default.createSymbolicLink(
                atPath: link, withDestinationPath: directories.contains(name) ? elsewhere : elsewhere + "/theirs.txt")
            let result = try run(["craving", "4"], root)
            assertOneLineError(result, containing: "is a symbolic link", name)
            XCTAssertTrue(result.stderr.contains(name), result.stderr)
            let check = try run(["check"], root)
            XCTAssertNotEqual(check.status, 0, "check reports \(name)")
            XCTAssertTrue(check.stderr.contains("symbolic link"), check.stderr)
            XCTAssertEqual(try tree(elsewhere), before, "\(name): nothing written through the link")
            try FileManager.default.removeItem(atPath: link)
            if FileManager.default.fileExists(atPath: base + "/aside-" + name) {
                try FileManager.default.moveItem(atPath: base + "/aside-" + name, toPath: link)
            }
            Self.cases += 1
        }
        XCTAssertEqual(try run(["craving", "4"], root).status, 0)
    }

    func testOpeningMakesTheLibraryPrivateAgain() throws {
        let root = base + "/lib"
        XCTAssertEqual(try run(["craving", "5"], root).status, 0)
        chmod(root, 0o755)
        chmod(root + "/library.sqlite", 0o644)
        for suffix in ["-wal", "-shm"] { unlink(root + "/library.sqlite" + suffix) }
        let logged = try run(["craving", "6"], root)
        XCTAssertEqual(logged.status, 0, logged.stderr)
        func mode(_ path: String) -> Int {
            (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
        }
        XCTAssertEqual(mode(root), 0o700)
        for name in ["library.sqlite", "library.sqlite-wal", "library.sqlite-shm"] {
            XCTAssertEqual(mode(root + "/" + name), 0o600, name)
        }
    }

    func testAStrayDatabaseAmongAPersonsFilesDoesNotMakeItALibrary() throws {
        let dir = base + "/papers"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: dir + "/notes.txt"))
        _ = FileManager.default.createFile(atPath: dir + "/library.sqlite", contents: Data())
        let before = try tree(dir)
        assertOneLineError(
            try run(["craving", "5"], dir), containing: "is not a cravey library",
            "an empty library.sqlite among other files")
        XCTAssertEqual(try tree(dir), before, "nothing was made among the person's files")
    }

    func testALostDatabaseIsRebuiltWhereTheTranscriptWorkerHasRun() throws {
        let baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        _ = FileManager.default.createFile(
            atPath: root + "/transcripts.lock", contents: Data(), attributes: [.posixPermissions: 0o600])
        for suffix in ["", "-wal", "-shm"] { unlink(root + "/library.sqlite" + suffix) }
        Self.faults += 1
        try assertIntact(baseline, "a lost database in a library with the transcript worker's lock")
    }

    func testCheckNoticesARecordingFileThatIsNotMedia() throws {
        let baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        let audio = try listed(root).first { $0["kind"] as? String == "audio" }!
        let path = root + "/" + (audio["filePath"] as! String)
        try Data("root:x:0:0:root:/root:/bin/bash\n".utf8).write(to: URL(fileURLWithPath: path))
        let checked = try run(["check"], root)
        XCTAssertNotEqual(checked.status, 0)
        XCTAssertTrue(
            checked.stdout.contains("not media cravey can play") && checked.stdout.contains(audio["id"] as! String),
            checked.stdout)
        let repaired = try run(["check", "--repair"], root)
        XCTAssertEqual(repaired.status, 0, repaired.stdout + repaired.stderr)
        XCTAssertTrue(
            FileManager.default.fileExists(
                atPath: root + "/Quarantine/" + ((audio["filePath"] as! String) as NSString).lastPathComponent),
            "kept aside, never deleted")
        XCTAssertEqual(try run(["check"], root).status, 0)
    }
}
