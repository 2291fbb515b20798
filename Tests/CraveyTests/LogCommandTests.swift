import CraveyTestSupport
import Foundation
import XCTest

/// What the log tests share: `cravey` run on the test's library in Berlin without colour, and
/// the logs it holds.
class LogTestCase: CommandTestCase {
    func env(_ extra: [String: String] = [:]) -> [String: String] {
        ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_TRANSCRIBE": "later", "NO_COLOR": "1", "TZ": "Europe/Berlin"]
            .merging(extra) { $1 }
    }

    @discardableResult
    func run(_ arguments: [String], status: Int32? = 0, file: StaticString = #filePath, line: UInt = #line) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let result = try runProcess(cravey, arguments + ["--library", root], environment: env())
        if let status {
            XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)", file: file, line: line)
        }
        return result
    }

    func logs(_ arguments: [String] = []) throws -> [[String: Any]] {
        try json(try run(["log"] + arguments + ["--json"]).stdout) as! [[String: Any]]
    }
}

/// `cravey craving`, `cravey use` and `cravey log` end to end: every flag scripted, bad input as
/// one line that writes nothing, the forms in a real terminal (tmux), the hard-moment play offer
/// through ALSA's file plugin, the linked-delete question, export, purge, check and search.
final class LogCommandTests: LogTestCase {
    func testScriptedLogsWithEveryFlag() throws {
        let first = try run(["craving"])
        XCTAssertTrue(
            first.stdout.hasPrefix("Craving logged ✓ — 5 (moderate), ")
                && first.stdout.hasSuffix("\n💪 Logged. Every moment of awareness counts.\n"),
            "no terminal: logged at once: \(first.stdout)")
        let craving = try jsonObject(
            try run([
                "craving", "8", "--trigger", "anxious,Bored", "--trigger", "habit", "--location", "home",
                "--at", "-30m", "--notes", "after dinner", "--json",
            ]).stdout)
        XCTAssertEqual(craving["intensity"] as? Int, 8)
        XCTAssertEqual(craving["band"] as? String, "strong")
        XCTAssertEqual(craving["triggers"] as? [String], ["anxious", "bored", "habit"])
        XCTAssertEqual(craving["location"] as? String, "home")
        XCTAssertEqual(craving["notes"] as? String, "after dinner")
        XCTAssertEqual(craving["utcOffset"] as? String, "+01:00", "Berlin in November")
        let use = try jsonObject(
            try run(["use", "vape", "3", "--mood-after", "6", "--after-craving", "last", "--location", "car", "--json"])
                .stdout)
        XCTAssertEqual(use["method"] as? String, "vape")
        XCTAssertEqual(use["amount"] as? Double, 3)
        XCTAssertEqual(use["unit"] as? String, "pulls")
        XCTAssertEqual(use["moodAfter"] as? Int, 6)
        let latest = try logs(["--cravings"]).first!
        XCTAssertEqual(use["cravingId"] as? String, latest["id"] as? String, "'last' is the latest craving before it")
        XCTAssertTrue(try run(["use"]).stdout.hasPrefix("Usage logged ✓ — 0.5 bowls/joints, "))
        let joints = try jsonObject(try run(["use", "joints", "1.5", "--at", "yesterday 21:00", "--json"]).stdout)
        XCTAssertEqual(joints["method"] as? String, "bowls")
        XCTAssertEqual((joints["localTime"] as? String)?.suffix(5), "21:00")
        let old = try run(["use", "edible", "15", "--at", "-10d"])
        XCTAssertEqual(old.stderr, "Memory may be less reliable for events more than 7 days ago\n")
        XCTAssertEqual(try logs().count, 6)
        XCTAssertEqual(try logs(["--use"]).count, 4)
        XCTAssertEqual(try logs(["--use", "--since", "7d"]).count, 3)
        let listed = try run(["log"]).stdout
        XCTAssertTrue(
            listed.contains("craving  8 strong") && listed.contains("anxious, bored, habit  @home  “after dinner”"),
            listed)
        XCTAssertTrue(listed.contains("use      3 pulls vape"), listed)
        // Bad input: one line each, nothing written.
        let bad: [([String], String)] = [
            (["craving", "11"], "intensity"), (["craving", "0"], "intensity"), (["craving", "seven"], "intensity"),
            (["craving", "--trigger", "angst"], "trigger"), (["craving", "--location", "moon"], "location"),
            (["craving", "--at", "25:00"], "time"), (["craving", "--at", "23:59x"], "time"),
            (["craving", "--at", "2099-01-01 10:00"], "later than now"),
            (["craving", "--notes", String(repeating: "x", count: 501)], "notes"),
            (["craving", "--notes", "a\u{202E}b"], "notes"),
            (["craving", "--play", "4"], "--play"),
            (["use", "pipe"], "method"), (["use", "edible", "7"], "amount"), (["use", "bowls", "0.25"], "amount"),
            (["use", "vape", "11"], "amount"),
            (["use", "dab", "2", "--mood-after", "11"], "mood after"),
            (["use", "--after-craving", "ffffffff"], "no craving or use log"),
            (["log", "show", "zzz"], "no craving or use log"), (["log", "--since", "soon"], "--since"),
        ]
        for (arguments, text) in bad {
            let result = try run(arguments, status: nil)
            XCTAssertNotEqual(result.status, 0, "\(arguments)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(text), "\(arguments): \(result.stderr)")
        }
        XCTAssertEqual(try logs().count, 6, "nothing written by bad input")
    }

    func testShowEditAndDeleteWithTheLinkedQuestion() throws {
        let craving = try jsonObject(try run(["craving", "6", "--json"]).stdout)
        let id = craving["id"] as! String
        let use = try jsonObject(
            try run(["use", "dab", "2", "--after-craving", String(id.prefix(8)), "--json"]).stdout)
        let shown = try run(["log", "show", String(id.prefix(6)).lowercased()]).stdout
        XCTAssertTrue(shown.contains("Intensity   6 of 10, moderate"), shown)
        let edited = try jsonObject(
            try run(["log", "edit", id, "--intensity", "9", "--trigger", "lonely", "--notes", "rough day", "--json"])
                .stdout)
        XCTAssertEqual(edited["intensity"] as? Int, 9)
        XCTAssertEqual(edited["triggers"] as? [String], ["lonely"])
        let moved = try jsonObject(
            try run(["log", "edit", use["id"] as! String, "--method", "edible", "--json"]).stdout)
        XCTAssertEqual(moved["amount"] as? Double, 5, "a new method starts at its first amount")
        try run(["log", "edit", id, "--amount", "2"], status: 1)
        // No terminal to ask whether the linked use goes too: one line, nothing deleted.
        let asked = try run(["log", "delete", id, "--yes"], status: 1)
        XCTAssertTrue(asked.stderr.contains("This craving has a linked usage log. Delete both?"), asked.stderr)
        XCTAssertEqual(try logs().count, 2)
        try run(["log", "delete", id, "--keep-linked", "--yes"])
        let kept = try logs()
        XCTAssertEqual(kept.count, 1)
        XCTAssertTrue(kept[0]["cravingId"] is NSNull, "the kept use no longer names it")
        let second = try jsonObject(try run(["craving", "--json"]).stdout)["id"] as! String
        try run(["use", "--after-craving", second])
        try run(["log", "delete", second, "--with-linked", "--yes"])
        XCTAssertEqual(try logs().count, 1, "both deleted")
        // In a terminal the question is asked: y deletes both.
        let third = try jsonObject(try run(["craving", "--json"]).stdout)["id"] as! String
        try run(["use", "--after-craving", third])
        let terminal = try TmuxSession(
            "env NO_COLOR=1 \(shellQuote(cravey)) log delete \(third) --library \(shellQuote(root)); echo EXIT=$?; sleep 30"
        )
        try terminal.waitFor("Delete both? [y]es")
        try terminal.send("y", literal: true)
        try terminal.send("Enter")
        try terminal.waitFor("EXIT=0")
        XCTAssertEqual(try logs().count, 1)
    }

    /// The craving form in a terminal: Enter alone logs a 5; keys change every field; Esc logs nothing.
    func testTheCravingFormInATerminal() throws {
        func form() throws -> TmuxSession {
            try TmuxSession(
                "env NO_COLOR=1 TZ=Europe/Berlin \(shellQuote(cravey)) craving --library \(shellQuote(root)); echo EXIT=$?; sleep 30"
            )
        }
        var tmux = try form()
        try tmux.waitFor("Enter: save craving")
        try tmux.send("Enter")
        try tmux.waitFor("Craving logged ✓")
        try tmux.waitFor("Ride it out now?")  // a craving now: the ride is offered, even with no message
        try tmux.send("Enter")
        try tmux.waitFor("EXIT=0")
        var all = try logs()
        XCTAssertEqual(all.first?["intensity"] as? Int, 5, "Enter alone logs a 5, now")
        tmux.close()

        tmux = try form()
        var screen = try tmux.waitFor("◀ 5 ▶  moderate")
        XCTAssertTrue(
            screen.contains("Trigger (optional)") && screen.contains("Location (optional)")
                && screen.contains("Notes (optional)"), screen)
        try tmux.send("Right"); try tmux.send("Right")
        try tmux.waitFor("◀ 7 ▶  strong")
        try tmux.send("0", literal: true)
        try tmux.waitFor("◀ 10 ▶  overwhelming")
        try tmux.send("2", literal: true)
        try tmux.waitFor("◀ 2 ▶  mild")
        try tmux.send("Down"); try tmux.send("Down")  // time, then triggers
        try tmux.send("Right"); try tmux.send("Right"); try tmux.send("Space")  // anxious
        try tmux.send("Right"); try tmux.send("Space"); try tmux.send("Space")  // lonely on and off again
        try tmux.send("Right"); try tmux.send("Right"); try tmux.send("Space")  // sad
        screen = try tmux.waitFor("[x] Sad")
        XCTAssertTrue(screen.contains("[x] Anxious") && screen.contains("[ ] Lonely"), screen)
        try tmux.send("Down"); try tmux.send("Right"); try tmux.send("Space")  // work
        try tmux.waitFor("(•) Work")
        try tmux.send("Down")
        try tmux.send("quiet evening", literal: true)  // q types a q in a text field
        try tmux.waitFor("> quiet evening")
        try tmux.send("Enter")
        try tmux.waitFor("Ride it out now?")
        try tmux.send("Enter")
        try tmux.waitFor("EXIT=0")
        all = try logs()
        XCTAssertEqual(all.count, 2)
        XCTAssertEqual(all.first?["intensity"] as? Int, 2)
        XCTAssertEqual(all.first?["triggers"] as? [String], ["anxious", "sad"])
        XCTAssertEqual(all.first?["location"] as? String, "work")
        XCTAssertEqual(all.first?["notes"] as? String, "quiet evening")
        tmux.close()

        tmux = try form()
        try tmux.waitFor("Enter: save craving")
        try tmux.send("9", literal: true)
        try tmux.send("Escape")
        screen = try tmux.waitFor("EXIT=0")
        XCTAssertTrue(screen.contains("Nothing was logged."), screen)
        XCTAssertEqual(try logs().count, 2, "Esc logs nothing")
    }

    /// The use form: switching method changes the amount's range and unit; a craving in the 2
    /// hours before it with no use yet is offered as the one it followed.
    func testTheUseFormInATerminal() throws {
        let craving = try jsonObject(try run(["craving", "6", "--at", "-40m", "--json"]).stdout)["id"] as! String
        let tmux = try TmuxSession(
            "env NO_COLOR=1 \(shellQuote(cravey)) use --library \(shellQuote(root)); echo EXIT=$?; sleep 30")
        try tmux.waitFor("◀ 0.5 ▶  (bowls/joints)")
        try tmux.send("Down"); try tmux.send("Right"); try tmux.send("Right")
        try tmux.waitFor("◀ 1.5 ▶  (bowls/joints)")
        try tmux.send("Up"); try tmux.send("Right"); try tmux.send("Right"); try tmux.send("Right")  // edible
        try tmux.waitFor("◀ 5 ▶  (mg THC)   5–100")
        try tmux.send("Down"); try tmux.send("Right"); try tmux.send("Right")
        try tmux.waitFor("◀ 15 ▶  (mg THC)")
        for _ in 0..<4 { try tmux.send("Down") }  // time, triggers, location, mood after
        try tmux.send("7", literal: true)
        try tmux.waitFor("◀ 7 ▶")
        try tmux.send("Enter")
        try tmux.waitFor("Did this follow your craving at")
        try tmux.send("y", literal: true)
        try tmux.waitFor("Usage logged ✓")
        try tmux.waitFor("EXIT=0")
        let use = try XCTUnwrap(try logs(["--use"]).first)
        XCTAssertEqual(use["cravingId"] as? String, craving, "linked as offered")
        XCTAssertEqual(use["method"] as? String, "edible")
        XCTAssertEqual(use["amount"] as? Double, 15)
        XCTAssertEqual(use["moodAfter"] as? Int, 7)
    }

    /// The offer after a craving is a list, a message a line: on a narrow terminal a long title is
    /// cut to the width (with …), never wrapped onto a second line.
    func testThePlayOfferIsAListThatNeverWrapsATitle() throws {
        try makeToneWAV(base + "/tone.wav", seconds: 1)
        let long = "Remember the walk by the river that night"
        try run(["import", base + "/tone.wav", "--title", String(long.prefix(40))])
        try run(["import", base + "/tone.wav", "--title", "Breathe"])
        let tmux = try TmuxSession(
            "env NO_COLOR=1 \(shellQuote(cravey)) craving 8 --library \(shellQuote(root)); echo EXIT=$?; sleep 30",
            width: 32, height: 20)
        let screen = try tmux.waitFor("Enter  not now")
        let lines = screen.components(separatedBy: "\n")
        let question = try XCTUnwrap(lines.firstIndex(of: "Play one of your messages?"), screen)
        let listed = Array(lines[(question + 1)...(question + 4)])
        XCTAssertEqual(listed.count, 4)
        XCTAssertEqual(listed[0], "  1  🎙️ Breathe", screen)
        XCTAssertTrue(listed[1].hasPrefix("  2  🎙️ Remember the walk") && listed[1].hasSuffix("…"), screen)
        XCTAssertEqual(listed[2], "  o  🌊 Ride it out", screen)
        XCTAssertEqual(listed.last, "  Enter  not now", "no title wrapped onto a line of its own: \(screen)")
        try tmux.send("Enter")
        try tmux.waitFor("EXIT=0")
    }

    /// After a craving in a terminal, one key plays one of the most played messages (to the ALSA
    /// file plugin), the play is counted and the craving keeps which message it was.
    func testThePlayOfferPlaysAMessageAndKeepsTheLink() throws {
        let recorded = try runProcess(
            cravey,
            ["record", "audio", "--mic", "cravey_file", "--max-seconds", "2", "--title", "Breathe", "--library", root],
            environment: env(["CRAVEY_ALSA_INFILE": phraseFixture]))
        XCTAssertEqual(recorded.status, 0, recorded.stderr)
        let id = recorded.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let speaker = base + "/speaker.raw"
        let tmux = try TmuxSession(
            "env NO_COLOR=1 ALSA_CONFIG_PATH=\(shellQuote(testALSAConfig)) CRAVEY_ALSA_OUTFILE=\(shellQuote(speaker)) "
                + "\(shellQuote(cravey)) craving 8 --speaker cravey_capture --library \(shellQuote(root)); echo EXIT=$?; sleep 30"
        )
        let offer = try tmux.waitFor("Enter  not now")
        XCTAssertTrue(
            offer.contains("Play one of your messages?\n  1  🎙️ Breathe\n  o  🌊 Ride it out\n  Enter  not now"), offer)
        try tmux.send("1", literal: true)
        try tmux.waitFor("EXIT=0", timeout: 30)
        let craving = try XCTUnwrap(try logs().first)
        XCTAssertEqual(craving["recordingId"] as? String, id)
        let played = try jsonObject(try run(["show", id, "--json"]).stdout)
        XCTAssertEqual(played["playCount"] as? Int, 1, "counted as a play")
        let size = try FileManager.default.attributesOfItem(atPath: speaker)[.size] as? Int ?? 0
        XCTAssertGreaterThan(size, 48_000 * 2, "over a second of sound reached the speaker")
        // The same from a script, and deleting the recording keeps the craving without the link.
        try runProcess(
            cravey, ["craving", "7", "--play", "1", "--speaker", "cravey_capture", "--library", root],
            environment: env(["CRAVEY_ALSA_OUTFILE": base + "/speaker2.raw"]))
        XCTAssertEqual(try logs().first?["recordingId"] as? String, id)
        try run(["delete", id, "--yes"])
        XCTAssertEqual(try logs().filter { !($0["recordingId"] is NSNull) }.count, 0)
        XCTAssertEqual(try logs().count, 2)
    }

    func testExportPurgeCheckAndSearchCoverTheLogs() throws {
        try run(["craving", "7", "--notes", "=SUM(A1) walking by the park"])
        try run(["use", "vape", "2", "--trigger", "social,bored", "--notes", "party"])
        let document = try jsonObject(try run(["export", "--format", "json", "--output", "-"]).stdout)
        XCTAssertEqual((document["cravings"] as? [[String: Any]])?.first?["intensity"] as? Int, 7)
        XCTAssertEqual((document["usage"] as? [[String: Any]])?.first?["triggers"] as? [String], ["bored", "social"])
        XCTAssertEqual((document["recordings"] as? [Any])?.count, 0)
        // Both formats as Python's json and csv modules read them.
        try run(["export", "--format", "json", "--output", base + "/out.json"])
        try run(["export", "--format", "csv", "--output", base + "/out.csv"])
        let python = try runProcess(
            "/usr/bin/python3",
            [
                "-c",
                """
                import csv, json, sys
                data = json.load(open(sys.argv[1]))
                rows = list(csv.reader(open(sys.argv[2], newline='')))
                print(len(data['cravings']), len(data['usage']), len(data['recordings']), rows[0][0], sorted(r[0] for r in rows[1:]))
                """, base + "/out.json", base + "/out.csv",
            ])
        XCTAssertEqual(python.stdout, "1 1 0 record ['craving', 'use']\n", python.stderr)
        let table = parseCSV(try run(["export", "--format", "csv", "--output", "-"]).stdout)
        let header = table[0]
        XCTAssertEqual(header.first, "record")
        XCTAssertEqual(Set(table.dropFirst().map { $0[0] }), ["craving", "use"])
        let notes = table.dropFirst().map { $0[header.firstIndex(of: "notes")!] }
        XCTAssertTrue(notes.contains("'=SUM(A1) walking by the park"), "a formula stays text: \(notes)")
        // Search finds the logs by their notes.
        let found = try json(try run(["search", "park", "--json"]).stdout) as! [[String: Any]]
        XCTAssertEqual(found.map { $0["record"] as? String }, ["craving"])
        XCTAssertTrue(try run(["search", "party"]).stdout.contains("use"))
        // check finds a tampered row; repair clears a dangling link and leaves the invalid log to the user.
        XCTAssertEqual(try run(["check"]).status, 0)
        let sqlite = { (sql: String) throws in
            let result = try runProcess("/usr/bin/sqlite3", [self.root + "/library.sqlite", sql])
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        try sqlite("PRAGMA ignore_check_constraints = 1; UPDATE craving SET intensity = 12")
        try sqlite("UPDATE usage SET cravingId = 'AAAAAAAA-0000-0000-0000-000000000000'")
        let checked = try run(["check"], status: 1)
        XCTAssertTrue(checked.stdout.contains("intensity 12 is not from 1 to 10"), checked.stdout)
        XCTAssertTrue(checked.stdout.contains("link to something deleted"), checked.stdout)
        let repaired = try run(["check", "--repair"], status: 1)
        XCTAssertTrue(repaired.stdout.contains("cleared a link to something deleted"), repaired.stdout)
        XCTAssertTrue(repaired.stderr.contains("cravey log edit"), repaired.stderr)
        XCTAssertFalse(try run(["check"], status: 1).stdout.contains("link to something deleted"))
        // purge: everything, with the seed's words.
        let refused = try run(["purge"], status: 1)
        XCTAssertTrue(refused.stderr.contains("without confirmation"), refused.stderr)
        // Asked at a terminal, the question names check-ins too; no is a choice, not a failure.
        let kept = try runInTerminal("\(shellQuote(cravey)) purge --library \(shellQuote(root))", input: "n\n")
        XCTAssertEqual(kept.status, 0, kept.screen)
        XCTAssertTrue(kept.screen.contains("check-ins") && kept.screen.contains("Nothing deleted."), kept.screen)
        XCTAssertEqual(try logs().count, 2)
        let purged = try run(["purge", "--yes"])
        XCTAssertEqual(purged.stdout, "Deleted 0 recordings, 0 check-ins, 1 craving and 1 usage log.\n")
        XCTAssertEqual(try logs().count, 0)
        XCTAssertEqual(try run(["check"]).status, 0)
    }
}
