import CraveyLibrary
import CraveyTestSupport
import CraveyTracker
import Foundation
import XCTest

@testable import cravey

/// Bare `cravey`, `cravey home`, the first run, settings and privacy, end to end in a real
/// terminal (tmux): the first run through every step and every skip, the home keys (each action
/// comes back home), Quick Play through ALSA's file plugin, settings (goal, export in both
/// formats, delete all and its cancel), and the scripted forms.
final class HomeTests: CommandTestCase {
    var speakerOut: String { base + "/speaker.raw" }

    /// `cravey` (or `cravey home …`) in tmux, started in `base`, with ALSA's configuration `alsa`.
    func start(_ arguments: String = "", alsa: String = testALSAConfig) throws -> TmuxSession {
        let command =
            "cd \(shellQuote(base)) && env NO_COLOR=1 TZ=Europe/Berlin CRAVEY_TRANSCRIBE=later ALSA_CONFIG_PATH=\(shellQuote(alsa)) "
            + "CRAVEY_ALSA_OUTFILE=\(shellQuote(speakerOut)) CRAVEY_LIBRARY=\(shellQuote(root)) \(shellQuote(cravey)) \(arguments); "
            + "echo EXIT=$?; stty -a | grep -o -- '-*icanon'; sleep 60"
        return try TmuxSession(command, width: 100, height: 32)
    }

    @discardableResult
    func run(_ arguments: [String], status: Int32? = 0, file: StaticString = #filePath, line: UInt = #line) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let result = try runProcess(
            cravey, arguments + ["--library", root], environment: ["NO_COLOR": "1", "CRAVEY_TRANSCRIBE": "later"])
        if let status {
            XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)", file: file, line: line)
        }
        return result
    }

    func settings() throws -> String { try run(["settings"]).stdout }

    /// Leaves the hub with q: the shell gets a terminal in canonical mode back.
    func quit(_ tmux: TmuxSession, file: StaticString = #filePath, line: UInt = #line) throws {
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
        XCTAssertFalse(try tmux.waitFor("icanon").contains("-icanon"), "canonical mode again", file: file, line: line)
    }

    func testTheFirstRunThroughEveryStep() throws {
        let tmux = try start()
        try tmux.waitFor("Private cannabis tracking and support")
        try tmux.waitFor("All data stays on your device. No cloud sync.")
        try tmux.send("Enter")
        for title in ["Track Cravings", "Track Usage", "Record Motivational Content", "See Your Patterns"] {
            try tmux.waitFor(title)
            try tmux.send(title == "See Your Patterns" ? "Enter" : "Right")
        }
        try tmux.waitFor("What brings you here today?")
        try tmux.send("Down"); try tmux.send("Enter")  // Cut down
        try tmux.waitFor("What should we call you?")
        try tmux.send("Ben", literal: true); try tmux.send("Enter")
        let home = try tmux.waitFor("LOG CRAVING")
        XCTAssertTrue(home.contains("Hi Ben"), home)
        XCTAssertTrue(
            home.contains("💡 Tip: Record motivational content to play during cravings  →  r"), "the empty library's tip"
        )
        try quit(tmux)
        XCTAssertTrue(try settings().contains("goal  cut-down"))
        XCTAssertTrue(try settings().contains("name  Ben"))
        // Shown once: the next run opens at home.
        let again = try start("home")
        try again.waitFor("LOG CRAVING")
        XCTAssertFalse(try again.screen().contains("Get started"))
        try quit(again)
    }

    func testTheFirstRunSkippedAtEveryStep() throws {
        // Skip tour goes straight home: the goal and the name stay in settings.
        var tmux = try start()
        try tmux.waitFor("Get started")
        try tmux.send("s", literal: true)
        try tmux.waitFor("LOG CRAVING")
        try quit(tmux)
        XCTAssertTrue(try settings().contains("goal  (not set)"))
        XCTAssertTrue(try settings().contains("name  (not set)"))
        // After Get started, Esc skips the tour, s the goal, Esc the name.
        tmux = try startAgainAtTheGoal()
        try tmux.send("s", literal: true)
        try tmux.waitFor("What should we call you?")
        try tmux.send("Escape")
        try tmux.waitFor("LOG CRAVING")
        try quit(tmux)
        XCTAssertTrue(try settings().contains("goal  (not set)"))
        // Ctrl-C before the end shows the first run again.
        tmux = try startAgainAtTheGoal()
        try tmux.send("C-c")
        try tmux.waitFor("EXIT=0")
        tmux = try start()
        try tmux.waitFor("Get started")
        tmux.close()
    }

    /// All data deleted, then the first run again as far as the goal (the tour skipped with Esc).
    func startAgainAtTheGoal() throws -> TmuxSession {
        try run(["purge", "--yes"])
        let tmux = try start()
        try tmux.waitFor("Get started")
        try tmux.send("Enter")
        try tmux.waitFor("Track Cravings")
        try tmux.send("Escape")
        try tmux.waitFor("What brings you here today?")
        return tmux
    }

    /// Welcomed, with one imported message ("Remember why", a 2 s tone).
    /// "Later" at the check-in's greeting comes back home with its note, and home's check-in line
    /// says it is for later today.
    func testLaterAtTheCheckInIsSaidOnHome() throws {
        try run(["settings", "name", "Sam"])
        let tmux = try start()
        try tmux.waitFor("Get started")
        try tmux.send("s", literal: true)
        XCTAssertTrue(try tmux.waitFor("LOG CRAVING").contains("Check-in (not yet today)"))
        try tmux.send("k", literal: true)
        try tmux.waitFor("Take a moment for yourself")
        try tmux.send("l", literal: true)
        // Home drawn whole: its note is the first line written, its check-in line after it.
        try tmux.waitUntil("home with the note and the check-in for later") {
            $0.contains("Later, then. No reminder today.") && $0.contains("Check-in (later today)")
        }
        // Ctrl-C inside the check-in leaves it, back home: not the whole program.
        try tmux.send("k", literal: true)
        try tmux.waitFor("How does today feel, overall?")
        try tmux.send("C-c")
        try tmux.waitFor("LOG CRAVING")
        XCTAssertFalse(try tmux.screen().contains("EXIT="), "still home")
        try quit(tmux)
    }

    /// Home's note for a log typed with an old time carries the calm note the command prints.
    func testHomeSaysTheNoteOfAnOldLog() throws {
        try run(["craving", "6", "--at", "2026-01-10 08:15"])
        let entry = try XCTUnwrap(try Tracker(library: Library(root: root)).entries().first)
        let note = Home.saved(entry)
        XCTAssertTrue(note.hasPrefix("Craving logged ✓ — 6 (moderate), 2026-01-10 08:15"), note)
        XCTAssertTrue(note.hasSuffix(LogTime.oldWarning), note)
    }

    /// A milestone newly reached is home's note once, the newest first; coming back home shows the
    /// next; then none, and status has none left to show either.
    func testHomeShowsEachNewMilestoneOnce() throws {
        try run(["craving", "6", "--at", "-8d"])  // Day 9: 1, 3 and 7 days in progress; 1 resisted
        let tmux = try start()
        try tmux.waitFor("Get started")
        try tmux.send("s", literal: true)
        try tmux.waitFor("🌱 7 days in progress")
        try tmux.send("x", literal: true)  // no action: home again
        XCTAssertFalse(try tmux.waitFor("💪 1 craving resisted").contains("7 days in progress"))
        try quit(tmux)
        XCTAssertFalse(try run(["status"]).stdout.contains("🏅"), "every one shown")
    }

    func welcomedWithAMessage() throws {
        try makeToneWAV(base + "/tone.wav", seconds: 2)
        try run(["import", base + "/tone.wav", "--title", "Remember why"])
        let tmux = try start()
        try tmux.waitFor("Get started")
        try tmux.send("s", literal: true)
        try tmux.waitFor("LOG CRAVING")
        try quit(tmux)
    }

    /// Someone's first open may be in a craving: on the welcome and the tour, c logs one and 1–3
    /// play a message (1 with none says how to record one), q leaves (the welcome shows again);
    /// after Delete all data, settings says so before the welcome comes back.
    func testTheWelcomeAndTheTourHelpInACraving() throws {
        // The speaker the first run plays on ("default") writes to a file here.
        let alsa = base + "/alsa.conf"
        try "<\(testALSAConfig)>\npcm.!default { type plug slave.pcm \"cravey_capture\" }\n".write(
            toFile: alsa, atomically: true, encoding: .utf8)
        var tmux = try start(alsa: alsa)
        var welcome = try tmux.waitFor("Get started")
        XCTAssertTrue(
            welcome.contains("In a craving now?  c Log craving  o Ride it out  1–3 Play a message  q Quit"), welcome)
        try tmux.send("1", literal: true)
        welcome = try tmux.waitFor("No messages yet")
        XCTAssertTrue(
            welcome.contains("record motivational content") && welcome.contains("cravey record audio"), welcome)
        try tmux.send("c", literal: true)
        try tmux.waitFor("Log Craving")
        try tmux.send("Enter")
        try tmux.waitFor("Ride it out now?")
        try tmux.send("Enter")
        // The words come as the craving's screen closes: the welcome is drawn with them a moment after.
        welcome = try tmux.waitUntil("the welcome with the craving's words") {
            $0.contains("Craving logged ✓ — 5 (moderate), ") && $0.contains("Get started")
        }
        XCTAssertTrue(welcome.contains("Get started"), "back on the welcome: \(welcome)")
        XCTAssertEqual((try json(try run(["log", "--json"]).stdout) as? [Any])?.count, 1)
        // A message now: 1 on a tour card plays it, and it counts.
        try makeToneWAV(base + "/tone.wav", seconds: 1)
        try run(["import", base + "/tone.wav", "--title", "Remember why"])
        try tmux.send("Enter")
        try tmux.waitFor("Track Cravings")
        try tmux.send("1", literal: true)
        let card = try tmux.waitFor("Played 'Remember why' ✓", timeout: 20)
        XCTAssertTrue(card.contains("Track Cravings"), "back on the card: \(card)")
        let played = try json(try run(["top", "--json"]).stdout) as? [[String: Any]]
        XCTAssertEqual(played?.first?["playCount"] as? Int, 1)
        XCTAssertGreaterThan(try readS16(speakerOut).count, 24_000, "the tone reached the speaker")
        // q leaves; the welcome is shown again next time.
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
        tmux = try start(alsa: alsa)
        try tmux.waitFor("Get started")
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
        XCTAssertTrue(try settings().contains("goal  (not set)"))
        // Skip tour, then Delete all data from settings: it says so, then the welcome.
        tmux = try start(alsa: alsa)
        try tmux.waitFor("Get started")
        try tmux.send("s", literal: true)
        try tmux.waitFor("LOG CRAVING")
        try tmux.send("s", literal: true)
        try tmux.waitFor("DATA MANAGEMENT")
        try tmux.send("d", literal: true)
        try tmux.waitFor("delete all cravings, usage logs, recordings, and check-ins.")
        try tmux.send("d", literal: true)
        let deleted = try tmux.waitFor("All data deleted")
        XCTAssertTrue(deleted.contains("DATA MANAGEMENT"), "said on settings, before the welcome: \(deleted)")
        try tmux.send("Escape")
        try tmux.waitFor("Get started")
        tmux.close()
    }

    func testEveryHomeKeyComesBackHome() throws {
        try welcomedWithAMessage()
        let tmux = try start("home --speaker cravey_capture --mic cravey_file")
        var home = try tmux.waitFor("Quick Play:")
        XCTAssertTrue(home.contains("1  🎙️ Remember why"), home)
        // 1: the top message plays at once, through the speaker, and counts.
        try tmux.send("1", literal: true)
        home = try tmux.waitFor("Played 'Remember why' ✓", timeout: 20)
        XCTAssertTrue(home.contains("LOG CRAVING"))
        let played = try json(try run(["top", "--json"]).stdout) as? [[String: Any]]
        XCTAssertEqual(played?.first?["playCount"] as? Int, 1)
        let samples = try readS16(speakerOut)
        XCTAssertGreaterThan(samples.count, 48_000, "about 2 s came out of the speaker")
        XCTAssertGreaterThan(rmsDecibels(samples), -40, "and they are the tone, not silence")
        // c and u: the forms, then home with a note.
        try tmux.send("c", literal: true)
        try tmux.waitFor("Log Craving")
        try tmux.send("Enter")
        try tmux.waitFor("Play one of your messages?")
        try tmux.send("Enter")
        try tmux.waitFor("Craving logged ✓ — 5 (moderate), ")
        try tmux.send("u", literal: true)
        try tmux.waitFor("Log Usage")
        try tmux.send("Enter")
        // The form's own keys say Enter too: wait for what comes after it — the question whether
        // the use followed the craving (answered no), or the note — however late a busy machine
        // draws it.
        let deadline = Date() + 20
        var after = try tmux.screen()
        while !after.contains("link them") && !after.contains("Usage logged ✓") && Date() < deadline {
            usleep(100_000)
            after = try tmux.screen()
        }
        if after.contains("link them") { try tmux.send("Enter") }
        try tmux.waitFor("Usage logged ✓ — 0.5 bowls/joints, ")
        XCTAssertEqual(
            try jsonObject(try run(["progress", "--json"]).stdout)["summary"].flatMap {
                ($0 as? [String: Any])?["cravings"] as? Int
            }, 1)
        // p: progress, q back home.
        try tmux.send("p", literal: true)
        try tmux.waitFor("[7D]")
        try tmux.send("q", literal: true)
        try tmux.waitFor("LOG CRAVING")
        // r: a second key; Esc cancels.
        try tmux.send("r", literal: true)
        try tmux.waitFor("Record:  a audio   v video")
        try tmux.send("Escape")
        try tmux.waitFor("k ☀️ Check-in (not yet today)")
        // k: the check-in's greeting; q leaves it, back home.
        try tmux.send("k", literal: true)
        try tmux.waitFor("Take a moment for yourself")
        try tmux.send("q", literal: true)
        try tmux.waitFor("LOG CRAVING")
        // s: settings, Esc back.
        try tmux.send("s", literal: true)
        try tmux.waitFor("DATA MANAGEMENT")
        try tmux.send("Escape")
        try tmux.waitFor("LOG CRAVING")
        try quit(tmux)
    }

    func testSettingsGoalExportAndDeleteAll() throws {
        try welcomedWithAMessage()
        try run(["craving", "6"])
        let tmux = try start("settings")
        try tmux.waitFor("DATA MANAGEMENT")
        try tmux.send("g", literal: true)
        try tmux.waitFor("Flexible goals")
        for _ in 1...3 { try tmux.send("Down") }
        try tmux.send("Enter")
        try tmux.waitFor("Goal: Harm reduction ✓")
        let day = try run(["export", "--format", "json", "--output", "-"]).stdout.isEmpty ? "" : ExportDay.today
        // Export: CSV is chosen, Enter exports (j chooses JSON).
        for (keys, format) in [([String](), "csv"), (["j"], "json")] {
            try tmux.send("e", literal: true)
            let page = try tmux.waitFor("Choose format:")
            XCTAssertTrue(page.contains("● CSV") && page.contains("○ JSON"), page)
            XCTAssertTrue(page.contains("To: /"), page)
            for key in keys { try tmux.send(key, literal: true) }
            if !keys.isEmpty { try tmux.waitFor("● JSON") }
            try tmux.send("Enter")
            try tmux.waitFor("Data exported ✓")
            let path = base + "/cravey_export_\(day).\(format)"
            let text = try String(contentsOfFile: path, encoding: .utf8)
            XCTAssertTrue(
                format == "csv" ? text.hasPrefix("record,") : (try json(text) as? [String: Any])?["cravings"] != nil,
                text)
            XCTAssertTrue(text.contains("Remember why"))
        }
        // Twice the same day: Enter keeps both (a numbered name), r replaces today's.
        let today = base + "/cravey_export_\(day).csv"
        try "old".write(toFile: today, atomically: true, encoding: .utf8)
        try tmux.send("e", literal: true)
        try tmux.waitFor("Choose format:")
        try tmux.send("Enter")
        let again = try tmux.waitFor("Today's export is already there")
        XCTAssertTrue(again.contains("Keep both (writes cravey_export_\(day)_2.csv)"), again)
        try tmux.send("Enter")
        try tmux.waitFor("Data exported ✓")
        XCTAssertTrue(
            try String(contentsOfFile: base + "/cravey_export_\(day)_2.csv", encoding: .utf8).hasPrefix("record,"))
        XCTAssertEqual(try String(contentsOfFile: today, encoding: .utf8), "old")
        try tmux.send("e", literal: true)
        try tmux.waitFor("Choose format:")
        try tmux.send("Enter")
        try tmux.waitFor("Today's export is already there")
        try tmux.send("r", literal: true)
        try tmux.waitFor("Data exported ✓")
        XCTAssertTrue(try String(contentsOfFile: today, encoding: .utf8).hasPrefix("record,"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: base + "/cravey_export_\(day)_3.csv"))
        // The name: Enter on the empty field keeps it; typing replaces it; Del forgets it.
        try run(["settings", "name", "Sam"])
        try tmux.send("n", literal: true)
        try tmux.waitFor("Now: Sam")
        try tmux.send("Enter")
        try tmux.waitFor("DATA MANAGEMENT")
        XCTAssertTrue(try settings().contains("name  Sam"))
        try tmux.send("n", literal: true)
        try tmux.waitFor("Del forget the name")
        try tmux.send("Bo", literal: true)
        try tmux.send("Enter")
        try tmux.waitFor("Name: Bo ✓")
        try tmux.send("n", literal: true)
        try tmux.waitFor("Now: Bo")
        try tmux.send("DC")
        try tmux.waitFor("Name cleared")
        XCTAssertTrue(try settings().contains("name  (not set)"))
        // Delete all: Esc cancels and changes nothing; d deletes (settings says so) and the first
        // run is back.
        try tmux.send("d", literal: true)
        try tmux.waitFor("Delete All Data?")
        try tmux.waitFor("This will permanently delete all cravings, usage logs, recordings, and check-ins.")
        try tmux.send("Escape")
        try tmux.waitFor("DATA MANAGEMENT")
        XCTAssertEqual(try run(["top", "--json"]).stdout.contains("Remember why"), true)
        try tmux.send("d", literal: true)
        try tmux.waitFor("Delete All Data?")
        try tmux.send("d", literal: true)
        XCTAssertTrue(try tmux.waitFor("All data deleted").contains("DATA MANAGEMENT"))
        try tmux.send("Escape")
        XCTAssertTrue(try tmux.waitFor("EXIT=0").contains("All data deleted\nEXIT=0"))
        XCTAssertEqual(try run(["top", "--json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines), "[]")
        XCTAssertEqual(
            try jsonObject(try run(["progress", "--json"]).stdout)["summary"].flatMap {
                ($0 as? [String: Any])?["cravings"] as? Int
            }, 0)
        let next = try start()
        try next.waitFor("Get started")
        next.close()
    }

    func testScriptedSettingsPrivacyVersionAndHelp() throws {
        XCTAssertEqual(
            try run(["settings", "goal", "harm-reduction"]).stdout,
            "goal: Harm reduction — I want to use more intentionally\n")
        let bad = try run(["settings", "goal", "stop"], status: 1)
        XCTAssertEqual(
            bad.stderr, "cravey: no goal called 'stop' (goals: quit, cut-down, monitor, harm-reduction, exploring)\n")
        XCTAssertTrue(try settings().contains("goal  harm-reduction"))
        XCTAssertEqual(
            try run(["settings", "welcomed", "x"], status: 1).stderr,
            "cravey: no setting called 'welcomed' (there are: goal, name, quick-play, price)\n")
        let privacy = try run(["privacy"]).stdout
        XCTAssertTrue(privacy.hasPrefix("Your data is private and local-only.\n"), privacy)
        XCTAssertTrue(privacy.contains(root), "names where the library is")
        XCTAssertTrue(
            privacy.contains("only you, on this computer account") && privacy.contains("cravey export")
                && privacy.contains("cravey purge"))
        let version = try runProcess(cravey, ["--version"]).stdout
        let head = try runProcess("/usr/bin/git", ["-C", repositoryRoot, "rev-parse", "--short=12", "HEAD"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        // The commit the binary was built from: HEAD, or one before it whose sources are the same
        // (a build after a commit that changed only tests does not link the program again).
        let built = version.split(separator: " ").last.map { $0.trimmingCharacters(in: .init(charactersIn: ")\n")) }
        let same = try runProcess(
            "/usr/bin/git",
            ["-C", repositoryRoot, "diff", "--quiet", built ?? "", head, "--", "Sources", "Package.swift"])
        XCTAssertTrue(
            version.hasPrefix("0.1.0 (build \(head)") || (built?.count == 12 && same.status == 0),
            "\(version) names the commit \(head) or one with the same sources")
        // Without a terminal, bare cravey prints the help; home needs one.
        let help = try runProcess(cravey, [], environment: ["CRAVEY_LIBRARY": root])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("USAGE: cravey"), help.stdout)
        XCTAssertEqual(try run(["home"], status: 1).stderr.split(separator: "\n").count, 1)
    }
}

/// Today as export names its file.
enum ExportDay {
    /// Today where the home screen runs (TZ=Europe/Berlin), as an export names its file.
    static var today: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "Europe/Berlin")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date())
    }
}
