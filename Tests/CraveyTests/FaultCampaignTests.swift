import CraveyLibrary
import CraveyTestSupport
import Foundation
import XCTest

/// The fault campaign: a library with saved recordings and files cravey did not make, then a fault
/// a real laptop sees — a full disk (small tmpfs), a read-only disk, another user, planted links,
/// a lost, damaged or locked database, hostile rows and arguments, kill -9 — and every command a
/// user might run next. Each case asserts that nothing saved was lost, nothing foreign was touched,
/// a failure is one line, and `check` agrees afterwards. Mounts and other users need root (as CI
/// runs); those tests are skipped without it.
final class FaultCampaignTests: XCTestCase {
    var base = ""
    var mounts: [String] = []
    let cravey = productPath("cravey")

    /// The figures of the whole campaign, printed once at the end.
    nonisolated(unsafe) static var faults = 0
    nonisolated(unsafe) static var cases = 0
    nonisolated(unsafe) static var lost = 0
    nonisolated(unsafe) static var touched = 0

    override class func tearDown() {
        print("fault campaign: \(faults) faults injected, \(cases) cases checked, \(lost) recordings lost, \(touched) foreign files touched")
        super.tearDown()
    }

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.path + "/cravey-faults-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        for mount in mounts.reversed() { _ = try? runProcess("/bin/umount", ["-l", mount]) }
        _ = try? runProcess("/bin/chmod", ["-R", "u+w", base])
        try? FileManager.default.removeItem(atPath: base)
    }

    // MARK: - The library under test

    /// What was saved (id → file bytes) and what was planted (path → bytes and mode).
    struct Baseline {
        var root: String
        var saved: [String: Data] = [:]
        var foreign: [String: (data: Data, mode: Int)] = [:]
    }

    func run(_ arguments: [String], _ root: String, environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProcess(cravey, arguments + ["--library", root], environment: environment)
    }

    func record(_ root: String, seconds: String = "2", title: String = "Why I started", extra: [String] = [],
                environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        try run(["record", "audio", "--mic", "cravey_file", "--max-seconds", seconds, "--title", title] + extra, root,
                environment: ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_INFILE": phraseFixture].merging(environment) { $1 })
    }

    func listed(_ root: String) throws -> [[String: Any]] {
        let result = try run(["list", "--json"], root)
        XCTAssertEqual(result.status, 0, result.stderr)
        return (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]) ?? []
    }

    /// A library with two saved recordings (one from the microphone, one imported video with a
    /// thumbnail) and foreign files planted in every directory of it.
    func makeLibrary(at root: String) throws -> Baseline {
        var baseline = Baseline(root: root)
        let recorded = try record(root)
        XCTAssertEqual(recorded.status, 0, recorded.stderr)
        let video = base + "/clip-\(UUID().uuidString.prefix(4)).mp4"
        let made = try runProcess("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x90:rate=10:d=1",
                                                      "-f", "lavfi", "-i", "sine=d=1", "-c:v", "libx264", "-c:a", "aac", "-shortest", video])
        XCTAssertEqual(made.status, 0, made.stderr)
        let imported = try run(["import", video, "--title", "Day 30"], root)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        for row in try listed(root) {
            baseline.saved[row["id"] as! String] = try Data(contentsOf: URL(fileURLWithPath: root + "/" + (row["filePath"] as! String)))
        }
        XCTAssertEqual(baseline.saved.count, 2)
        try FileManager.default.createDirectory(atPath: root + "/.trash/old stuff", withIntermediateDirectories: true)
        for (path, text) in [("Recordings/my-notes.txt", "mine"), ("Recordings/Thumbnails/holiday.jpg", "a picture"),
                             (".trash/old stuff/letter.txt", "a letter"), (".incoming/draft.txt", "a draft")] {
            try plant(root + "/" + path, text, into: &baseline)
        }
        return baseline
    }

    func plant(_ path: String, _ text: String, mode: Int = 0o644, into baseline: inout Baseline) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, mode_t(mode))
        baseline.foreign[path] = (Data(text.utf8), mode)
    }

    /// The campaign's assertion, after every case: every saved recording is listed with its file
    /// unchanged, every foreign file is as it was, and (where the disk can be written) `check`
    /// finds nothing to repair.
    func assertIntact(_ baseline: Baseline, _ what: String, checkConsistent: Bool = true,
                      file: StaticString = #filePath, line: UInt = #line) throws {
        Self.cases += 1
        let rows = try listed(baseline.root)
        let byID = Dictionary(rows.map { ($0["id"] as! String, $0) }, uniquingKeysWith: { a, _ in a })
        for (id, data) in baseline.saved {
            guard let row = byID[id], let path = row["filePath"] as? String,
                  let now = try? Data(contentsOf: URL(fileURLWithPath: baseline.root + "/" + path)), now == data else {
                Self.lost += 1
                XCTFail("\(what): recording \(id) was lost", file: file, line: line)
                continue
            }
        }
        for (path, expected) in baseline.foreign {
            let now = try? Data(contentsOf: URL(fileURLWithPath: path))
            let mode = (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
            if now != expected.data || mode != expected.mode {
                Self.touched += 1
                XCTFail("\(what): \(path) was touched", file: file, line: line)
            }
        }
        if checkConsistent {
            let check = try run(["check", "--json"], baseline.root)
            XCTAssertEqual(check.status, 0, "\(what): \(check.stdout) \(check.stderr)", file: file, line: line)
        }
    }

    /// A failure is one line on stderr, naming the problem.
    func assertOneLineError(_ result: (status: Int32, stdout: String, stderr: String), containing text: String, _ what: String,
                            file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNotEqual(result.status, 0, "\(what) should fail", file: file, line: line)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(what): \(result.stderr)", file: file, line: line)
        XCTAssertTrue(result.stderr.lowercased().contains(text.lowercased()), "\(what): \(result.stderr)", file: file, line: line)
    }

    func requireRoot() throws {
        try XCTSkipUnless(geteuid() == 0, "mounts and other users need root (CI runs as root)")
    }

    /// A small tmpfs of `size` for one test (a full disk on demand).
    func smallDisk(_ size: String) throws -> String {
        let dir = base + "/disk-\(mounts.count)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let mounted = try runProcess("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", dir])
        XCTAssertEqual(mounted.status, 0, mounted.stderr)
        mounts.append(dir)
        return dir
    }

    /// Fills the disk holding `dir` to the last block (the filler lives outside the library).
    func fill(_ dir: String) throws {
        Self.faults += 1
        _ = try runProcess("/bin/dd", ["if=/dev/zero", "of=\(dir)/filler", "bs=64k"])
        _ = try runProcess("/bin/dd", ["if=/dev/zero", "of=\(dir)/filler2", "bs=1k"])
        let free = try runProcess("/usr/bin/stat", ["-f", "-c", "%a", dir]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(free, "0", "the disk is full")
    }

    func unfill(_ dir: String) {
        unlink(dir + "/filler")
        unlink(dir + "/filler2")
    }

    // MARK: - A full disk

    func testFullDisk() throws {
        try requireRoot()
        let disk = try smallDisk("12m")
        let baseline = try makeLibrary(at: disk + "/lib")
        let root = baseline.root
        let first = baseline.saved.keys.sorted()[0]
        try fill(disk)
        // Reading needs no space.
        for command in [["list"], ["top"], ["show", first], ["export", "--format", "json", "--output", "-"], ["check"]] {
            let result = try run(command, root)
            XCTAssertEqual(result.status, 0, "\(command) on a full disk: \(result.stderr)")
        }
        // Playing plays; a play count that cannot be written is said, not fatal.
        let played = try run(["play", first, "--speaker", "cravey_capture"], root,
                             environment: ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_OUTFILE": base + "/speaker.raw"])
        XCTAssertEqual(played.status, 0, played.stderr)
        XCTAssertGreaterThan((try? Data(contentsOf: URL(fileURLWithPath: base + "/speaker.raw")))?.count ?? 0, 48_000, "it was heard")
        // Writing fails with one line and changes nothing.
        let video = base + "/more.wav"
        _ = try runProcess("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=d=3", video])
        assertOneLineError(try run(["import", video], root), containing: "space", "import on a full disk")
        assertOneLineError(try record(root), containing: "space", "record on a full disk")
        assertOneLineError(try run(["export", "--format", "csv", "--output", disk + "/out.csv"], root), containing: "space", "export to a full disk")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: disk).filter { $0.hasPrefix("out.csv") }, [], "no temporary export left")
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
        XCTAssertTrue(failure.contains("No space left on device") && failure.contains("is kept in"), "the error says where the take is: \(result.stderr)")
        try assertIntact(baseline, "recording onto a full disk", checkConsistent: false)
        // The next start, still full: whatever was captured is kept for later, never removed.
        let parts = try FileManager.default.contentsOfDirectory(atPath: root + "/.incoming").filter { $0.hasPrefix("rec_") }
        XCTAssertEqual(parts.count, 1, "what was captured before the disk filled is kept: \(result.stderr)")
        let listedWhileFull = try run(["list"], root)
        XCTAssertEqual(listedWhileFull.status, 0, listedWhileFull.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root + "/.incoming").filter { $0.hasPrefix("rec_") }, parts,
                       "a take is never removed because the disk was full")
        unfill(disk)
        let rows = try listed(root)
        if !parts.isEmpty {
            let recovered = rows.filter { ($0["title"] as? String ?? "").hasPrefix("Recovered recording") }
            XCTAssertEqual(recovered.count, 1, "the take captured before the disk filled is recovered once there is space")
            if let take = recovered.first { baseline.saved[take["id"] as! String] = try Data(contentsOf: URL(fileURLWithPath: root + "/" + (take["filePath"] as! String))) }
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
        let played = try run(["play", first, "--speaker", "cravey_capture"], root,
                             environment: ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_OUTFILE": base + "/speaker.raw"])
        XCTAssertEqual(played.status, 0, played.stderr)
        XCTAssertTrue(played.stderr.contains("not counted"), played.stderr)
        for (command, what) in [(["delete", first, "--yes"], "delete"), (["edit", first, "--title", "New"], "edit"),
                                (["purge", "--yes"], "purge"), (["check", "--repair"], "repair")] {
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
        let asNobody = try runProcess("/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--",
                                                           cravey, "list", "--library", root], environment: ["HOME": "/tmp"])
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
        try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        XCTAssertEqual(chown(own, 65534, 65534), 0)
        func nobodyRuns(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
            try runProcess("/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--", cravey]
                           + arguments + ["--library", own], environment: ["HOME": "/tmp"])
        }
        let video = base + "/n.wav"
        _ = try runProcess("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=d=1", video])
        chmod(video, 0o644)
        let imported = try nobodyRuns(["import", video, "--json"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let id = (try JSONSerialization.jsonObject(with: Data(imported.stdout.utf8)) as? [String: Any])?["id"] as? String ?? ""
        chmod(own + "/library.sqlite", 0o400)
        let read = try nobodyRuns(["list", "--json"])
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertTrue(read.stdout.contains(id), read.stdout)
        assertOneLineError(try nobodyRuns(["delete", id, "--yes"]), containing: "read-only", "delete with a 0400 database")
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
        for (link, target) in [("library.lock", outside + "/secret.txt"), ("Recordings/Thumbnails", outside),
                               ("library.sqlite", outside + "/secret.txt")] {
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
        assertOneLineError(try run(["play", audio["id"] as! String], root), containing: "refusing", "playing a linked file")
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
            if damage == "damaged" { try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: root + "/library.sqlite")) }
            let result = try run(["list", "--json"], root)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stderr.contains("rebuilt it from the recordings' files"), result.stderr)
            let rows = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [[String: Any]]
            XCTAssertEqual(Set(rows.map { $0["id"] as! String }), Set(baseline.saved.keys), "\(damage): every recording is listed again")
            let video = rows.first { $0["kind"] as? String == "video" }
            XCTAssertNotNil(video?["thumbnailPath"] as? String, "the thumbnail is found again")
            XCTAssertEqual(video?["duration"] as? Double ?? 0, 1.0, accuracy: 0.1)
            try assertIntact(baseline, "a \(damage) database")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.hasPrefix("library.sqlite.damaged-") }.count, 1,
                       "the damaged database is kept, not deleted")
    }

    func testAHeldLockIsWaitedForThenReported() throws {
        let baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        let first = baseline.saved.keys.sorted()[0]
        Self.faults += 1
        let holder = try holdLock("import fcntl, os, sys, time\nf = os.open(sys.argv[1], os.O_RDWR)\nfcntl.flock(f, fcntl.LOCK_EX)\ntime.sleep(30)",
                                  root + "/library.lock")
        defer { holder.terminate(); holder.waitUntilExit() }
        Thread.sleep(forTimeInterval: 0.3)
        let started = Date()
        let listedWhileHeld = try run(["list"], root)
        XCTAssertEqual(listedWhileHeld.status, 0, listedWhileHeld.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 2, "readers never wait for the lock")
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
        XCTAssertFalse(recorded.stderr.contains("recording audio from"), "it never started capturing: \(recorded.stderr)")
        holder.terminate()
        holder.waitUntilExit()
        // A write transaction held open in the database itself: readers do not wait for it either.
        Self.faults += 1
        let writer = try holdLock("""
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
        XCTAssertLessThan(Date().timeIntervalSince(readStarted), 3, "reading never waits for a writer")
        writer.terminate()
        writer.waitUntilExit()
        try assertIntact(baseline, "a held lock")
    }

    /// A process (python, one process: nothing inherits the lock) that holds a lock on `path`.
    func holdLock(_ script: String, _ path: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, path]
        try process.run()
        return process
    }

    // MARK: - Hostile rows, arguments and leftovers

    func sqlite(_ root: String, _ sql: String) throws {
        let result = try runProcess("/usr/bin/sqlite3", [root + "/library.sqlite", sql])
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    func testHostileRows() throws {
        var baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        let rows = try listed(root)
        let audio = rows.first { $0["kind"] as? String == "audio" }!
        let video = rows.first { $0["kind"] as? String == "video" }!
        let audioID = audio["id"] as! String, videoID = video["id"] as! String
        // Escape sequences in stored text never reach the terminal.
        Self.faults += 1
        try sqlite(root, "UPDATE recording SET title = 'Pwn' || char(27) || ']0;owned' || char(7) || char(27) || '[2J', notes = char(27) || '[31mred' WHERE id = '\(audioID)'")
        for command in [["list"], ["top"], ["show", audioID]] {
            let result = try run(command, root)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertFalse(result.stdout.contains("\u{1B}") || result.stdout.contains("\u{07}"), "\(command) printed raw control characters")
        }
        let json = try run(["list", "--json"], root)
        XCTAssertFalse(json.stdout.contains("\u{1B}"), "JSON escapes control characters")
        // A title that is not UTF-8 at all, and absurd numbers: no crash.
        Self.faults += 1
        try sqlite(root, "UPDATE recording SET title = X'C3289FFF', playCount = 9223372036854775807 WHERE id = '\(audioID)'")
        for command in [["list"], ["top", "9223372036854775807"], ["show", audioID], ["export", "--format", "csv", "--output", "-"]] {
            let result = try run(command, root)
            XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
        }
        // A thumbnail path leading out of the library, or to another recording's file.
        Self.faults += 1
        try plant(base + "/private.jpg", "private", into: &baseline)
        try sqlite(root, "UPDATE recording SET thumbnailPath = 'Recordings/Thumbnails/../../../private.jpg' WHERE id = '\(videoID)'")
        let shown = try run(["show", videoID], root)
        XCTAssertFalse(shown.stdout.contains(base + "/private.jpg"), shown.stdout)
        try sqlite(root, "UPDATE recording SET thumbnailPath = '\(audio["filePath"] as! String)' WHERE id = '\(videoID)'")
        assertOneLineError(try run(["delete", videoID, "--yes"], root), containing: "refusing", "a thumbnail naming another recording")
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/" + (audio["filePath"] as! String)), "the other recording's file is there")
        // check reports invalid rows: non-UUID ids, negative durations and play counts.
        Self.faults += 1
        try sqlite(root, """
            INSERT INTO recording (id, createdAt, kind, title, duration, filePath, modifiedAt, playCount)
              VALUES ('not-a-uuid', '2025-01-01T00:00:00.000Z', 'audio', 'x', 3, 'Recordings/x.m4a', '2025-01-01T00:00:00.000Z', 0);
            """)
        try sqlite(root, "PRAGMA ignore_check_constraints = 1; UPDATE recording SET title = 'ok', notes = NULL, duration = -4, playCount = -1 WHERE id = '\(audioID)'")
        let checked = try run(["check"], root)
        XCTAssertNotEqual(checked.status, 0)
        XCTAssertTrue(checked.stdout.contains("not-a-uuid: id is not a UUID"), checked.stdout)
        XCTAssertTrue(checked.stdout.contains("duration is not within"), checked.stdout)
        XCTAssertTrue(checked.stdout.contains("thumbnailPath is not this recording's thumbnail"), checked.stdout)
        // Repair removes the rows (never a file); cravey's files come back as recovered recordings.
        let repaired = try run(["check", "--repair"], root)
        XCTAssertEqual(repaired.status, 0, repaired.stderr)
        let after = try listed(root)
        XCTAssertEqual(Set(after.map { $0["id"] as! String }), Set(baseline.saved.keys))
        try assertIntact(baseline, "hostile rows")
    }

    func testHostileArgumentsChangeNothing() throws {
        let baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        let combining = "a" + String(repeating: "\u{0301}", count: 500)
        for (title, what) in [(combining, "combining marks"), ("Remember\u{202E}txt.exe", "a direction override"),
                              ("zero\u{200B}width", "a zero-width space"), ("line\u{2028}break", "a line separator"),
                              ("esc\u{1B}[2J", "an escape")] {
            Self.faults += 1
            let result = try record(root, title: title)
            assertOneLineError(result, containing: "invalid title", what)
            XCTAssertFalse(result.stderr.contains("\u{1B}"), "the error echoes no escape")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root + "/.incoming"), ["draft.txt"], "no device opened, nothing captured")
        }
        let id = baseline.saved.keys.sorted()[0]
        assertOneLineError(try run(["edit", id, "--title", combining], root), containing: "combining marks", "edit")
        Self.faults += 1
        let unknown = try run(["show", "\u{1B}]0;x\u{07}"], root)
        XCTAssertFalse(unknown.stderr.contains("\u{1B}"), "an id typed with an escape is not echoed raw")
        // Spreadsheet formulas in exported cells stay text.
        XCTAssertEqual(try run(["edit", id, "--title", "=HYPERLINK(\"x\")", "--notes", "@SUM(1)"], root).status, 0)
        let csv = try run(["export", "--format", "csv", "--output", "-"], root).stdout
        XCTAssertTrue(csv.contains("\"'=HYPERLINK(\"\"x\"\")\"") && csv.contains("'@SUM(1)"), csv)
        // Export never writes through a link, into a FIFO or over a device.
        Self.faults += 1
        let target = base + "/victim.txt"
        try Data("victim".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: base + "/link.csv", withDestinationPath: target)
        XCTAssertEqual(mkfifo(base + "/fifo.csv", 0o600), 0)
        for output in [base + "/link.csv", base + "/fifo.csv", "/dev/null"] {
            assertOneLineError(try run(["export", "--format", "csv", "--output", output, "--force"], root), containing: "not a regular file", output)
        }
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "victim")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: base).filter { $0.contains(".tmp-") }, [])
        try assertIntact(baseline, "hostile arguments")
    }

    func testForeignFilesSurvivePurgeRepairAndOddLeftovers() throws {
        let baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        // A directory inside .trash/ (planted by makeLibrary) blocks nothing.
        for command in [["list"], ["check"], ["check", "--repair"]] {
            let result = try run(command, root)
            XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
        }
        try assertIntact(baseline, "a directory in .trash")
        // Purge removes every recording and nothing else.
        Self.faults += 1
        let purged = try run(["purge", "--yes"], root)
        XCTAssertEqual(purged.status, 0, purged.stderr)
        XCTAssertEqual(try listed(root).count, 0)
        var empty = baseline
        empty.saved = [:]
        try assertIntact(empty, "purge with foreign files")
        // A directory of someone's files is not a library: refused, untouched.
        Self.faults += 1
        let documents = base + "/Documents"
        try FileManager.default.createDirectory(atPath: documents, withIntermediateDirectories: true)
        try Data("taxes".utf8).write(to: URL(fileURLWithPath: documents + "/taxes.txt"))
        assertOneLineError(try run(["purge", "--yes"], documents), containing: "not a cravey library", "a directory that is not a library")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: documents), ["taxes.txt"])
        Self.cases += 1
    }

    // MARK: - kill -9 during a real recording and during its recovery

    /// SIGKILL at every step of a real recording's finalize and save and, for every take a kill
    /// left behind, at every step of its recovery on the next run: one playable recording in the
    /// end, every time, and the foreign files untouched.
    func testKillPointsDuringRecordingAndRecovery() throws {
        var points = 0
        var step = 1
        while step < 40 {
            var baseline = Baseline(root: base + "/kill-\(step)")
            try FileManager.default.createDirectory(atPath: baseline.root + "/Recordings", withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            chmod(baseline.root, 0o700)
            try plant(baseline.root + "/Recordings/mine.txt", "mine", into: &baseline)
            let result = try record(baseline.root, title: "Kill \(step)", environment: ["CRAVEY_FAULT_KILL_AT": String(step)])
            XCTAssertFalse(result.stderr.contains("Qavg"), "FFmpeg's log stays quiet: \(result.stderr)")
            if result.status != -SIGKILL {
                XCTAssertEqual(result.status, 0, result.stderr)
                break
            }
            points += 1
            Self.faults += 1
            let left = ((try? FileManager.default.contentsOfDirectory(atPath: baseline.root + "/.incoming")) ?? []).filter { $0.hasPrefix("rec_") }
            if !left.isEmpty {
                // Kill the recovery itself at each of its steps, then let it finish.
                for recoveryStep in 1...30 {
                    let opened = try run(["list"], baseline.root, environment: ["CRAVEY_FAULT_KILL_AT": String(recoveryStep)])
                    XCTAssertFalse(opened.stderr.contains("Qavg"), "FFmpeg's log stays quiet: \(opened.stderr)")
                    if opened.status != -SIGKILL { break }
                    points += 1
                    Self.faults += 1
                }
            }
            let rows = try listed(baseline.root)
            XCTAssertEqual(rows.count, 1, "killed at step \(step): exactly one recording")
            if let row = rows.first {
                XCTAssertEqual(row["duration"] as? Double ?? 0, 2.0, accuracy: 0.05, "step \(step)")
                XCTAssertEqual(try ffprobe(baseline.root + "/" + (row["filePath"] as! String)).codecs, ["aac"])
                baseline.saved[row["id"] as! String] = try Data(contentsOf: URL(fileURLWithPath: baseline.root + "/" + (row["filePath"] as! String)))
            }
            try assertIntact(baseline, "kill at step \(step)")
            step += 1
        }
        print("kill points: \(points)")
        XCTAssertGreaterThanOrEqual(points, 50, "at least 50 kill points during a real recording and its recovery")
    }

    // MARK: - A power cut after "Saved"

    /// The order in which a save, a delete, an edit and a play reach the disk, read from a system
    /// call trace: the file is fsynced, the save intent is durable, the file is renamed into place,
    /// the directory is fsynced, the row's commit is fsynced — and only then is success printed.
    /// A power cut after the message therefore cannot lose what it reported.
    func testReportedSuccessIsDurableInThisOrder() throws {
        let strace = "/usr/bin/strace"
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: strace), "strace is installed by Tests/install-deps.sh")
        let root = base + "/lib"
        XCTAssertEqual(try run(["list"], root).status, 0)
        let tone = base + "/tone.wav"
        _ = try runProcess("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=d=2", tone])

        func trace(_ arguments: [String]) throws -> [String] {
            let out = base + "/trace-\(UUID().uuidString.prefix(6)).txt"
            let result = try runProcess(strace, ["-f", "-y", "-qq", "-o", out, "-e",
                                                 "trace=fsync,fdatasync,rename,renameat,renameat2,unlink,unlinkat,write",
                                                 cravey] + arguments + ["--library", root])
            XCTAssertEqual(result.status, 0, result.stderr)
            return try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map(String.init)
        }
        func index(_ lines: [String], after start: Int = 0, _ matches: (String) -> Bool, _ what: String,
                   file: StaticString = #filePath, line: UInt = #line) -> Int {
            guard let found = lines.indices.dropFirst(start).first(where: { matches(lines[$0]) }) else {
                XCTFail("no \(what) after line \(start)", file: file, line: line)
                return lines.count
            }
            return found
        }
        let walSync = { (line: String) in (line.contains("fsync(") || line.contains("fdatasync(")) && line.contains("library.sqlite-wal>") }
        let printed = { (text: String) in { (line: String) in line.contains("write(1<") && line.contains(text) } }

        // Save (an import).
        let save = try trace(["import", tone, "--title", "Durable"])
        let stagedSync = index(save, { $0.contains("fsync(") && $0.contains("/.incoming/save_") }, "fsync of the staged file")
        let intent = index(save, after: stagedSync, walSync, "a durable save intent")
        let renamed = index(save, after: intent, { $0.contains("rename") && $0.contains("/.incoming/save_") && $0.contains("/Recordings/audio_") }, "the rename into Recordings/")
        let dirSync = index(save, after: renamed, { $0.contains("fsync(") && $0.hasSuffix("/Recordings>) = 0") }, "fsync of Recordings/")
        let commit = index(save, after: dirSync, walSync, "a durable row commit")
        let saved = index(save, after: commit, printed("Imported"), "the success message")
        XCTAssertLessThan(saved, save.count)

        let id = try listed(root).first!["id"] as! String
        // A play count and an edit: committed durably before the message.
        let edit = try trace(["edit", id, "--title", "Edited"])
        _ = index(edit, after: index(edit, walSync, "a durable edit"), printed("Updated"), "the message after the commit")

        // Delete: moved aside, directory fsynced, row deletion durable, then the file removed.
        let delete = try trace(["delete", id, "--yes"])
        let moved = index(delete, { $0.contains("rename") && $0.contains("/Recordings/audio_") && $0.contains("/.trash/") }, "the move to .trash")
        let deleteDir = index(delete, after: moved, { $0.contains("fsync(") && $0.hasSuffix("/Recordings>) = 0") }, "fsync of Recordings/")
        let deleteCommit = index(delete, after: deleteDir, walSync, "a durable row deletion")
        let removed = index(delete, after: deleteCommit, { $0.contains("unlink") && $0.contains("/.trash/audio_") }, "the file removed")
        _ = index(delete, after: removed, printed("Deleted"), "the message")
        Self.cases += 3
    }
}
