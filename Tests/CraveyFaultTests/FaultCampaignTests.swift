import CraveyLibrary
import CraveyTestSupport
import Foundation
import XCTest

/// The campaign's faults of the machine: a full disk, a read-only disk, other users, planted links,
/// a lost, damaged or locked database (see `FaultCampaign`).
final class FaultCampaignTests: FaultCampaign {
    // MARK: - A full disk

    func testFullDisk() throws {
        try requireRoot()
        let disk = try smallDisk("12m")
        let baseline = try makeLibrary(at: disk + "/lib")
        let root = baseline.root
        let first = baseline.saved.keys.sorted()[0]
        try fill(disk)
        // Reading needs no space.
        for command in [
            ["list"], ["top"], ["show", first], ["export", "--format", "json", "--output", "-"], ["check"],
        ] {
            let result = try run(command, root)
            XCTAssertEqual(result.status, 0, "\(command) on a full disk: \(result.stderr)")
        }
        // Playing plays; a play count that cannot be written is said, not fatal.
        let played = try run(
            ["play", first, "--speaker", "cravey_capture"], root,
            environment: ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_OUTFILE": base + "/speaker.raw"])
        XCTAssertEqual(played.status, 0, played.stderr)
        XCTAssertGreaterThan(
            (try? Data(contentsOf: URL(fileURLWithPath: base + "/speaker.raw")))?.count ?? 0, 48_000, "it was heard")
        // Writing fails with one line and changes nothing.
        let video = base + "/more.wav"
        _ = try runProcess("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=d=3", video])
        assertOneLineError(try run(["import", video], root), containing: "space", "import on a full disk")
        assertOneLineError(try record(root), containing: "space", "record on a full disk")
        assertOneLineError(
            try run(["export", "--format", "csv", "--output", disk + "/out.csv"], root), containing: "space",
            "export to a full disk")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: disk).filter { $0.hasPrefix("out.csv") }, [],
            "no temporary export left")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root + "/.incoming"), ["draft.txt"])
        try assertIntact(baseline, "full disk", checkConsistent: false)
        // Deleting is how one frees space: it works on a full disk.
        var after = baseline
        let deleted = try run(["delete", first, "--yes"], root)
        XCTAssertEqual(deleted.status, 0, deleted.stderr)
        after.saved[first] = nil
        XCTAssertNil(try listed(root).first { $0["id"] as? String == first })
        try assertIntact(after, "delete on a full disk", checkConsistent: false)
        unfill(disk)
        try assertIntact(after, "after the disk was freed")
    }

    func testDiskFillsWhileRecordingAndAtTheNextStart() throws {
        try requireRoot()
        let disk = try smallDisk("12m")
        var baseline = try makeLibrary(at: disk + "/lib")
        let root = baseline.root
        // Leave about 200 KB: a 60 s recording (≈ 700 KB) runs out of space part-way.
        try fill(disk)
        XCTAssertEqual(try runProcess("/usr/bin/truncate", ["-s", "-200K", disk + "/filler"]).status, 0)
        let result = try record(root, seconds: "60", title: "Full")
        XCTAssertNotEqual(result.status, 0, "the disk filled up: \(result.stdout)")
        let failure = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertTrue(
            failure.hasPrefix("cravey: Not recorded: the disk is full") && failure.contains("is kept")
                && !failure.contains(".incoming"),
            "the error says the disk is full first, and that the take is kept: \(result.stderr)")
        try assertIntact(baseline, "recording onto a full disk", checkConsistent: false)
        // The next start, still full: whatever was captured is kept for later, never removed.
        let parts = try FileManager.default.contentsOfDirectory(atPath: root + "/.incoming").filter {
            $0.hasPrefix("rec_")
        }
        XCTAssertEqual(parts.count, 1, "what was captured before the disk filled is kept: \(result.stderr)")
        let listedWhileFull = try run(["list"], root)
        XCTAssertEqual(listedWhileFull.status, 0, listedWhileFull.stderr)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: root + "/.incoming").filter { $0.hasPrefix("rec_") },
            parts,
            "a take is never removed because the disk was full")
        unfill(disk)
        let rows = try listed(root)
        if !parts.isEmpty {
            let recovered = rows.filter { ($0["title"] as? String ?? "").hasPrefix("Recovered recording") }
            XCTAssertEqual(
                recovered.count, 1, "the take captured before the disk filled is recovered once there is space")
            if let take = recovered.first {
                baseline.saved[take["id"] as! String] = try Data(
                    contentsOf: URL(fileURLWithPath: root + "/" + (take["filePath"] as! String)))
            }
        }
        try assertIntact(baseline, "after the disk was freed")
    }

    // MARK: - A read-only disk

    func testReadOnlyDisk() throws {
        try requireRoot()
        let disk = try smallDisk("16m")
        let baseline = try makeLibrary(at: disk + "/lib")
        let root = baseline.root
        let first = baseline.saved.keys.sorted()[0]
        Self.faults += 1
        XCTAssertEqual(try runProcess("/bin/mount", ["-o", "remount,ro", disk]).status, 0)
        for command in [["list"], ["top"], ["show", first], ["export", "--format", "csv", "--output", "-"]] {
            let result = try run(command, root)
            XCTAssertEqual(result.status, 0, "\(command) on a read-only disk: \(result.stderr)")
        }
        let played = try run(
            ["play", first, "--speaker", "cravey_capture"], root,
            environment: ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_OUTFILE": base + "/speaker.raw"])
        XCTAssertEqual(played.status, 0, played.stderr)
        XCTAssertTrue(played.stderr.contains("not counted"), played.stderr)
        for (command, what) in [
            (["delete", first, "--yes"], "delete"), (["edit", first, "--title", "New"], "edit"),
            (["purge", "--yes"], "purge"), (["check", "--repair"], "repair"),
        ] {
            assertOneLineError(try run(command, root), containing: "read-only", "\(what) on a read-only disk")
        }
        assertOneLineError(try record(root), containing: "read-only", "record on a read-only disk")
        try assertIntact(baseline, "read-only disk", checkConsistent: false)
        XCTAssertEqual(try runProcess("/bin/mount", ["-o", "remount,rw", disk]).status, 0)
        try assertIntact(baseline, "after remounting read-write")
    }

    // MARK: - Another user, open permissions, planted links

    func testAnotherUserAndOpenPermissions() throws {
        try requireRoot()
        let baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        // Another user cannot read a private library, and is told so in one line.
        Self.faults += 1
        chmod(base, 0o755)
        let asNobody = try runProcess(
            "/usr/bin/setpriv",
            [
                "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--",
                cravey, "list", "--library", root,
            ], environment: ["HOME": "/tmp"])
        assertOneLineError(asNobody, containing: "another user", "another user")
        // A library directory that belongs to another user, or that anyone can write, is refused.
        Self.faults += 1
        let theirs = base + "/theirs"
        try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: true)
        XCTAssertEqual(chown(theirs, 65534, 65534), 0)
        assertOneLineError(try run(["list"], theirs), containing: "belongs to another user", "someone else's directory")
        Self.faults += 1
        chmod(root, 0o777)
        assertOneLineError(try run(["list"], root), containing: "can be written by others", "a library open to all")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: theirs), [], "nothing was created in it")
        chmod(root, 0o700)
        try assertIntact(baseline, "other users")
        // A user's own library whose database is read-only (0400): reading works, changes are refused.
        Self.faults += 1
        let own = base + "/nobody-lib"
        try FileManager.default.createDirectory(
            atPath: own, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        XCTAssertEqual(chown(own, 65534, 65534), 0)
        func nobodyRuns(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
            try runProcess(
                "/usr/bin/setpriv",
                ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--", cravey]
                    + arguments + ["--library", own], environment: ["HOME": "/tmp"])
        }
        let video = base + "/n.wav"
        _ = try runProcess("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=d=1", video])
        chmod(video, 0o644)
        let imported = try nobodyRuns(["import", video, "--json"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let id =
            (try JSONSerialization.jsonObject(with: Data(imported.stdout.utf8)) as? [String: Any])?["id"] as? String
            ?? ""
        chmod(own + "/library.sqlite", 0o400)
        let read = try nobodyRuns(["list", "--json"])
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertTrue(read.stdout.contains(id), read.stdout)
        assertOneLineError(
            try nobodyRuns(["delete", id, "--yes"]), containing: "read-only", "delete with a 0400 database")
        XCTAssertTrue(try nobodyRuns(["list", "--json"]).stdout.contains(id), "nothing was changed")
        Self.cases += 1
    }

    func testPlantedLinks() throws {
        var baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        let outside = base + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try plant(outside + "/secret.txt", "not cravey's", into: &baseline)
        let rows = try listed(root)
        let audio = rows.first { $0["kind"] as? String == "audio" }!
        let video = rows.first { $0["kind"] as? String == "video" }!
        // A link in place of library.lock, a directory, or the database: refused, target untouched.
        for (link, target) in [
            ("library.lock", outside + "/secret.txt"), ("Recordings/Thumbnails", outside),
            ("library.sqlite", outside + "/secret.txt"),
        ] {
            Self.faults += 1
            let path = root + "/" + link
            let moved = base + "/moved-aside"
            XCTAssertEqual(rename(path, moved), 0)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
            for command in [["delete", audio["id"] as! String, "--yes"], ["check", "--repair"], ["purge", "--yes"]] {
                let result = try run(command, root)
                XCTAssertNotEqual(result.status, 0, "\(link) → \(command): \(result.stdout)")
                XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            }
            XCTAssertEqual(unlink(path), 0)
            XCTAssertEqual(rename(moved, path), 0)
            try assertIntact(baseline, "a link at \(link)")
        }
        // A recording's file replaced by a link to a file outside: never played, chmod'ed or deleted.
        Self.faults += 1
        let media = root + "/" + (audio["filePath"] as! String)
        let kept = base + "/kept.m4a"
        XCTAssertEqual(rename(media, kept), 0)
        try FileManager.default.createSymbolicLink(atPath: media, withDestinationPath: outside + "/secret.txt")
        assertOneLineError(
            try run(["play", audio["id"] as! String], root), containing: "refusing", "playing a linked file")
        _ = try run(["check", "--repair"], root)
        _ = try run(["delete", video["id"] as! String, "--yes"], root)
        baseline.saved[video["id"] as! String] = nil
        baseline.saved[audio["id"] as! String] = nil
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: outside + "/secret.txt")), Data("not cravey's".utf8))
        unlink(media)
        XCTAssertEqual(rename(kept, media), 0)
        _ = try run(["check", "--repair"], root)  // the file is back: listed again
        XCTAssertEqual(try listed(root).count, 1)
        try assertIntact(baseline, "a linked media file")
    }

    // MARK: - The database: lost, damaged, locked

    func testLostAndDamagedDatabaseIsRebuiltFromTheFiles() throws {
        let baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        for damage in ["lost", "damaged"] {
            Self.faults += 1
            for suffix in ["", "-wal", "-shm"] { unlink(root + "/library.sqlite" + suffix) }
            if damage == "damaged" {
                try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: root + "/library.sqlite"))
            }
            let result = try run(["list", "--json"], root)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(
                result.stderr.contains("rebuilt it from the snapshot of")
                    && result.stderr.contains("and the recordings' files"), result.stderr)
            let rows = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [[String: Any]]
            XCTAssertEqual(
                Set(rows.map { $0["id"] as! String }), Set(baseline.saved.keys),
                "\(damage): every recording is listed again")
            XCTAssertEqual(
                Set(rows.map { $0["title"] as! String }), ["Why I started", "Day 30"],
                "\(damage): with their own titles")
            let video = rows.first { $0["kind"] as? String == "video" }
            XCTAssertNotNil(video?["thumbnailPath"] as? String, "the thumbnail is found again")
            XCTAssertEqual(video?["duration"] as? Double ?? 0, 1.0, accuracy: 0.1)
            try assertIntact(baseline, "a \(damage) database")
        }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.hasPrefix("library.sqlite.damaged-") }
                .count, 1,
            "the damaged database is kept, not deleted")
        // A rebuild killed at each of its steps is taken up again by the next command.
        var step = 1
        while step < 20 {
            Self.faults += 1
            for suffix in ["", "-wal", "-shm"] { unlink(root + "/library.sqlite" + suffix) }
            let killed = try run(["list"], root, environment: ["CRAVEY_FAULT_KILL_AT": String(step)])
            try assertIntact(baseline, "a rebuild killed at step \(step)")
            if killed.status != -SIGKILL { break }
            step += 1
        }
        XCTAssertGreaterThan(step, 1, "the rebuild was killed at least once")
    }

    func testAHeldLockIsWaitedForThenReported() throws {
        let baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        let first = baseline.saved.keys.sorted()[0]
        Self.faults += 1
        let holder = try holdLock(
            "import fcntl, os, sys, time\nf = os.open(sys.argv[1], os.O_RDWR)\nfcntl.flock(f, fcntl.LOCK_EX)\ntime.sleep(30)",
            root + "/library.lock")
        defer { holder.terminate(); holder.waitUntilExit() }
        Thread.sleep(forTimeInterval: 0.3)
        let started = Date()
        let listedWhileHeld = try run(["list"], root)
        XCTAssertEqual(listedWhileHeld.status, 0, listedWhileHeld.stderr)
        // Readers never wait for the lock: a wait would last the 10 s a change waits, however busy
        // the machine.
        XCTAssertLessThan(Date().timeIntervalSince(started), 9, "readers never wait for the lock")
        let wait = ["CRAVEY_LOCK_WAIT": "2"]
        for (command, what) in [(["delete", first, "--yes"], "delete")] {
            let result = try run(command, root, environment: wait)
            XCTAssertNotEqual(result.status, 0)
            XCTAssertTrue(result.stderr.contains("waiting for another cravey"), result.stderr)
            XCTAssertTrue(result.stderr.contains("the library is busy"), "\(what): \(result.stderr)")
        }
        let recorded = try record(root, environment: wait)
        XCTAssertNotEqual(recorded.status, 0)
        XCTAssertTrue(recorded.stderr.contains("the library is busy"), recorded.stderr)
        XCTAssertFalse(
            recorded.stderr.contains("recording audio from"), "it never started capturing: \(recorded.stderr)")
        holder.terminate()
        holder.waitUntilExit()
        // A write transaction held open in the database itself: readers do not wait for it either.
        Self.faults += 1
        let writer = try holdLock(
            """
            import sqlite3, sys, time
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            db.execute("BEGIN IMMEDIATE")
            db.execute("UPDATE recording SET playCount = playCount")
            time.sleep(20)
            """, root + "/library.sqlite")
        defer { writer.terminate(); writer.waitUntilExit() }
        Thread.sleep(forTimeInterval: 0.5)
        let readStarted = Date()
        for command in [["list"], ["top"], ["show", first]] {
            let result = try run(command, root)
            XCTAssertEqual(result.status, 0, "\(command) while the database is write-locked: \(result.stderr)")
        }
        // A wait for the writer would last the database's busy wait (10 s).
        XCTAssertLessThan(Date().timeIntervalSince(readStarted), 9, "reading never waits for a writer")
        writer.terminate()
        writer.waitUntilExit()
        try assertIntact(baseline, "a held lock")
    }
}
