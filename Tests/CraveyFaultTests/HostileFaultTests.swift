import CraveyLibrary
import CraveyTestSupport
import Foundation
import XCTest

/// The campaign's hostile data and interruptions: rows written by another program, hostile
/// arguments, foreign files through purge and repair, kill -9 at every step of a recording and
/// its recovery, and the order in which success reaches the disk (see `FaultCampaign`).
final class HostileFaultTests: FaultCampaign {
    // MARK: - Hostile rows, arguments and leftovers

    func testHostileRows() throws {
        var baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        let rows = try listed(root)
        let audio = rows.first { $0["kind"] as? String == "audio" }!
        let video = rows.first { $0["kind"] as? String == "video" }!
        let audioID = audio["id"] as! String, videoID = video["id"] as! String
        // Escape sequences in stored text never reach the terminal.
        Self.faults += 1
        try sqlite(
            root,
            "UPDATE recording SET title = 'Pwn' || char(27) || ']0;owned' || char(7) || char(27) || '[2J' || char(8238) || char(155), notes = char(27) || '[31mred' WHERE id = '\(audioID)'"
        )
        let raw = ["\u{1B}", "\u{07}", "\u{202E}", "\u{9B}"]
        for command in [["list"], ["top"], ["show", audioID], ["list", "--json"], ["show", audioID, "--json"]] {
            let result = try run(command, root)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertFalse(
                raw.contains { result.stdout.contains($0) }, "\(command) printed raw control or direction characters")
        }
        let json = try run(["list", "--json"], root).stdout
        XCTAssertTrue(
            json.contains("\\u001b]0;owned\\u0007") && json.contains("\\u202e\\u009b"), "JSON escapes them: \(json)")
        // A title that is not UTF-8 at all, and absurd numbers: no crash.
        Self.faults += 1
        try sqlite(
            root, "UPDATE recording SET title = X'C3289FFF', playCount = 9223372036854775807 WHERE id = '\(audioID)'")
        for command in [
            ["list"], ["top", "9223372036854775807"], ["show", audioID],
            ["export", "--format", "csv", "--output", "-"],
        ] {
            let result = try run(command, root)
            XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
        }
        // A thumbnail path leading out of the library, or to another recording's file.
        Self.faults += 1
        try plant(base + "/private.jpg", "private", into: &baseline)
        try sqlite(
            root,
            "UPDATE recording SET thumbnailPath = 'Recordings/Thumbnails/../../../private.jpg' WHERE id = '\(videoID)'")
        let shown = try run(["show", videoID], root)
        XCTAssertFalse(shown.stdout.contains(base + "/private.jpg"), shown.stdout)
        try sqlite(
            root, "UPDATE recording SET thumbnailPath = '\(audio["filePath"] as! String)' WHERE id = '\(videoID)'")
        assertOneLineError(
            try run(["delete", videoID, "--yes"], root), containing: "refusing", "a thumbnail naming another recording")
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: root + "/" + (audio["filePath"] as! String)),
            "the other recording's file is there")
        // check reports invalid rows: non-UUID ids, negative durations and play counts.
        Self.faults += 1
        try sqlite(
            root,
            """
            INSERT INTO recording (id, createdAt, kind, title, duration, filePath, modifiedAt, playCount)
              VALUES ('not-a-uuid', '2025-01-01T00:00:00.000Z', 'audio', 'x', 3, 'Recordings/x.m4a', '2025-01-01T00:00:00.000Z', 0);
            """)
        try sqlite(
            root,
            "PRAGMA ignore_check_constraints = 1; UPDATE recording SET title = 'ok', notes = NULL, duration = -4, playCount = -1 WHERE id = '\(audioID)'"
        )
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
        for (title, what) in [
            (combining, "combining marks"), ("Remember\u{202E}txt.exe", "a direction override"),
            ("zero\u{200B}width", "a zero-width space"), ("line\u{2028}break", "a line separator"),
            ("esc\u{1B}[2J", "an escape"),
        ] {
            Self.faults += 1
            let result = try record(root, title: title)
            assertOneLineError(result, containing: "invalid title", what)
            XCTAssertFalse(result.stderr.contains("\u{1B}"), "the error echoes no escape")
            XCTAssertEqual(
                try FileManager.default.contentsOfDirectory(atPath: root + "/.incoming"), ["draft.txt"],
                "no device opened, nothing captured")
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
            assertOneLineError(
                try run(["export", "--format", "csv", "--output", output, "--force"], root),
                containing: "not a regular file", output)
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
        assertOneLineError(
            try run(["purge", "--yes"], documents), containing: "not a cravey library",
            "a directory that is not a library")
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
            try FileManager.default.createDirectory(
                atPath: baseline.root + "/Recordings", withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            chmod(baseline.root, 0o700)
            try plant(baseline.root + "/Recordings/mine.txt", "mine", into: &baseline)
            let result = try record(
                baseline.root, title: "Kill \(step)", environment: ["CRAVEY_FAULT_KILL_AT": String(step)])
            XCTAssertFalse(result.stderr.contains("Qavg"), "FFmpeg's log stays quiet: \(result.stderr)")
            if result.status != -SIGKILL {
                XCTAssertEqual(result.status, 0, result.stderr)
                break
            }
            points += 1
            Self.faults += 1
            let left = ((try? FileManager.default.contentsOfDirectory(atPath: baseline.root + "/.incoming")) ?? [])
                .filter { $0.hasPrefix("rec_") }
            if !left.isEmpty {
                // Kill the recovery itself at each of its steps, then let it finish.
                for recoveryStep in 1...30 {
                    let opened = try run(
                        ["list"], baseline.root, environment: ["CRAVEY_FAULT_KILL_AT": String(recoveryStep)])
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
                baseline.saved[row["id"] as! String] = try Data(
                    contentsOf: URL(fileURLWithPath: baseline.root + "/" + (row["filePath"] as! String)))
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
        XCTAssertTrue(
            FileManager.default.isExecutableFile(atPath: strace), "strace is installed by Tests/install-deps.sh")
        let root = base + "/lib"
        XCTAssertEqual(try run(["list"], root).status, 0)
        let tone = base + "/tone.wav"
        _ = try runProcess("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=d=2", tone])

        func trace(_ arguments: [String]) throws -> [String] {
            let out = base + "/trace-\(UUID().uuidString.prefix(6)).txt"
            let result = try runProcess(
                strace,
                [
                    "-f", "-y", "-qq", "-o", out, "-e",
                    "trace=fsync,fdatasync,rename,renameat,renameat2,unlink,unlinkat,write",
                    cravey,
                ] + arguments + ["--library", root])
            XCTAssertEqual(result.status, 0, result.stderr)
            return try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map(String.init)
        }
        func index(
            _ lines: [String], after start: Int = 0, _ matches: (String) -> Bool, _ what: String,
            file: StaticString = #filePath, line: UInt = #line
        ) -> Int {
            guard let found = lines.indices.dropFirst(start).first(where: { matches(lines[$0]) }) else {
                XCTFail("no \(what) after line \(start)", file: file, line: line)
                return lines.count
            }
            return found
        }
        let walSync = { (line: String) in
            (line.contains("fsync(") || line.contains("fdatasync(")) && line.contains("library.sqlite-wal>")
        }
        let printed = { (text: String) in { (line: String) in line.contains("write(1<") && line.contains(text) } }

        // Save (an import).
        let save = try trace(["import", tone, "--title", "Durable"])
        let stagedSync = index(
            save, { $0.contains("fsync(") && $0.contains("/.incoming/save_") }, "fsync of the staged file")
        let intent = index(save, after: stagedSync, walSync, "a durable save intent")
        let renamed = index(
            save, after: intent,
            { $0.contains("rename") && $0.contains("/.incoming/save_") && $0.contains("/Recordings/audio_") },
            "the rename into Recordings/")
        let dirSync = index(
            save, after: renamed, { $0.contains("fsync(") && $0.hasSuffix("/Recordings>) = 0") }, "fsync of Recordings/"
        )
        let commit = index(save, after: dirSync, walSync, "a durable row commit")
        let saved = index(save, after: commit, printed("Imported"), "the success message")
        XCTAssertLessThan(saved, save.count)

        let id = try listed(root).first!["id"] as! String
        // A play count and an edit: committed durably before the message.
        let edit = try trace(["edit", id, "--title", "Edited"])
        _ = index(
            edit, after: index(edit, walSync, "a durable edit"), printed("Updated"), "the message after the commit")

        // Delete: moved aside, directory fsynced, row deletion durable, then the file removed.
        let delete = try trace(["delete", id, "--yes"])
        let moved = index(
            delete, { $0.contains("rename") && $0.contains("/Recordings/audio_") && $0.contains("/.trash/") },
            "the move to .trash")
        let deleteDir = index(
            delete, after: moved, { $0.contains("fsync(") && $0.hasSuffix("/Recordings>) = 0") }, "fsync of Recordings/"
        )
        let deleteCommit = index(delete, after: deleteDir, walSync, "a durable row deletion")
        let removed = index(
            delete, after: deleteCommit, { $0.contains("unlink") && $0.contains("/.trash/audio_") }, "the file removed")
        _ = index(delete, after: removed, printed("Deleted"), "the message")

        // A craving and a use: their commits, then their lines in the journal of logs, are durable
        // before "logged ✓" (the first line also the library directory that now holds the journal).
        for (arguments, message) in [(["craving", "7"], "Craving logged"), (["use", "vape", "2"], "Usage logged")] {
            let log = try trace(arguments)
            let commit = index(log, walSync, "a durable log commit")
            let appended = index(
                log, after: commit, { $0.contains("write(") && $0.contains("/logs.journal>") }, "the journal's line")
            var durable = index(
                log, after: appended, { $0.contains("fsync(") && $0.contains("/logs.journal>") }, "fsync of the journal"
            )
            if arguments[0] == "craving" {
                durable = index(
                    log, after: durable, { $0.contains("fsync(") && $0.hasSuffix("/lib>) = 0") },
                    "fsync of the directory holding the new journal")
            }
            _ = index(log, after: durable, printed(message), "the message after the journal")
        }
        Self.cases += 5
    }

    /// The ids of the logs a database loss right now would give back: those of a copy of the
    /// library whose database is deleted (rebuilt from its snapshot and its journal of logs).
    func logsAfterLosingTheDatabase(_ root: String) throws -> Set<String> {
        let copy = base + "/lost-\(UUID().uuidString.prefix(6))"
        XCTAssertEqual(try runProcess("/bin/cp", ["-a", root, copy]).status, 0)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        for suffix in ["", "-wal", "-shm"] { unlink(copy + "/library.sqlite" + suffix) }
        let result = try run(["log", "--json"], copy)
        XCTAssertEqual(result.status, 0, result.stderr)
        return Set(
            (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []).compactMap {
                $0["id"] as? String
            })
    }

    /// SIGKILL at every step of a log write (a craving, a use that follows it, an edit, a linked
    /// delete) and of the journal's trim: each log is wholly there or wholly absent, there whenever
    /// "logged" was printed — in the database and, after a later loss of it, from the journal.
    func testKillAtEveryStepOfALogWrite() throws {
        let root = base + "/logs"
        XCTAssertEqual(try run(["list"], root).status, 0)
        func logs() throws -> [[String: Any]] {
            let result = try run(["log", "--json"], root)
            XCTAssertEqual(result.status, 0, result.stderr)
            return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [[String: Any]]
        }
        var points = 0
        let steps: [(arguments: [String], printed: String, change: Int)] = [
            (["craving", "8", "--trigger", "anxious", "--notes", "kill me"], "Craving logged", 1),
            (["use", "vape", "3", "--after-craving", "last"], "Usage logged", 1),
        ]
        for (arguments, printed, change) in steps {
            var step = 1
            while step < 20 {
                let before = try logs().count
                let result = try run(arguments, root, environment: ["CRAVEY_FAULT_KILL_AT": String(step)])
                let after = try logs()
                if result.status != -SIGKILL {
                    XCTAssertEqual(result.status, 0, result.stderr)
                    XCTAssertEqual(after.count, before + change)
                    break
                }
                points += 1
                Self.faults += 1
                let lost = try logsAfterLosingTheDatabase(root)  // before any other command
                XCTAssertTrue(
                    [before, before + change].contains(after.count),
                    "\(arguments) killed at step \(step): wholly there or absent")
                if result.stdout.contains(printed) {
                    XCTAssertEqual(after.count, before + change, "printed, so kept")
                    XCTAssertEqual(
                        lost.count, before + change, "printed, so kept through a lost database (step \(step))")
                }
                for log in after where log["kind"] as? String == "craving" {
                    XCTAssertEqual(log["notes"] as? String, "kill me", "no half-written craving")
                }
                XCTAssertEqual(try run(["check"], root).status, 0, "killed at step \(step): the library checks clean")
                XCTAssertEqual(
                    try logsAfterLosingTheDatabase(root), Set(after.compactMap { $0["id"] as? String }),
                    "killed at step \(step): after the next command the journal agrees with the database")
                step += 1
            }
        }
        // A linked delete killed at each step: both there, or both gone.
        let craving = try XCTUnwrap(try logs().first { $0["kind"] as? String == "craving" }?["id"] as? String)
        var step = 1
        while step < 20 {
            let before = try logs()
            let linked = before.filter { $0["cravingId"] as? String == craving }.count
            let result = try run(
                ["log", "delete", craving, "--with-linked", "--yes"], root,
                environment: ["CRAVEY_FAULT_KILL_AT": String(step)])
            let after = try logs()
            if result.status != -SIGKILL {
                XCTAssertEqual(result.status, 0, result.stderr)
                XCTAssertEqual(after.count, before.count - 1 - linked)
                break
            }
            points += 1
            Self.faults += 1
            XCTAssertTrue(
                [before.count, before.count - 1 - linked].contains(after.count), "delete killed at step \(step)")
            if after.count == before.count - 1 - linked { break }  // killed after its commit: done
            step += 1
        }
        // The day's first change takes the snapshot and empties the journal: killed at each step.
        step = 1
        while step < 40 {
            _ = try runProcess("/bin/sh", ["-c", "rm -f '\(root)'/Snapshots/*"])
            let before = try logs().count
            let result = try run(["craving", "2"], root, environment: ["CRAVEY_FAULT_KILL_AT": String(step)])
            let lost = try logsAfterLosingTheDatabase(root)
            let after = try logs()
            if result.stdout.contains("Craving logged") {
                XCTAssertEqual(lost.count, before + 1, "trim killed at step \(step): printed, so kept")
            }
            XCTAssertEqual(try run(["check"], root).status, 0, "trim killed at step \(step)")
            XCTAssertEqual(
                try logsAfterLosingTheDatabase(root), Set(after.compactMap { $0["id"] as? String }),
                "trim killed at step \(step)")
            if result.status != -SIGKILL { break }
            points += 1
            Self.faults += 1
            step += 1
        }
        XCTAssertGreaterThan(step, 4, "the snapshot and the trim were killed at several steps")
        Self.cases += 4
        XCTAssertGreaterThanOrEqual(points, 4, "a kill before and after each commit")
        print("log kill points: \(points)")
    }
}
