import CraveyTestSupport
import Foundation
import XCTest

/// The journal of logs after a fault: a torn or zero-padded end, a line that cannot be replayed,
/// a journal lost, damaged or unreadable with the database, and settings and milestones held to
/// the rules typed input meets wherever they come from. Each case runs the built binary.
final class JournalRecoveryTests: FaultCampaign {
    func journal(_ root: String) -> String { root + "/logs.journal" }

    /// Appends raw bytes to a file of the library (what a crash, a power cut or a hand left).
    func append(_ bytes: Data, to path: String) throws {
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: bytes)
        try handle.close()
    }

    func loseDatabase(_ root: String) throws {
        for suffix in ["", "-wal", "-shm"] { unlink(root + "/library.sqlite" + suffix) }
    }

    func logged(_ root: String) throws -> String {
        let result = try run(["log"], root)
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout
    }

    func mode(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    // MARK: - A torn end

    func testATornOrZeroPaddedEndNeverSwallowsTheNextLog() throws {
        for (name, tail) in [("a cut-short line", Data(#"{"id":"torn"#.utf8)), ("zeros", Data(count: 700))] {
            let root = base + "/lib-\(name.count)"
            XCTAssertEqual(try run(["craving", "3"], root).status, 0)
            XCTAssertEqual(try run(["craving", "4"], root).status, 0)
            try append(tail, to: journal(root))
            let typed = try run(["craving", "7", "--notes", "typed-after"], root)
            XCTAssertEqual(typed.status, 0, typed.stderr)
            let text = try Data(contentsOf: URL(fileURLWithPath: journal(root)))
            XCTAssertFalse(text.contains(0), "\(name): the zeros are cut before the next line")
            XCTAssertEqual(text.last, 0x0A, name)
            XCTAssertTrue(
                String(decoding: text, as: UTF8.self).split(separator: "\n").last!.hasPrefix(#"{"id":"#),
                "\(name): the new line starts a line of its own")
            try loseDatabase(root)
            let after = try run(["log"], root)
            XCTAssertEqual(after.status, 0, after.stderr)
            XCTAssertTrue(after.stdout.contains("typed-after"), "\(name): \(after.stdout)")
            XCTAssertTrue(after.stderr.contains("logs and settings from the journal"), after.stderr)
        }
        // A journal an older cravey wrote (its line joined to a fragment, or after zeros): the
        // replay finds the line.
        let root = base + "/old"
        XCTAssertEqual(try run(["craving", "3"], root).status, 0)
        XCTAssertEqual(try run(["craving", "4"], root).status, 0)
        XCTAssertEqual(try run(["craving", "8", "--notes", "joined-line"], root).status, 0)
        var lines = try String(contentsOfFile: journal(root), encoding: .utf8).split(separator: "\n").map(String.init)
        lines[lines.count - 1] = #"{"id":"torn"# + lines[lines.count - 1]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: journal(root)))
        try loseDatabase(root)
        XCTAssertTrue(try logged(root).contains("joined-line"))
    }

    // MARK: - A line that cannot be replayed

    func testALineThatCannotBeReplayedIsSetAsideAndNothingBlocksLogging() throws {
        let root = base + "/lib"
        XCTAssertEqual(try run(["craving", "3"], root).status, 0)
        XCTAssertEqual(try run(["craving", "4"], root).status, 0)
        XCTAssertEqual(try run(["settings", "price", "bowls", "10"], root).status, 0)
        let strange = [
            #"{"id":"name","kind":"setting","row":{"futureColumn":"x"}}"#,
            #"{"id":"goal","kind":"setting","row":{"key":"goal","value":"world-domination"}}"#,
            #"{"id":"checkIns:5","kind":"milestone","row":{"count":5,"id":"checkIns:5","kind":"checkIns","reachedOn":"2099-12-31","shownAt":null}}"#,
            #"{"id":"prices","kind":"setting","row":{"key":"prices","value":"{\"bowls\":1000,\"vape\":\"x\"}"}}"#,
            "not a line of cravey's",
        ]
        try append(Data((strange.joined(separator: "\n") + "\n").utf8), to: journal(root))
        try loseDatabase(root)
        let logged = try run(["craving", "5", "--notes", "still-logging"], root)
        XCTAssertEqual(logged.status, 0, logged.stderr)
        XCTAssertTrue(logged.stderr.contains("5 lines of the journal could not be brought back"), logged.stderr)
        XCTAssertTrue(logged.stderr.contains("logs.journal.set-aside"), logged.stderr)
        XCTAssertFalse(logged.stderr.contains("SQLite error"), logged.stderr)
        let aside = try String(contentsOfFile: root + "/logs.journal.set-aside", encoding: .utf8)
        for line in strange { XCTAssertTrue(aside.contains(line), "kept as it was: \(line)") }
        XCTAssertEqual(mode(root + "/logs.journal.set-aside"), 0o600)
        XCTAssertFalse(try String(contentsOfFile: journal(root), encoding: .utf8).contains("futureColumn"))
        // The valid price is kept, the bad one left out; the goal and the milestone are not taken.
        let settings = try run(["settings", "--json"], root)
        XCTAssertTrue(settings.stdout.contains("10"), settings.stdout)
        XCTAssertFalse(settings.stdout.contains("world-domination"), settings.stdout)
        XCTAssertFalse(try run(["progress"], root).stdout.contains("2099"))
        XCTAssertTrue(try self.logged(root).contains("still-logging"))
        // check names it and is content: the lines are kept, nothing is wrong with the library.
        for arguments in [["check"], ["check", "--repair"]] {
            let check = try run(arguments, root)
            XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
            XCTAssertTrue(check.stdout.contains("5 lines of the journal of logs"), check.stdout)
        }
        // A second rebuild does not set them aside again.
        try loseDatabase(root)
        XCTAssertEqual(try run(["log"], root).status, 0)
        XCTAssertEqual(
            try String(contentsOfFile: root + "/logs.journal.set-aside", encoding: .utf8).split(separator: "\n").count,
            5)
    }

    // MARK: - What could not be brought back

    func testADatabaseLostWithItsJournalOrItsNewestSnapshotIsSaidAsItIs() throws {
        let root = base + "/lib"
        XCTAssertEqual(try run(["craving", "3"], root).status, 0)
        XCTAssertEqual(try run(["craving", "4", "--notes", "after-the-snapshot"], root).status, 0)
        unlink(journal(root))
        try loseDatabase(root)
        let today = String(
            try XCTUnwrap(FileManager.default.contentsOfDirectory(atPath: root + "/Snapshots").first)
                .dropFirst("library-".count).prefix(10))
        let rebuilt = try run(["log"], root)
        XCTAssertEqual(rebuilt.status, 0, rebuilt.stderr)
        XCTAssertFalse(rebuilt.stderr.contains("only play counts"), rebuilt.stderr)
        XCTAssertTrue(rebuilt.stderr.contains("since \(today) could not be brought back"), rebuilt.stderr)
        let check = try run(["check"], root)
        XCTAssertNotEqual(check.status, 0, "check does not say OK")
        XCTAssertFalse(check.stdout.contains("Library OK"), check.stdout)
        XCTAssertTrue(check.stdout.contains("since \(today) could not be brought back"), check.stdout)
        XCTAssertEqual(try run(["check", "--repair"], root).status, 0)
        XCTAssertEqual(try run(["check"], root).status, 0, "once known, it is not said again")

        // A damaged newest snapshot: the one before is used, and the days between are named.
        let second = base + "/second"
        XCTAssertEqual(try run(["craving", "3"], second).status, 0)
        XCTAssertEqual(try run(["craving", "4"], second).status, 0)
        let newest = try XCTUnwrap(FileManager.default.contentsOfDirectory(atPath: second + "/Snapshots").first)
        try FileManager.default.copyItem(
            atPath: second + "/Snapshots/" + newest, toPath: second + "/Snapshots/library-2020-01-06.sqlite")
        try Data(repeating: 0x55, count: 8192).write(to: URL(fileURLWithPath: second + "/Snapshots/" + newest))
        try loseDatabase(second)
        let fallback = try run(["log"], second)
        XCTAssertEqual(fallback.status, 0, fallback.stderr)
        XCTAssertTrue(
            fallback.stderr.contains("the snapshot of \(today) is damaged")
                && fallback.stderr.contains("since 2020-01-06 until \(today) could not be brought back"),
            fallback.stderr)
        // Said once, by the rebuild: the journal was there, so check has nothing to add.
        XCTAssertFalse(try run(["log"], second).stderr.contains("damaged"))
        XCTAssertEqual(try run(["check"], second).status, 0)
    }

    func testAnUnreadableJournalStillLetsAPersonLogAndSaysWhatToFix() throws {
        try requireRoot()  // root reads any file: the person is another user
        chmod(base, 0o755)
        let root = base + "/lib"
        let made = try runProcess("/usr/bin/install", ["-d", "-o", "nobody", "-g", "nogroup", "-m", "700", root])
        XCTAssertEqual(made.status, 0, made.stderr)
        /// The person's own cravey, as the user who owns the library.
        func person(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
            try runProcess(
                "/usr/sbin/runuser", ["-u", "nobody", "--", cravey] + arguments + ["--library", root],
                environment: ["HOME": "/tmp"])
        }
        XCTAssertEqual(try person(["craving", "3"]).status, 0)
        XCTAssertEqual(try person(["craving", "4", "--notes", "in-the-journal"]).status, 0)
        chmod(journal(root), 0)
        try loseDatabase(root)
        let during = try person(["craving", "6", "--notes", "while-unreadable"])
        XCTAssertEqual(during.status, 0, during.stderr)
        XCTAssertTrue(
            during.stderr.contains(
                "cannot be read (Permission denied): fix its permissions with chmod 600 \(journal(root))"),
            during.stderr)
        XCTAssertEqual(during.stderr.components(separatedBy: "chmod 600").count, 2, "said once: \(during.stderr)")
        chmod(journal(root), 0o600)
        let fixed = try person(["log"])
        XCTAssertEqual(fixed.status, 0, fixed.stderr)
        XCTAssertTrue(
            fixed.stdout.contains("in-the-journal") && fixed.stdout.contains("while-unreadable"), fixed.stdout)
        XCTAssertEqual(try person(["check"]).status, 0)
        XCTAssertTrue(try String(contentsOfFile: journal(root), encoding: .utf8).contains("while-unreadable"))
    }

    // MARK: - Settings and milestones, and the files' modes

    func testCheckHoldsSettingsAndMilestonesToTheRulesOfTypedInput() throws {
        let root = base + "/lib"
        XCTAssertEqual(try run(["craving", "3"], root).status, 0)
        XCTAssertEqual(try run(["settings", "price", "bowls", "10"], root).status, 0)
        for sql in [
            #"UPDATE setting SET value = '{"bowls":1000,"vape":1e400,"dab":true}' WHERE key = 'prices'"#,
            "INSERT INTO setting (key, value) VALUES ('goal', 'world-domination')",
            "INSERT INTO milestone (id, kind, count, reachedOn) VALUES ('checkIns:1000000000000000000', 'checkIns', 1000000000000000000, '2024-01-01')",
            "INSERT INTO milestone (id, kind, count, reachedOn) VALUES ('checkIns:5', 'checkIns', 5, '2099-12-31')",
        ] {
            XCTAssertEqual(try runProcess("/usr/bin/sqlite3", [root + "/library.sqlite", sql]).status, 0, sql)
        }
        let shown = try run(["settings", "price"], root)
        XCTAssertTrue(shown.stdout.contains("bowls 10.00"), "a bad entry leaves the valid price: \(shown.stdout)")
        let check = try run(["check"], root)
        XCTAssertNotEqual(check.status, 0)
        for said in [
            "entry 'vape'", "entry 'dab'", "the goal setting 'world-domination'", "its count is not from 1",
            "dated 2099-12-31",
        ] {
            XCTAssertTrue(check.stdout.contains(said), "\(said): \(check.stdout)")
        }
        XCTAssertEqual(try run(["check", "--repair"], root).status, 0)
        XCTAssertEqual(try run(["check"], root).status, 0)
        let prices = try run(["settings", "price"], root)
        XCTAssertTrue(prices.stdout.contains("bowls 10.00"), "the valid price is kept: \(prices.stdout)")
        XCTAssertFalse(try run(["progress"], root).stdout.contains("2099"))
    }

    func testRestoreRefusesAGoalOrAMilestoneTypedInputCouldNotMake() throws {
        let root = base + "/lib"
        XCTAssertEqual(try run(["craving", "3"], root).status, 0)
        let backup = base + "/bk"
        XCTAssertEqual(try run(["backup", backup], root).status, 0)
        let manifestURL = URL(fileURLWithPath: backup + "/cravey-backup.json")
        let original = try Data(contentsOf: manifestURL)
        var manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: original) as? [String: Any])
        let named = try XCTUnwrap((manifest["database"] as? [String: Any])?["path"] as? String)
        let database = URL(fileURLWithPath: backup + "/" + named)
        let pristine = try Data(contentsOf: database)
        for (index, (sql, said)) in [
            ("INSERT INTO setting (key, value) VALUES ('goal', 'world-domination')", "the goal setting"),
            (
                "INSERT INTO milestone (id, kind, count, reachedOn) VALUES ('checkIns:1000000000000000000', 'checkIns', 1000000000000000000, '2024-01-01')",
                "its count is not from 1 to 1000000"
            ),
            (
                "INSERT INTO milestone (id, kind, count, reachedOn) VALUES ('checkIns:5', 'checkIns', 5, '2099-12-31')",
                "dated 2099-12-31"
            ),
        ].enumerated() {
            try pristine.write(to: database)
            XCTAssertEqual(try runProcess("/usr/bin/sqlite3", [database.path, sql]).status, 0, sql)
            // The manifest made to match, as a tampering that hides would.
            let tampered = try Data(contentsOf: database)
            let digest = try runProcess("/usr/bin/sha256sum", [database.path]).stdout.prefix(64)
            manifest["database"] = ["path": named, "size": tampered.count, "sha256": String(digest)]
            try JSONSerialization.data(withJSONObject: manifest).write(to: manifestURL)
            let refused = try run(["restore", backup], base + "/into-\(index)")
            XCTAssertNotEqual(refused.status, 0, sql)
            XCTAssertTrue(
                refused.stderr.contains(said) && refused.stderr.contains("nothing was restored"), refused.stderr)
        }
    }

    func testAnAppendWaitsForAnotherProcessHoldingTheJournalThenWrites() throws {
        let root = base + "/lib"
        XCTAssertEqual(try run(["craving", "3"], root).status, 0)
        XCTAssertEqual(try run(["craving", "4"], root).status, 0)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = ["-x", journal(root), "sleep", "1.5"]
        try holder.run()
        usleep(300_000)
        let started = Date()
        let logged = try run(["craving", "6", "--notes", "after-the-wait"], root)
        holder.waitUntilExit()
        XCTAssertEqual(logged.status, 0, logged.stderr)
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 0.9, "it waited for the holder")
        XCTAssertTrue(try String(contentsOfFile: journal(root), encoding: .utf8).contains("after-the-wait"))
    }

    func testTheJournalAndTheSnapshotsAreMadePrivateAgain() throws {
        let root = base + "/lib"
        XCTAssertEqual(try run(["craving", "3"], root).status, 0)
        XCTAssertEqual(try run(["craving", "4"], root).status, 0)
        let snapshot =
            root + "/Snapshots/" + (try FileManager.default.contentsOfDirectory(atPath: root + "/Snapshots")[0])
        chmod(journal(root), 0o644)
        chmod(snapshot, 0o644)
        chmod(root + "/Snapshots", 0o755)
        XCTAssertEqual(try run(["log"], root).status, 0)
        XCTAssertEqual(mode(journal(root)), 0o600)
        XCTAssertEqual(mode(snapshot), 0o600)
        XCTAssertEqual(mode(root + "/Snapshots"), 0o700)
    }
}
