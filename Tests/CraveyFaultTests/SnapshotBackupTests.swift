import CraveyTestSupport
import Foundation
import XCTest

/// Nothing lost when the database is: the files' own tags, the daily snapshots, backup and
/// restore — each under the faults of the campaign (lost, cut-short and overwritten databases,
/// SIGKILL at every step), counted with its figures.
final class SnapshotBackupTests: FaultCampaign {
    func tag(_ key: String, of path: String) throws -> String? {
        let result = try runProcess(
            "/usr/bin/ffprobe",
            ["-v", "error", "-show_entries", "format_tags=\(key)", "-of", "default=nw=1:nk=1", path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = result.stdout.trimmingCharacters(in: .newlines)
        return text.isEmpty ? nil : text
    }

    func description(of path: String) throws -> [String: Any] {
        let json = try XCTUnwrap(try tag("cravey", of: path), "\(path) carries its description")
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    func shown(_ id: String, _ root: String) throws -> [String: Any] {
        let result = try run(["show", id, "--json"], root)
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    var microphone: [String: String] {
        ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_INFILE": phraseFixture, "CRAVEY_TRANSCRIBE": "later"]
    }

    /// What a library holds that a user would miss, per recording: the details, the check-in, the
    /// transcript's text.
    func contents(_ root: String) throws -> [String: String] {
        var result: [String: String] = [:]
        let all = try run(["export", "--format", "json", "--output", "-"], root)
        XCTAssertEqual(all.status, 0, all.stderr)
        for row in try listed(root) + (try checkIns(root)) {
            let id = row["id"] as! String
            let show = try shown(id, root)
            let transcript = (show["transcript"] as? [String: Any])?["text"] as? String ?? "-"
            let duration = String(format: "%.2f", show["duration"] as? Double ?? -1)
            result[id] = [
                show["title"], show["notes"], show["purpose"], show["createdAt"], show["checkinDay"], show["mood"],
                show["prompt"], transcript, duration, show["forTriggers"],
            ]
            .map { ($0 as? String) ?? "-" }.joined(separator: "|")
        }
        return result
    }

    func checkIns(_ root: String) throws -> [[String: Any]] {
        let result = try run(["checkin", "list", "--json"], root)
        XCTAssertEqual(result.status, 0, result.stderr)
        return (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]) ?? []
    }

    // MARK: - The files' own tags

    func testEachFileCarriesItsOwnDescription() throws {
        let baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        let rows = try listed(root)
        let video = try XCTUnwrap(rows.first { $0["kind"] as? String == "video" })
        let file = root + "/" + (video["filePath"] as! String)
        XCTAssertEqual(try tag("title", of: file), "Day 30", "an import is tagged")
        XCTAssertEqual(try description(of: file)["createdAt"] as? String, video["createdAt"] as? String)
        // An edit rewrites the tags; any MP4 reader (MediaInfo is not FFmpeg) shows the title.
        let edited = try run(
            ["edit", video["id"] as! String, "--title", "Day 31 ☀", "--notes", "a walk", "--purpose", "milestone"], root
        )
        XCTAssertEqual(edited.status, 0, edited.stderr)
        XCTAssertEqual(try tag("title", of: file), "Day 31 ☀")
        XCTAssertEqual(try tag("comment", of: file), "a walk")
        XCTAssertEqual(try description(of: file)["purpose"] as? String, "milestone")
        let mediainfo = try runProcess("/usr/bin/mediainfo", ["--Output=General;%title%", file])
        XCTAssertTrue(mediainfo.stdout.contains("Day 31 ☀"), mediainfo.stdout)
        XCTAssertEqual(
            try shown(video["id"] as! String, root)["sizeBytes"] as? Int,
            Int(try FileManager.default.attributesOfItem(atPath: file)[.size] as! UInt64),
            "the row's size follows the file's")
        // A check-in carries its day, mood and question; a transcript its text and words.
        let checkIn = try run(
            ["checkin", "--mood", "4", "--mic", "cravey_file", "--max-seconds", "2", "--json"], root,
            environment: microphone)
        XCTAssertEqual(checkIn.status, 0, checkIn.stderr)
        let entry = try XCTUnwrap(try checkIns(root).first)
        let made = try run(["transcribe", "--all", "--engine", "pocketsphinx", "--wait"], root)
        XCTAssertEqual(made.status, 0, made.stderr)
        let checkInFile = root + "/" + (entry["filePath"] as! String)
        let described = try description(of: checkInFile)
        let part = try XCTUnwrap(described["checkIn"] as? [String: Any])
        XCTAssertEqual(part["day"] as? String, entry["checkinDay"] as? String)
        XCTAssertEqual(part["mood"] as? String, "happy")
        XCTAssertEqual(part["question"] as? String, entry["prompt"] as? String)
        let transcript = try XCTUnwrap(described["transcript"] as? [String: Any])
        let stored = try XCTUnwrap(try shown(entry["id"] as! String, root)["transcript"] as? [String: Any])
        XCTAssertEqual(transcript["text"] as? String, stored["text"] as? String)
        XCTAssertFalse((transcript["words"] as? [Any] ?? []).isEmpty, "the words with their times")
        try assertIntact(baseline, "tags written")
    }

    func testAnEditKilledAtEveryStepLeavesOldOrNewTagsAndAPlayableFile() throws {
        let baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        let audio = try XCTUnwrap(try listed(root).first { $0["kind"] as? String == "audio" })
        let id = audio["id"] as! String
        let file = root + "/" + (audio["filePath"] as! String)
        var step = 1, previous = "Why I started"
        while step < 30 {
            Self.faults += 1
            let title = "Title \(step)"
            let killed = try run(
                ["edit", id, "--title", title], root, environment: ["CRAVEY_FAULT_KILL_AT": String(step)])
            let now = try XCTUnwrap(try tag("title", of: file), "step \(step): the file is readable and tagged")
            XCTAssertTrue([previous, title].contains(now), "step \(step): old or new tags, found '\(now)'")
            // The same media, packet for packet; check agrees.
            try assertIntact(baseline, "an edit killed at step \(step)")
            // The next command finishes the tags: they say what the row says.
            let row = try shown(id, root)
            XCTAssertEqual(try tag("title", of: file), row["title"] as? String, "step \(step): the tags follow the row")
            previous = row["title"] as! String
            if killed.status != -SIGKILL { break }
            step += 1
        }
        XCTAssertGreaterThan(step, 3, "the edit was killed at several steps")
    }

    // MARK: - Snapshots and the rebuild

    func testALostDatabaseComesBackFromTheSnapshotAndTheFiles() throws {
        var baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        // The import above was the day's second change: the snapshot holds the first recording.
        let snapshots = try FileManager.default.contentsOfDirectory(atPath: root + "/Snapshots")
        XCTAssertEqual(snapshots.count, 1, "\(snapshots)")
        let snapshot = root + "/Snapshots/" + snapshots[0]
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: snapshot)[.posixPermissions] as? Int, 0o600)
        XCTAssertEqual(try runProcess("/usr/bin/sqlite3", [snapshot, "PRAGMA integrity_check"]).stdout, "ok\n")
        // After it: an edit, a trim, a check-in, transcripts, a craving.
        let first = try XCTUnwrap(try listed(root).first { $0["title"] as? String == "Why I started" })["id"] as! String
        XCTAssertEqual(
            try run(
                [
                    "edit", first, "--title", "Why I started, again", "--notes", "for Mia", "--purpose", "motivational",
                    "--for", "bored,anxious",
                ],
                root
            ).status, 0)
        let trimmed = try run(["trim", first, "--end", "1.5"], root)
        XCTAssertEqual(trimmed.status, 0, trimmed.stderr)
        XCTAssertEqual(try shown(first, root)["duration"] as? Double ?? 0, 1.5, accuracy: 0.03)
        // The trimmed one.
        baseline.saved[first] = try Data(
            contentsOf: URL(fileURLWithPath: root + "/" + (try shown(first, root)["filePath"] as! String)))
        XCTAssertEqual(
            try run(
                ["checkin", "--mood", "2", "--mic", "cravey_file", "--max-seconds", "2"], root, environment: microphone
            ).status, 0)
        // The transcripts made by the background worker, as for everyone (its lock file stays).
        XCTAssertEqual(
            try run(
                ["transcribe", "--all", "--engine", "pocketsphinx"], root,
                environment: ["CRAVEY_TRANSCRIBE": "background"]
            ).status, 0)
        let deadline = Date().addingTimeInterval(60)
        // Until the queue is empty and the worker is gone (a lock left by an earlier worker is no
        // sign that this one has started).
        while Date() < deadline,
            try run(["list"], root).stdout.contains("on its way")
                || !FileManager.default.fileExists(atPath: root + "/transcripts.lock")
                || runProcess("/usr/bin/sqlite3", [root + "/library.sqlite", "SELECT count(*) FROM transcriptJob"])
                    .stdout != "0\n"
                || runProcess("/usr/bin/flock", ["-n", root + "/transcripts.lock", "true"]).status != 0
        {
            usleep(200_000)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/transcripts.lock"), "the worker ran")
        // Logs and settings typed after the snapshot: logged, edited, deleted, a name and a goal.
        XCTAssertEqual(try run(["craving", "6", "--trigger", "bored", "--notes", "after lunch"], root).status, 0)
        XCTAssertEqual(try run(["craving", "3"], root).status, 0)
        XCTAssertEqual(try run(["use", "edible", "10", "--after-craving", "last"], root).status, 0)
        XCTAssertEqual(try run(["ride", "8", "--ratings", "6,4", "--minutes-apart", "5"], root).status, 0)
        let logsNow =
            try JSONSerialization.jsonObject(with: Data(try run(["log", "--json"], root).stdout.utf8))
            as! [[String: Any]]
        let mild = logsNow.first { $0["intensity"] as? Int == 3 }!["id"] as! String
        let bored = logsNow.first { $0["intensity"] as? Int == 6 }!["id"] as! String
        XCTAssertEqual(try run(["log", "edit", bored, "--intensity", "8", "--location", "work"], root).status, 0)
        XCTAssertEqual(try run(["log", "delete", mild, "--yes", "--keep-linked"], root).status, 0)
        XCTAssertEqual(try run(["settings", "name", "Mia"], root).status, 0)
        XCTAssertEqual(try run(["settings", "goal", "cut-down"], root).status, 0)
        let before = try contents(root)
        XCTAssertEqual(before.count, 3)
        XCTAssertTrue(before[first]!.hasSuffix("|anxious,bored"), "made for, in the set's order: \(before[first]!)")
        let logsBefore = try run(["log", "--json"], root).stdout
        let settingsBefore = try run(["settings"], root).stdout
        XCTAssertTrue(
            logsBefore.contains("after lunch") && !logsBefore.contains(mild) && settingsBefore.contains("Mia")
                && logsBefore.contains(#""ratings":"0:8 300:6 600:4""#),
            logsBefore + settingsBefore)
        let pristine = base + "/pristine"
        XCTAssertEqual(try runProcess("/bin/cp", ["-a", root, pristine]).status, 0)
        for damage in ["deleted", "cut short", "overwritten with random bytes"] {
            Self.faults += 1
            _ = try runProcess("/bin/rm", ["-rf", root])
            XCTAssertEqual(try runProcess("/bin/cp", ["-a", pristine, root]).status, 0)
            let db = root + "/library.sqlite"
            for suffix in ["-wal", "-shm"] { unlink(db + suffix) }
            switch damage {
            case "deleted": unlink(db)
            case "cut short": XCTAssertEqual(truncate(db, 8192), 0)
            default:
                let size = try FileManager.default.attributesOfItem(atPath: db)[.size] as! UInt64
                try Data((0..<Int(size)).map { _ in UInt8.random(in: 0...255) }).write(to: URL(fileURLWithPath: db))
            }
            let result = try run(["list"], root)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stderr.contains("rebuilt it from the snapshot of"), "\(damage): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one line: \(result.stderr)")
            XCTAssertEqual(
                try contents(root), before,
                "\(damage): titles, notes, purposes, the check-in and the transcripts come back")
            XCTAssertEqual(
                try run(["log", "--json"], root).stdout, logsBefore, "\(damage): every log, as it was last typed")
            XCTAssertEqual(try run(["settings"], root).stdout, settingsBefore, "\(damage): the name and the goal")
            try assertIntact(baseline, "a database \(damage)")
            if damage != "deleted" {
                XCTAssertTrue(
                    try FileManager.default.contentsOfDirectory(atPath: root).contains {
                        $0.hasPrefix("library.sqlite.damaged-")
                    },
                    "\(damage): the damaged database is kept")
            }
        }
        // Without any snapshot, the tags and the journal alone give everything back.
        Self.faults += 1
        _ = try runProcess("/bin/rm", ["-rf", root + "/Snapshots"])
        for suffix in ["", "-wal", "-shm"] { unlink(root + "/library.sqlite" + suffix) }
        let alone = try run(["list"], root)
        XCTAssertTrue(
            alone.stderr.contains(
                "rebuilt it from the journal of logs and the recordings' files (3 listed again with their own details"),
            alone.stderr)
        XCTAssertEqual(try contents(root), before)
        try assertIntact(baseline, "a database lost with no snapshot")
        // A damaged newest snapshot is passed over for an older good one.
        Self.faults += 1
        _ = try runProcess("/bin/rm", ["-rf", root])
        XCTAssertEqual(try runProcess("/bin/cp", ["-a", pristine, root]).status, 0)
        let older = root + "/Snapshots/library-2020-01-06.sqlite"
        XCTAssertEqual(try runProcess("/bin/cp", ["-p", root + "/Snapshots/" + snapshots[0], older]).status, 0)
        XCTAssertEqual(truncate(root + "/Snapshots/" + snapshots[0], 4096), 0)
        for suffix in ["", "-wal", "-shm"] { unlink(root + "/library.sqlite" + suffix) }
        let passedOver = try run(["list"], root)
        XCTAssertTrue(passedOver.stderr.contains("rebuilt it from the snapshot of 2020-01-06"), passedOver.stderr)
        XCTAssertEqual(try contents(root), before)
        try assertIntact(baseline, "a damaged newest snapshot")
    }

    func testTheJournalOfLogsKeepsNoDeletedNotesAndCheckKeepsItInStep() throws {
        let root = base + "/lib"
        // The second log of the day takes the day's snapshot first, which empties the journal.
        XCTAssertEqual(try run(["craving", "5"], root).status, 0)
        XCTAssertEqual(try run(["craving", "7", "--notes", "kept"], root).status, 0)
        let journal = root + "/logs.journal"
        XCTAssertEqual(
            try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n").count, 1,
            "only what came after the snapshot")
        XCTAssertEqual(try run(["craving", "4", "--notes", "a secret of mine"], root).status, 0)
        XCTAssertTrue(try String(contentsOfFile: journal, encoding: .utf8).contains("a secret of mine"))
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: journal)[.posixPermissions] as? Int, 0o600)
        let logs =
            try JSONSerialization.jsonObject(with: Data(try run(["log", "--json"], root).stdout.utf8))
            as! [[String: Any]]
        let secret = logs.first { $0["notes"] as? String == "a secret of mine" }!["id"] as! String
        XCTAssertEqual(try run(["log", "delete", secret, "--yes"], root).status, 0)
        // Deleted means deleted: its notes leave the journal at once; a line marks it deleted.
        let text = try String(contentsOfFile: journal, encoding: .utf8)
        XCTAssertFalse(text.contains("a secret of mine"), text)
        XCTAssertTrue(text.contains(secret) && text.contains("kept"), text)
        // A journal out of step with the database (a line lost): check says so, repair writes it again.
        Self.faults += 1
        let lines = text.split(separator: "\n").filter { !$0.contains("kept") }
        try (lines.joined(separator: "\n") + "\n").write(toFile: journal, atomically: false, encoding: .utf8)
        let checked = try run(["check"], root)
        XCTAssertNotEqual(checked.status, 0)
        XCTAssertTrue(checked.stdout.contains("the journal of logs differs from the database"), checked.stdout)
        XCTAssertEqual(try run(["check", "--repair"], root).status, 0)
        XCTAssertEqual(try run(["check"], root).status, 0)
        let before = try run(["log", "--json"], root).stdout
        for suffix in ["", "-wal", "-shm"] { unlink(root + "/library.sqlite" + suffix) }
        XCTAssertEqual(try run(["log", "--json"], root).stdout, before, "the repaired journal gives every log back")
        // Delete all data: the journal goes too.
        XCTAssertEqual(try run(["purge", "--yes"], root).status, 0)
        XCTAssertFalse(
            (try? String(contentsOfFile: journal, encoding: .utf8))?.contains("kept") ?? false,
            "purge leaves no log in the journal")
        Self.cases += 1
    }

    func testADeletedRecordingLeavesTheSnapshotsToo() throws {
        let baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        let first = try XCTUnwrap(try listed(root).first { $0["title"] as? String == "Why I started" })["id"] as! String
        XCTAssertEqual(try run(["edit", first, "--notes", "Mia's birthday"], root).status, 0)
        let snapshot =
            root + "/Snapshots/" + (try FileManager.default.contentsOfDirectory(atPath: root + "/Snapshots"))[0]
        XCTAssertNotNil(
            try Data(contentsOf: URL(fileURLWithPath: snapshot)).range(of: Data("Why I started".utf8)), "the control")
        // The snapshot cannot be changed right after the delete (a fault): the next command does it.
        Self.faults += 1
        let deleted = try run(["delete", first, "--yes"], root, environment: ["CRAVEY_FAULT_FAIL": "scrub.snapshot"])
        XCTAssertEqual(deleted.status, 0, "the delete itself is done: \(deleted.stderr)")
        XCTAssertEqual(
            try runProcess("/usr/bin/sqlite3", [snapshot, "SELECT count(*) FROM recording"]).stdout, "1\n",
            "the control")
        _ = try listed(root)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: snapshot))
        XCTAssertNil(bytes.range(of: Data("Why I started".utf8)), "not a byte of its row is left in the snapshot")
        XCTAssertEqual(
            try runProcess("/usr/bin/sqlite3", [snapshot, "SELECT count(*) FROM recording; PRAGMA integrity_check"])
                .stdout, "0\nok\n")
        Self.cases += 1
        // Deleting all data deletes the snapshots.
        XCTAssertEqual(try run(["craving", "5"], root).status, 0)
        XCTAssertEqual(try run(["purge", "--yes"], root).status, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root + "/Snapshots"), [])
    }

    func testADeletedLogLeavesTheSnapshotsToo() throws {
        let baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        func logged(_ arguments: [String]) throws -> String {
            let result = try run(arguments + ["--json"], root)
            XCTAssertEqual(result.status, 0, result.stderr)
            return try XCTUnwrap(
                (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])?["id"] as? String)
        }
        let craving = try logged(["craving", "8", "--notes", "Lena's party"])
        let use = try logged(["use", "vape", "3", "--notes", "behind the garage"])
        // Today's snapshot was taken before these logs: a new one is, by the next change.
        for name in try FileManager.default.contentsOfDirectory(atPath: root + "/Snapshots") {
            unlink(root + "/Snapshots/" + name)
        }
        XCTAssertEqual(try run(["craving", "2"], root).status, 0)
        let snapshot =
            root + "/Snapshots/" + (try FileManager.default.contentsOfDirectory(atPath: root + "/Snapshots"))[0]
        for text in ["Lena's party", "behind the garage"] {
            XCTAssertNotNil(
                try Data(contentsOf: URL(fileURLWithPath: snapshot)).range(of: Data(text.utf8)), "the control: \(text)")
        }
        XCTAssertEqual(try run(["log", "delete", craving, "--yes"], root).status, 0)
        // The use's snapshot cannot be changed right after its delete (a fault): the next command does it.
        Self.faults += 1
        let deleted = try run(
            ["log", "delete", use, "--yes"], root, environment: ["CRAVEY_FAULT_FAIL": "scrub.snapshot"])
        XCTAssertEqual(deleted.status, 0, deleted.stderr)
        XCTAssertNotNil(
            try Data(contentsOf: URL(fileURLWithPath: snapshot)).range(of: Data("behind the garage".utf8)),
            "the control")
        _ = try listed(root)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: snapshot))
        for text in ["Lena's party", "behind the garage"] {
            XCTAssertNil(bytes.range(of: Data(text.utf8)), "not a byte of '\(text)' is left in the snapshot")
        }
        let counts = try runProcess(
            "/usr/bin/sqlite3",
            [
                snapshot,
                "SELECT count(*) FROM craving; SELECT count(*) FROM usage; "
                    + "SELECT count(*) FROM pendingScrub; PRAGMA integrity_check",
            ]
        ).stdout
        XCTAssertEqual(counts, "0\n0\n0\nok\n", "both deleted logs gone, nothing left noted in the snapshot")
        XCTAssertEqual(
            try runProcess("/usr/bin/sqlite3", [root + "/library.sqlite", "SELECT count(*) FROM pendingScrub"]).stdout,
            "0\n")
        Self.cases += 1
    }

    func testARebuildFromASnapshotKilledAtEveryStepIsTakenUpAgain() throws {
        let baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        let before = try contents(root)
        var step = 1
        while step < 40 {
            Self.faults += 1
            for suffix in ["", "-wal", "-shm"] { unlink(root + "/library.sqlite" + suffix) }
            let killed = try run(["list"], root, environment: ["CRAVEY_FAULT_KILL_AT": String(step)])
            try assertIntact(baseline, "a rebuild killed at step \(step)")
            XCTAssertEqual(try contents(root), before, "step \(step)")
            if killed.status != -SIGKILL { break }
            step += 1
        }
        XCTAssertGreaterThan(step, 3, "the rebuild was killed at several steps")
    }

    // MARK: - Backup and restore

    func testBackupIsIncrementalSurvivesKillsAndRestoresWhole() throws {
        var baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        XCTAssertEqual(try run(["craving", "7", "--trigger", "tired"], root).status, 0)
        // A ride's ratings go with its craving.
        XCTAssertEqual(try run(["ride", "9", "--ratings", "7,3"], root).status, 0)
        XCTAssertEqual(try run(["progress", "--json"], root).status, 0)  // stores its milestones
        let backup = base + "/usb/cravey"
        try FileManager.default.createDirectory(atPath: base + "/usb", withIntermediateDirectories: true)
        // To an empty directory: every file; then again: none; with a new recording: one.
        func backUp(_ environment: [String: String] = [:]) throws -> (status: Int32, json: [String: Any]) {
            let result = try run(["backup", backup, "--json"], root, environment: environment)
            let json = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]) ?? [:]
            return (result.status, json)
        }
        let first = try backUp()
        XCTAssertEqual(first.status, 0)
        XCTAssertEqual(first.json["copied"] as? Int, 3, "two recordings and a thumbnail")
        try plant(backup + "/my-notes.txt", "mine", into: &baseline)
        try plant(backup + "/Recordings/holiday.jpg", "a picture", into: &baseline)
        let again = try backUp()
        XCTAssertEqual(again.json["copied"] as? Int, 0)
        XCTAssertEqual(again.json["unchanged"] as? Int, 3)
        XCTAssertEqual(try record(root, title: "After the backup").status, 0)
        for row in try listed(root) where baseline.saved[row["id"] as! String] == nil {
            baseline.saved[row["id"] as! String] = try Data(
                contentsOf: URL(fileURLWithPath: root + "/" + (row["filePath"] as! String)))
        }
        // Killed at every step: the backup there (the last one, or the new one) always verifies.
        var step = 1
        while step < 60 {
            Self.faults += 1
            let killed = try backUp(["CRAVEY_FAULT_KILL_AT": String(step)])
            let verified = try run(["backup", "--verify", backup], root)
            XCTAssertEqual(verified.status, 0, "killed at step \(step): \(verified.stdout) \(verified.stderr)")
            try assertIntact(baseline, "a backup killed at step \(step)")
            if killed.status != -SIGKILL {
                // Only the new recording was copied: by this run, or by a killed one before it
                // (then found there with its SHA-256 and kept).
                XCTAssertLessThanOrEqual(killed.json["copied"] as? Int ?? 9, 1, "\(killed.json)")
                XCTAssertEqual(
                    (killed.json["copied"] as? Int ?? 0) + (killed.json["unchanged"] as? Int ?? 0), 4, "\(killed.json)")
                break
            }
            step += 1
        }
        XCTAssertGreaterThan(step, 5, "the backup was killed at several steps")
        let doctor = try run(["doctor", "--json"], root)
        XCTAssertTrue(
            doctor.stdout.contains("\"subject\":\"backup\"") && doctor.stdout.contains("min ago to"), doctor.stdout)
        XCTAssertTrue(
            doctor.stdout.contains("\"subject\":\"snapshots\"") && doctor.stdout.contains("newest "), doctor.stdout)

        // Restore into an empty library: the same rows, logs and files.
        let restored = base + "/restored"
        XCTAssertEqual(try run(["restore", backup], restored).status, 0)
        XCTAssertEqual(try contents(restored), try contents(root))
        XCTAssertEqual(try run(["log", "--json"], restored).stdout, try run(["log", "--json"], root).stdout)
        XCTAssertTrue(
            try run(["log", "--json"], restored).stdout.contains(#""ratings":"0:9 180:7 360:3""#), "the ride's ratings")
        // The milestones as they were stored, read before any command works them out again.
        let milestones = { (library: String) in
            try runProcess(
                "/usr/bin/sqlite3",
                ["-readonly", library + "/library.sqlite", "SELECT id, reachedOn FROM milestone ORDER BY id"]
            ).stdout
        }
        let stored = try milestones(root)
        XCTAssertTrue(stored.contains("messagesRecorded:1|"), stored)
        XCTAssertEqual(try milestones(restored), stored)
        for row in try listed(root) {
            let path = row["filePath"] as! String
            XCTAssertEqual(
                FileManager.default.contents(atPath: restored + "/" + path),
                FileManager.default.contents(atPath: root + "/" + path), path)
        }
        XCTAssertEqual(try run(["check"], restored).status, 0)
        // Not into a library that holds anything; not from a damaged backup.
        let refused = try run(["restore", backup], restored)
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("is not empty"), refused.stderr)
        Self.faults += 1
        let manifest = try XCTUnwrap(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: backup + "/cravey-backup.json"))) as? [String: Any])
        let victim = backup + "/" + (((manifest["files"] as! [[String: Any]]).first!)["path"] as! String)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: victim))
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: victim))
        let flipped = try run(["backup", "--verify", backup], root)
        XCTAssertEqual(flipped.status, 1)
        XCTAssertTrue(flipped.stderr.contains("its SHA-256 no longer matches"), flipped.stderr)
        let empty = base + "/empty"
        let damaged = try run(["restore", backup], empty)
        XCTAssertNotEqual(damaged.status, 0)
        XCTAssertTrue(
            damaged.stderr.contains("is damaged") && damaged.stderr.contains("nothing was restored"), damaged.stderr)
        XCTAssertEqual(try listed(empty).count, 0)
        try assertIntact(baseline, "a damaged backup")
    }

    func testARestoreKilledAtEveryStepLeavesAnEmptyOrAWholeLibrary() throws {
        let baseline = try makeLibrary(at: base + "/lib")
        let backup = base + "/backup"
        XCTAssertEqual(try run(["backup", backup], baseline.root).status, 0)
        let expected = try contents(baseline.root)
        var step = 1
        while step < 40 {
            Self.faults += 1
            let target = base + "/restore-\(step)"
            let killed = try run(["restore", backup], target, environment: ["CRAVEY_FAULT_KILL_AT": String(step)])
            let now = try contents(target)  // the next command finishes or undoes what was interrupted
            XCTAssertTrue(now.isEmpty || now == expected, "step \(step): \(now)")
            XCTAssertEqual(try run(["check"], target).status, 0, "step \(step)")
            if now.isEmpty {
                XCTAssertEqual(try run(["restore", backup], target).status, 0, "step \(step): a second try works")
                XCTAssertEqual(try contents(target), expected)
            }
            Self.cases += 1
            if killed.status != -SIGKILL { break }
            step += 1
        }
        XCTAssertGreaterThan(step, 3)
        try assertIntact(baseline, "restores killed")
    }
}
