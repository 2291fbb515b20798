import CraveyTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// A sync folder that stops answering holds no one: `sync`, `sync --status` and `check` say so
/// in one line naming the folder within its patience (10 s) and end at once, the library
/// unchanged or whole; what waits goes with the next sync. A recording, a check-in, a play and a
/// craving at home are kept and said while the folder hangs, and a recording's copy to the folder
/// that hangs (or is killed) half-way gives the other machine nothing partial.
final class SyncHangTests: SyncFoldersTestCase {
    /// The folder's patience, and what a command may take past it to say so and end.
    let patience = 10.0, moment = 4.0

    /// `cravey ARGUMENTS --library LIBRARY` with the tests' sound devices and `extra` in the
    /// environment, killed after 40 s if it has not ended; how long it took.
    func timed(_ library: String, _ arguments: [String], _ extra: [String: String] = [:]) throws -> (
        status: Int32, stdout: String, stderr: String, seconds: Double
    ) {
        let started = Date()
        let ran = try runProcess(
            "/usr/bin/timeout", ["-s", "KILL", "40", cravey] + arguments + ["--library", library],
            environment: environment(extra))
        let seconds = Date().timeIntervalSince(started)
        print(
            "cravey \(arguments.joined(separator: " ")): exit \(ran.status) after \(String(format: "%.2f", seconds)) s")
        return (ran.status, ran.stdout, ran.stderr, seconds)
    }

    func environment(_ extra: [String: String]) -> [String: String] {
        [
            "ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_INFILE": phraseFixture, "CRAVEY_TRANSCRIBE": "later",
            "CRAVEY_ALSA_OUTFILE": base + "/speaker.raw", "NO_COLOR": "1", "TZ": "Europe/Berlin",
        ].merging(extra) { $1 }
    }

    /// The recordings `list --json` gives.
    func listed(_ library: String) throws -> [[String: Any]] {
        try json(try cravey(library, ["list", "--json"]).stdout) as! [[String: Any]]
    }

    /// A folder that stops answering for real: a FUSE mount over `path` whose server never
    /// answers (the kernel waits for its first reply, so every look into it waits, as at a network
    /// mount whose server went away). `end` gives the folder back as it was.
    final class HungMount {
        let path: String
        private var fd: Int32 = -1

        init(over path: String) throws {
            try XCTSkipUnless(geteuid() == 0, "mounting a file system needs root (as CI runs)")
            self.path = path
            fd = open("/dev/fuse", O_RDWR | O_CLOEXEC)
            try XCTSkipIf(fd < 0, "no /dev/fuse here")
            guard mount("cravey-hung", path, "fuse", 0, "fd=\(fd),rootmode=40000,user_id=0,group_id=0") == 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw XCTSkip("a FUSE mount could not be made here (\(reason))")
            }
        }

        /// The connection ended (every call waiting in it fails), then the mount taken away.
        func end() {
            guard fd >= 0 else { return }
            close(fd)
            fd = -1
            umount2(path, Int32(MNT_DETACH))
        }

        deinit { end() }
    }

    /// Seconds from starting `argv` to `words` on its standard output (nil: it ended without
    /// them); it is then waited for.
    func secondsTo(_ words: String, _ argv: [String]) throws -> Double? {
        let program = Process(), out = Pipe()
        program.executableURL = URL(fileURLWithPath: argv[0])
        program.arguments = Array(argv.dropFirst())
        program.environment = ProcessInfo.processInfo.environment.merging(environment([:])) { $1 }
        program.standardOutput = out
        program.standardError = FileHandle.nullDevice
        let started = Date()
        try program.run()
        var said = Data(), seconds: Double?
        while seconds == nil {
            let more = out.fileHandleForReading.availableData
            if more.isEmpty { break }
            said += more
            if String(decoding: said, as: UTF8.self).contains(words) { seconds = Date().timeIntervalSince(started) }
        }
        _ = out.fileHandleForReading.readDataToEndOfFile()
        program.waitUntilExit()
        print("\(argv.drop { $0 != cravey }.joined(separator: " ")): '\(words)' after \(seconds ?? -1) s")
        return seconds
    }

    /// Said in one line, non-zero, within the patience and a moment; the words name the folder.
    func assertSaidInTime(
        _ ran: (status: Int32, stdout: String, stderr: String, seconds: Double), _ shared: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(ran.status, 1, ran.stdout + ran.stderr, file: file, line: line)
        XCTAssertLessThan(ran.seconds, patience + moment, "gone promptly", file: file, line: line)
        XCTAssertGreaterThanOrEqual(ran.seconds, patience - 0.5, "given its patience", file: file, line: line)
        XCTAssertTrue(
            (ran.stdout + ran.stderr).contains(
                "the sync folder \(shared) has not answered for 10 seconds (a stick going bad, or a network mount that stopped answering?)"
            ), ran.stdout + ran.stderr, file: file, line: line)
    }

    func testSyncStatusAndCheckAtAFolderThatStopsAnsweringSayItAndEndInTime() throws {
        let (a, b, shared) = try machineWithACraving()
        let mount = try HungMount(over: shared)
        defer { mount.end() }

        let logged = try timed(a, ["craving", "7", "--notes", "while the mount hangs"])
        XCTAssertEqual(logged.status, 0, logged.stderr)
        XCTAssertTrue(logged.stdout.contains("logged"), logged.stdout)
        XCTAssertLessThan(logged.seconds, 2 + moment, "said and gone within the exit wait and a moment")

        let hung = try timed(a, ["sync"])
        assertSaidInTime(hung, shared)
        XCTAssertTrue(
            hung.stderr.contains(
                "nothing was brought in and nothing in your library changed; what this machine has still to write waits in the library and goes with the next sync"
            ), hung.stderr)
        XCTAssertEqual(hung.stderr.split(separator: "\n").count, 1, "one line: \(hung.stderr)")
        let status = try timed(a, ["sync", "--status"])
        assertSaidInTime(status, shared)
        XCTAssertTrue(status.stderr.contains("nothing was changed"), status.stderr)
        let checked = try timed(a, ["check"])
        assertSaidInTime(checked, shared)
        XCTAssertTrue(checked.stdout.contains("it was not checked, and nothing was changed"), checked.stdout)
        let chosen = try timed(a, ["sync", "--folder", shared])
        assertSaidInTime(chosen, shared)

        // The folder back: what waited goes with the next sync, and the other machine has it.
        mount.end()
        XCTAssertTrue(try logText(a).contains("while the mount hangs"), "kept in the library")
        XCTAssertEqual(try synced(a)["waiting"] as? Int, 0)
        try synced(b, ["--folder", shared])
        XCTAssertTrue(try logText(b).contains("while the mount hangs"))
        try cravey(a, ["check"])
    }

    func testASyncThatStopsAfterBringingInKeepsWhatCameWholeAndTakesTheRestNextTime() throws {
        let a = library("a"), b = library("b"), shared = try folder("shared")
        try synced(b, ["--folder", shared])
        try cravey(a, ["craving", "6", "--notes", "from the desktop"])
        let made = try timed(
            a, ["record", "audio", "--mic", "cravey_file", "--max-seconds", "2", "--title", "Breathe"])
        XCTAssertEqual(made.status, 0, made.stderr)
        try synced(a, ["--folder", shared])

        // B takes the craving in, then the folder stops answering as the recording's file is read.
        let stopped = try timed(b, ["sync"], ["CRAVEY_FAULT_HANG": "sync.media.copy:60"])
        assertSaidInTime(stopped, shared)
        XCTAssertTrue(
            stopped.stderr.contains(
                "the 1 change brought in before it stopped is kept whole; the rest, and what this machine has still to write, go with the next sync"
            ), stopped.stderr)
        XCTAssertTrue(try logText(b).contains("from the desktop"), "what came is kept")
        XCTAssertEqual(try listed(b).count, 0, "nothing partial")
        let named = try cravey(b, ["check"], status: 1).stdout
        XCTAssertTrue(named.contains("which is whole in the folder; the next 'cravey sync' takes it in"), named)

        try synced(b)
        XCTAssertEqual(try listed(b).first?["duration"] as? Double ?? 0, 2, accuracy: 0.05, "the rest, next time")
        XCTAssertEqual((try? names(b + "/.incoming")) ?? [], [], "no part of the copy left")
        try cravey(b, ["check"])
    }

    func testARecordingKeptWhileItsCopyToTheFolderHangsGoesWholeWithTheNextSync() throws {
        let a = library("a"), b = library("b"), shared = try folder("shared")
        try cravey(a, ["craving", "3"])
        try synced(a, ["--folder", shared])
        try synced(b, ["--folder", shared])

        // Kept and said while the folder does not answer: a message, a check-in, a play of it.
        let mount = try HungMount(over: shared)
        let made = try timed(a, ["record", "audio", "--mic", "cravey_file", "--max-seconds", "2", "--title", "Stay"])
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertLessThan(made.seconds, 2 + 2 + moment, "two seconds of sound, the exit wait, a moment")
        let id = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let checkIn = try timed(a, ["checkin", "--mood", "okay", "--mic", "cravey_file", "--max-seconds", "2"])
        XCTAssertEqual(checkIn.status, 0, checkIn.stderr)
        XCTAssertTrue(checkIn.stdout.contains("Saved for today"), checkIn.stdout)
        XCTAssertLessThan(checkIn.seconds, 2 + 2 + moment)
        let played = try timed(a, ["play", id, "--speaker", "cravey_capture"])
        XCTAssertEqual(played.status, 0, played.stderr)
        XCTAssertLessThan(played.seconds, 2 + 2 + moment, "a play count pushes; its wait is bounded")
        mount.end()

        // The sync that copies the file stops answering half-way: said, nothing taken by B.
        let media = try deviceDirectory(shared, a) + "/media"
        let hung = try timed(a, ["sync"], ["CRAVEY_FAULT_HANG": "sync.media.out:60"])
        assertSaidInTime(hung, shared)
        try synced(b)
        let there = try names(media)
        XCTAssertEqual(try listed(b).count, 0, "nothing partial: \(there)")

        // Killed half-way through the copy: B takes nothing partial either.
        let program = Process()
        program.executableURL = URL(fileURLWithPath: cravey)
        program.arguments = ["sync", "--library", a]
        program.environment = ProcessInfo.processInfo.environment.merging(
            environment(["CRAVEY_FAULT_HANG": "sync.media.out:60"])
        ) { $1 }
        program.standardOutput = FileHandle.nullDevice
        program.standardError = FileHandle.nullDevice
        try program.run()
        let deadline = Date().addingTimeInterval(8)
        while Date() < deadline, !((try? names(media)) ?? []).contains(where: { $0.hasSuffix(".new") }) {
            usleep(50_000)
        }
        let copying = try names(media)
        XCTAssertTrue(copying.contains { $0.hasSuffix(".new") }, "the copy under way: \(copying)")
        kill(program.processIdentifier, SIGKILL)
        program.waitUntilExit()
        try synced(b)
        XCTAssertEqual(try listed(b).count, 0, "nothing partial")

        // The next sync carries both whole.
        try synced(a)
        try synced(b)
        XCTAssertEqual(
            try listed(b).first { $0["id"] as? String == id }?["duration"] as? Double ?? 0, 2, accuracy: 0.05)
        let checkIns = try json(try cravey(b, ["checkin", "list", "--json"]).stdout) as! [[String: Any]]
        XCTAssertEqual(checkIns.count, 1, "the check-in too")
        XCTAssertEqual(try listed(b).first { $0["id"] as? String == id }?["playCount"] as? Int, 1, "and its play")
        try cravey(a, ["check"])
        try cravey(b, ["check"])
    }

    func testAUseIsSaidInMomentsWhenTheFolderAnswersALookButNotAReadOfItsFiles() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"), "strace is not here")
        let (a, b, shared) = try machineWithACraving()
        try synced(b, ["--folder", shared])
        try cravey(b, ["craving", "3", "--notes", "news from the other machine"])  // something new for a
        let file = try deviceDirectory(shared, b) + "/changes.jsonl"

        // The folder's directories answer, but a read of the other machine's changes waits 15 s
        // (a network mount whose server keeps what it knew of the names, and not the files).
        let seconds = try secondsTo(
            "logged",
            [
                "/usr/bin/strace", "-f", "-qq", "-o", "/dev/null", "-P", file, "-e", "trace=pread64", "-e",
                "inject=pread64:delay_enter=15s", cravey, "use", "vape", "1", "--notes", "used while reads hang",
                "--library", a,
            ])
        XCTAssertLessThan(try XCTUnwrap(seconds), 2 + moment, "said after the moment a change waits for the folder")
        XCTAssertTrue(try logText(a).contains("used while reads hang"), "kept in the library")

        // The folder answers again: its news come in, and the use goes out, once.
        XCTAssertEqual(try synced(a)["waiting"] as? Int, 0)
        XCTAssertTrue(try logText(a).contains("news from the other machine"))
        try synced(b)
        XCTAssertEqual(try logText(b).components(separatedBy: "used while reads hang").count, 2, "once")
    }

    func testHomeLogsACravingAndRidesItOutAtAFolderThatStopsAnsweringAndQuitsInMoments() throws {
        let (a, _, shared) = try machineWithACraving()
        let mount = try HungMount(over: shared)
        defer { mount.end() }
        let variables = environment([:]).map { "\($0.key)=\(shellQuote($0.value))" }.sorted().joined(separator: " ")
        let inner = "exec env \(variables) \(shellQuote(cravey)) home --library \(shellQuote(a))"
        let tmux = try TmuxSession("sh -c \(shellQuote(inner)); echo EXIT=$?; sleep 60", width: 100, height: 40)
        defer { tmux.close() }
        try tmux.waitUntil("home, or the welcome") { $0.contains("c Log craving") || $0.contains("LOG CRAVING") }

        // A craving: its words in moments, then home again.
        try tmux.send("c", literal: true)
        try tmux.waitFor("Log Craving")
        var started = Date()
        try tmux.send("Enter")
        try tmux.waitFor("Craving logged ✓ — 5 (moderate)")
        let toWords = Date().timeIntervalSince(started)
        try tmux.send("Enter")  // not now
        try tmux.waitUntil("home again") { $0.contains("c Log craving") || $0.contains("LOG CRAVING") }
        // A ride: begun and ended as ever.
        try tmux.send("o", literal: true)
        try tmux.waitFor("How strong is it?")
        try tmux.send("6", literal: true)
        try tmux.waitFor("How strong: 6")
        try tmux.send("q", literal: true)
        try tmux.waitUntil("home after the ride") { $0.contains("c Log craving") || $0.contains("LOG CRAVING") }
        started = Date()
        try tmux.send("q", literal: true)
        let ended = try tmux.waitFor("EXIT=")
        let toExit = Date().timeIntervalSince(started)
        print("home at a folder that does not answer: the craving's words after \(toWords) s, gone \(toExit) s after q")
        XCTAssertTrue(ended.contains("EXIT=0"), ended)
        XCTAssertLessThan(toWords, moment, "a hard moment never waits on the folder")
        XCTAssertLessThan(toExit, 2 + moment, "the exit wait and a moment")
        mount.end()
        XCTAssertEqual((try json(try cravey(a, ["log", "--json"]).stdout) as? [Any])?.count, 3, "both kept")
        XCTAssertEqual(try synced(a)["waiting"] as? Int, 0, "and written by the next sync")
    }

    /// The sync runs on a thread of its own: the library it opened is closed in line as the
    /// command ends, whole, never by that thread as the process ends (a database then cut short
    /// half-way through its last write would be rebuilt by the next command).
    func testTheLibraryASyncOpensIsClosedWholeAsItEnds() throws {
        for round in 0..<30 {
            let a = library("a-\(round)"), shared = try folder("shared-\(round)")
            for arguments in [["sync", "--folder", shared], ["settings", "name", "Sam"], ["sync"], ["check"]] {
                let ran = try cravey(a, arguments)
                XCTAssertEqual(ran.stderr, "", "round \(round), \(arguments): nothing said of a damaged library")
            }
        }
    }
}
