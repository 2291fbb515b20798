import CraveyTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Another process holding the library's lock for `seconds`, returned once it holds it; the
/// lock is free again as soon as the process ends (`terminate()`).
func holdLibraryLock(_ root: String, seconds: Int) throws -> Process {
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    holder.arguments = [
        "-c",
        "import fcntl, os, sys, time\nf = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)\n"
            + "fcntl.flock(f, fcntl.LOCK_EX)\nprint('held', flush=True)\ntime.sleep(float(sys.argv[2]))",
        root + "/library.lock", "\(seconds)",
    ]
    let said = Pipe()
    holder.standardOutput = said
    try holder.run()
    _ = said.fileHandleForReading.readData(ofLength: 5)  // "held\n"
    return holder
}

/// Opening a library, end to end: several cravey started together on a new library, a library a
/// newer cravey migrated, status beside a writer, variables that are not UTF-8, a link to the
/// library, a read-only disk, a refused log, and a library another process holds.
final class LibraryOpeningTests: CommandTestCase {
    let environment = ["NO_COLOR": "1", "CRAVEY_TRANSCRIBE": "later"]

    @discardableResult
    func run(_ arguments: [String], library: String? = nil, extra: [String: String] = [:]) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try runProcess(
            cravey, arguments + ["--library", library ?? root], environment: environment.merging(extra) { $1 })
    }

    /// How many cravings and uses the library lists.
    func logCount(_ library: String? = nil) throws -> Int {
        let listed = try run(["log", "--json"], library: library)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        return (try json(listed.stdout) as? [Any])?.count ?? -1
    }

    /// Runs each argument list at once, in its own process; the results in the same order.
    func together(_ commands: [[String]]) -> [(status: Int32, stdout: String, stderr: String)] {
        nonisolated(unsafe) var results = [(status: Int32, stdout: String, stderr: String)?](
            repeating: nil, count: commands.count)
        let lock = NSLock()
        let (cravey, environment) = (cravey, environment)
        DispatchQueue.concurrentPerform(iterations: commands.count) { index in
            let result =
                (try? runProcess(cravey, commands[index], environment: environment)) ?? (-1, "", "could not start")
            lock.withLock { results[index] = result }
        }
        return results.map { $0! }
    }

    func testThreeFirstStartsTogetherMakeTheLibraryOnceAndKeepEveryCraving() throws {
        for round in 1...20 {
            let library = base + "/new-\(round)"
            let results = together((1...3).map { ["craving", "\($0 + 2)", "--library", library] })
            for result in results {
                XCTAssertEqual(result.status, 0, "round \(round): \(result.stderr)")
                XCTAssertTrue(result.stdout.contains("logged ✓"), result.stdout)
            }
            XCTAssertEqual(try logCount(library), 3, "round \(round): every craving kept")
        }
    }

    func testARestoreAndACravingIntoOneNewLibraryAtOnceNeverMeetHalfMade() throws {
        try run(["craving", "4", "--notes", "from the backup"])
        XCTAssertEqual(try run(["backup", base + "/usb"]).status, 0)
        for round in 1...5 {
            let library = base + "/laptop-\(round)"
            let results = together([
                ["restore", base + "/usb", "--library", library], ["craving", "6", "--library", library],
            ])
            let (restored, logged) = (results[0], results[1])
            XCTAssertEqual(logged.status, 0, "round \(round): \(logged.stderr)")
            XCTAssertFalse(restored.stderr.contains("already exists"), restored.stderr)
            if restored.status == 0 {
                XCTAssertEqual(try logCount(library), 2, "round \(round): the restored log and the craving")
            } else {
                XCTAssertTrue(
                    restored.stderr.contains("not empty") || restored.stderr.contains("holds"), restored.stderr)
                XCTAssertEqual(try logCount(library), 1)
            }
        }
    }

    func testALibraryANewerCraveyMigratedIsRefusedInWords() throws {
        try run(["craving", "3"])
        let database = root + "/library.sqlite"
        let planted = try runProcess(
            "/usr/bin/sqlite3", [database, "INSERT INTO grdb_migrations VALUES ('v99: from a newer cravey')"])
        XCTAssertEqual(planted.status, 0, planted.stderr)
        for command in [["craving", "5"], ["log"], ["check"]] {
            let result = try run(command)
            XCTAssertEqual(result.status, 1, "\(command)")
            XCTAssertEqual(
                result.stderr,
                "cravey: this library was made by a newer cravey; update cravey to read it (nothing was changed)\n")
        }
        let count = try runProcess("/usr/bin/sqlite3", [database, "SELECT count(*) FROM craving"])
        XCTAssertEqual(count.stdout, "1\n", "nothing was written")
    }

    func testStatusWaitsForAWriterAndMakesNoFile() throws {
        try run(["craving", "3"])
        for suffix in ["-wal", "-shm"] { unlink(root + "/library.sqlite" + suffix) }
        let before = try FileManager.default.contentsOfDirectory(atPath: root).sorted()
        XCTAssertTrue(try run(["status"]).stdout.hasPrefix("🌱 Day 1"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root).sorted(), before, "no file made")

        // Cravings logged one after another while status runs in a loop: never the quiet line.
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = [
            "-c", "for i in $(seq 1 40); do \"$0\" craving 5 --library \"$1\" >/dev/null; done", cravey, root,
        ]
        try writer.run()
        var quiet: [String] = []
        var runs = 0
        while writer.isRunning || runs < 50 {
            let status = try run(["status"])
            runs += 1
            if !status.stdout.hasPrefix("🌱 Day 1") { quiet.append(status.stdout + status.stderr) }
        }
        writer.waitUntilExit()
        XCTAssertEqual(quiet, [], "of \(runs) runs")
    }

    func testVariablesThatAreNotUTF8AreRefusedAndNothingIsMade() throws {
        for (variable, made) in [
            ("CRAVEY_LIBRARY", "lib"), ("XDG_DATA_HOME", "data"), ("HOME", "home"),
        ] {
            let script = """
                unset CRAVEY_LIBRARY XDG_DATA_HOME
                export \(variable)="$(printf '%s/\(made)\\377' "$1")"
                exec "$0" craving 3
                """
            let result = try runProcess("/bin/sh", ["-c", script, cravey, base], environment: environment)
            XCTAssertEqual(result.status, 64, result.stderr)
            XCTAssertTrue(result.stderr.hasPrefix("cravey: \(variable) ('"), result.stderr)
            XCTAssertTrue(result.stderr.contains("\\xFF') is not valid UTF-8"), result.stderr)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: base), [], "nothing was made")
    }

    func testATrustedLinkToTheLibraryIsFollowedOnceAndAnyOtherIsRefused() throws {
        let share = base + "/home/.local/share", disk = base + "/disk"
        try FileManager.default.createDirectory(atPath: share, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        chmod(base + "/home", 0o755)
        chmod(share, 0o755)
        XCTAssertEqual(symlink(disk + "/cravey", share + "/cravey"), 0)
        let home = ["HOME": base + "/home", "XDG_DATA_HOME": ""]
        func logged(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
            let script = "unset CRAVEY_LIBRARY; exec \"$0\" \"$@\""
            return try runProcess(
                "/bin/sh", ["-c", script, cravey] + arguments, environment: environment.merging(home) { $1 })
        }
        for intensity in ["3", "4"] {
            let result = try logged(["craving", intensity])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stderr, "", "no warning through a trusted link")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: disk + "/cravey/library.sqlite"), "made where it leads")
        // The database lost: rebuilt through the link, with every log.
        for name in ["library.sqlite", "library.sqlite-wal", "library.sqlite-shm"] { unlink(disk + "/cravey/" + name) }
        let rebuilt = try logged(["log", "--json"])
        XCTAssertEqual(rebuilt.status, 0, rebuilt.stderr)
        XCTAssertEqual((try json(rebuilt.stdout) as? [Any])?.count, 2)
        XCTAssertFalse(rebuilt.stderr.contains("symbolic links"), rebuilt.stderr)
        // In a directory others can write: refused, nothing changed.
        chmod(share, 0o777)
        let open = try logged(["craving", "5"])
        XCTAssertEqual(open.status, 1)
        XCTAssertTrue(open.stderr.contains("is a symbolic link someone else could have made"), open.stderr)
        chmod(share, 0o755)
        // A link that belongs to another user (root's library, another user's link): refused.
        if geteuid() == 0 {
            XCTAssertEqual(lchown(share + "/cravey", 65534, 65534), 0)
            let foreign = try logged(["craving", "5"])
            XCTAssertEqual(foreign.status, 1)
            XCTAssertTrue(foreign.stderr.contains("is a symbolic link someone else could have made"), foreign.stderr)
        }
    }

    func testBackupAndCheckWorkOnAReadOnlyDisk() throws {
        try XCTSkipUnless(geteuid() == 0, "mounts need root")
        let disk = base + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        XCTAssertEqual(try runProcess("/bin/mount", ["-t", "tmpfs", "-o", "size=16m", "tmpfs", disk]).status, 0)
        defer { _ = try? runProcess("/bin/umount", ["-l", disk]) }
        let library = disk + "/lib"
        try run(["craving", "3", "--notes", "before the disk went read-only"], library: library)
        try run(["craving", "4"], library: library)
        XCTAssertEqual(try runProcess("/bin/mount", ["-o", "remount,ro", disk]).status, 0)
        let backedUp = try run(["backup", base + "/usb"], library: library)
        XCTAssertEqual(backedUp.status, 0, backedUp.stderr)
        XCTAssertEqual(backedUp.stderr, "")
        let checked = try run(["check"], library: library)
        XCTAssertEqual(checked.status, 0, checked.stderr)
        XCTAssertTrue(checked.stdout.contains("2 cravings"), checked.stdout)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: base + "/usb").sorted(),
            [".cravey-backup.lock", "Database", "cravey-backup.json"])
        let restored = try run(["restore", base + "/usb"], library: base + "/laptop")
        XCTAssertEqual(restored.status, 0, restored.stderr)
        XCTAssertEqual(try logCount(base + "/laptop"), 2)
        // Everything else is as before: a change is refused in one line.
        let refused = try run(["craving", "5"], library: library)
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
    }

    func testARefusedLogMakesNoLibrary() throws {
        for command in [
            ["craving", "11"], ["craving", "5", "--at", "yesterday-ish"], ["use", "--method", "telepathy"],
            ["use", "--mood-after", "0"], ["settings", "goal", "world-domination"],
            ["settings", "price", "bowls", "-5"],
            ["settings", "price", "bowls", "5", "--clear"], ["settings", "quick-play", "loudest"],
            ["settings", "name", String(repeating: "n", count: 41)], ["settings", "colour", "blue"],
            ["restore", base + "/no-such-backup"], ["restore", base],
        ] {
            let result = try run(command)
            XCTAssertNotEqual(result.status, 0, "\(command)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: root), "\(command) made \(root)")
        }
    }

    func testABusyLibraryKeepsALogAtOnceAndWritesItWhenFree() throws {
        try run(["craving", "3"])
        // What a power cut during an earlier append left: cut back before the next line.
        try Data(#"{"kind":"craving","row":{"id":"torn"#.utf8).write(to: URL(fileURLWithPath: root + "/logs.waiting"))
        let holder = try holdLibraryLock(root, seconds: 120)
        defer { if holder.isRunning { holder.terminate() } }
        let started = Date()
        let logged = try run(["craving", "7", "--notes", "while it was busy"])
        XCTAssertEqual(logged.status, 0, logged.stderr)
        XCTAssertTrue(logged.stdout.contains("logged ✓"), logged.stdout)
        // Never made to wait for the library: done while it is still held, and sooner than a
        // change's wait for the lock (10 s) on however busy a machine.
        XCTAssertTrue(holder.isRunning, "never made to wait for the library")
        XCTAssertLessThan(Date().timeIntervalSince(started), 9, "never made to wait for the library")
        let used = try run(["use", "--notes", "also while busy"])
        XCTAssertEqual(used.status, 0, used.stderr)
        let waiting = try String(contentsOfFile: root + "/logs.waiting", encoding: .utf8)
        XCTAssertTrue(waiting.contains("while it was busy") && waiting.contains("also while busy"), waiting)
        XCTAssertFalse(waiting.contains("torn"), waiting)
        XCTAssertEqual(waiting.split(separator: "\n").count, 2)
        // Read while they wait: log and status count them already.
        XCTAssertTrue(try run(["log"]).stdout.contains("while it was busy"))
        XCTAssertEqual(try run(["status", "--format", "{cravings}"]).stdout, "2\n")
        XCTAssertTrue(holder.isRunning, "read while the library was held")
        holder.terminate()
        holder.waitUntilExit()
        // The next command takes the library and writes them first.
        XCTAssertEqual(try logCount(), 3)
        XCTAssertTrue(try run(["log"]).stdout.contains("while it was busy"))
        XCTAssertEqual(try String(contentsOfFile: root + "/logs.waiting", encoding: .utf8), "")
        // And they are journaled like any typed log: a lost database brings them back.
        for name in ["library.sqlite", "library.sqlite-wal", "library.sqlite-shm"] { unlink(root + "/" + name) }
        XCTAssertEqual(try logCount(), 3)
    }

    func testAPlayNeverWaitsForABusyLibraryAndIsCountedOnceItIsFree() throws {
        let tone = base + "/tone.wav"
        try makeToneWAV(tone, seconds: 1)
        XCTAssertEqual(try run(["import", tone, "--title", "Breathe"]).status, 0)
        let holder = try holdLibraryLock(root, seconds: 120)
        defer { if holder.isRunning { holder.terminate() } }
        let alsa = [
            "ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_OUTFILE": base + "/heard.raw",
        ]
        let started = Date()
        let craving = try run(["craving", "8", "--play", "1", "--speaker", "cravey_capture"], extra: alsa)
        XCTAssertEqual(craving.status, 0, craving.stderr)
        XCTAssertTrue(craving.stdout.contains("Played 'Breathe'"), craving.stdout)
        XCTAssertTrue(holder.isRunning, "the sound came before the library was free")
        XCTAssertLessThan(Date().timeIntervalSince(started), 9, "the sound came before the lock's wait of 10 s")
        holder.terminate()
        holder.waitUntilExit()
        let listed = try run(["list", "--json"])
        let rows = try XCTUnwrap(try json(listed.stdout) as? [[String: Any]])
        XCTAssertEqual(rows.first?["playCount"] as? Int, 1, "counted once the library was free")
        let logs = try XCTUnwrap(try json(try run(["log", "--json"]).stdout) as? [[String: Any]])
        XCTAssertEqual(logs.first?["recordingId"] as? String, rows.first?["id"] as? String, "played during it")
    }
}

/// Home while another process holds the library: it draws and plays at once, and the play is
/// counted once the library is free.
final class BusyHomeTests: CommandTestCase {
    func start() throws -> TmuxSession {
        // The speaker home plays on ("default") writes to a file here.
        let alsa = base + "/alsa.conf"
        try "<\(testALSAConfig)>\npcm.!default { type plug slave.pcm \"cravey_capture\" }\n".write(
            toFile: alsa, atomically: true, encoding: .utf8)
        let command =
            "cd \(shellQuote(base)) && env NO_COLOR=1 CRAVEY_TRANSCRIBE=later ALSA_CONFIG_PATH=\(shellQuote(alsa)) "
            + "CRAVEY_ALSA_OUTFILE=\(shellQuote(base + "/speaker.raw")) CRAVEY_LIBRARY=\(shellQuote(root)) \(shellQuote(cravey)); "
            + "echo EXIT=$?; sleep 60"
        return try TmuxSession(command, width: 100, height: 32)
    }

    func testHomePlaysAtOnceWhileTheLibraryIsHeldAndCountsThePlayAfter() throws {
        let environment = ["NO_COLOR": "1", "CRAVEY_TRANSCRIBE": "later"]
        try makeToneWAV(base + "/tone.wav", seconds: 1)
        func run(_ arguments: [String]) throws {
            let result = try runProcess(cravey, arguments + ["--library", root], environment: environment)
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        try run(["import", base + "/tone.wav", "--title", "Remember why"])
        var tmux = try start()
        try tmux.waitFor("Get started")
        try tmux.send("s", literal: true)
        try tmux.waitFor("LOG CRAVING")
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
        tmux.close()
        // A craving since: home has a milestone to note as it opens, while the library is held.
        try run(["craving", "4"])

        let holder = try holdLibraryLock(root, seconds: 120)
        defer { if holder.isRunning { holder.terminate() } }
        let started = Date()
        tmux = try start()
        defer { tmux.close() }
        try tmux.waitFor("LOG CRAVING")
        try tmux.send("1", literal: true)
        try tmux.waitFor("Played 'Remember why'", timeout: 20)
        // Home never waited for the library: it played while the library was still held.
        XCTAssertTrue(holder.isRunning, "home never waited for the library")
        print("busy home: played \(String(format: "%.1f", Date().timeIntervalSince(started))) s after it started")
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
        holder.terminate()
        holder.waitUntilExit()
        let top = try runProcess(cravey, ["top", "--json", "--library", root], environment: environment)
        let rows = try XCTUnwrap(try json(top.stdout) as? [[String: Any]])
        XCTAssertEqual(rows.first?["playCount"] as? Int, 1, "counted once the library was free")
    }
}
