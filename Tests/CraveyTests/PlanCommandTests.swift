import CraveyTestSupport
import Foundation
import XCTest

/// `cravey plan` end to end, without a terminal: plans added, listed (plain and `--json`) and
/// removed; bad input as one line that changes nothing; ten kept and an eleventh refused kindly;
/// a plan shown first when a craving with its trigger is logged (its sentence heads the offer,
/// `--play 1` plays its message, through ALSA's file plugin) and in a ride (tmux); the report's
/// Plans section, as the page renders it and in `report --json`.
final class PlanCommandTests: LogTestCase {
    /// Imports a tone as a message; returns its id.
    func message(_ title: String, for trigger: String? = nil) throws -> String {
        let wav = base + "/\(UUID().uuidString.prefix(6)).wav"
        try makeToneWAV(wav, seconds: 1)
        let id = try XCTUnwrap(
            jsonObject(try run(["import", wav, "--title", title, "--json"]).stdout)["id"] as? String)
        if let trigger { try run(["edit", id, "--for", trigger]) }
        return id
    }

    func plans() throws -> [[String: Any]] {
        try XCTUnwrap(json(try run(["plan", "list", "--json"]).stdout) as? [[String: Any]])
    }

    func testPlansAreAddedListedAndRemoved() throws {
        XCTAssertTrue(try run(["plan"]).stdout.hasPrefix("No plans yet."), "no library yet: its empty state")
        XCTAssertFalse(FileManager.default.fileExists(atPath: root), "listing makes no library")
        let walk = try message("Walk first")
        let added = try run([
            "plan", "add", "--trigger", "Bored", "--place", "home", "--hour", "21:00", "--instead",
            "walk round the block", "--message", "walk first",
        ]).stdout
        XCTAssertEqual(
            added,
            "Plan 1 kept ✓  If bored · at home · 21:00–22:00, then: walk round the block — and play 'Walk first'\n")
        let second = try jsonObject(
            try run(["plan", "add", "--trigger", "anxious", "--instead", "- breathe out slowly", "--json"]).stdout)
        XCTAssertEqual(second["trigger"] as? String, "anxious")
        XCTAssertEqual(second["instead"] as? String, "- breathe out slowly")
        XCTAssertTrue(
            second["place"] is NSNull && second["hour"] is NSNull && second["messageId"] is NSNull, "\(second)")
        let listed = try plans()
        XCTAssertEqual(listed.count, 2)
        XCTAssertEqual(listed[0]["trigger"] as? String, "bored")
        XCTAssertEqual(listed[0]["place"] as? String, "home")
        XCTAssertEqual(listed[0]["hour"] as? Int, 21)
        XCTAssertEqual(listed[0]["messageId"] as? String, walk)
        XCTAssertEqual(listed[0]["message"] as? String, "Walk first")
        XCTAssertEqual(
            try run(["plan", "list"]).stdout,
            " 1  bored · at home · 21:00–22:00 → walk round the block  ▶ Walk first\n"
                + " 2  anxious → - breathe out slowly\n")
        XCTAssertEqual(
            try run(["plan", "remove", "1"]).stdout,
            "Removed plan 1: if bored · at home · 21:00–22:00, then: walk round the block\n")
        XCTAssertEqual(try plans().map { $0["trigger"] as? String }, ["anxious"])
        XCTAssertEqual(try mode(root + "/logs.journal") & 0o777, 0o600)
        try run(["purge", "--yes"])
        XCTAssertEqual(try plans().count, 0, "all data is the plans too")
    }

    func testBadInputIsOneLineAndChangesNothing() throws {
        // Refused before any library is made.
        let first = try run(["plan", "add", "--trigger", "nope", "--instead", "walk"], status: nil)
        XCTAssertNotEqual(first.status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root), "a refused plan makes no library")
        try run(["plan", "add", "--trigger", "bored", "--instead", "walk"])
        let before = try run(["plan", "list", "--json"]).stdout
        for (arguments, said) in [
            (["add", "--trigger", "nope", "--instead", "walk"], "invalid --trigger: 'nope' is not one of hungry"),
            (["add", "--trigger", "bored,sad", "--instead", "walk"], "a plan is for one trigger"),
            (["add", "--trigger", "bored", "--hour", "24", "--instead", "walk"], "invalid --hour: '24'"),
            (["add", "--trigger", "bored", "--hour", "nine", "--instead", "walk"], "invalid --hour: 'nine'"),
            (["add", "--trigger", "bored", "--hour", "-1", "--instead", "walk"], "invalid --hour: '-1'"),
            (["add", "--trigger", "bored", "--place", "moon", "--instead", "walk"], "invalid --place: 'moon'"),
            (["add", "--trigger", "bored", "--instead", "  "], "invalid --instead: say in a few words"),
            (["add", "--trigger", "bored", "--instead", "walk\nrun"], "invalid --instead: control character U+000A"),
            (
                ["add", "--trigger", "bored", "--instead", "walk\u{1B}[2J"],
                "invalid --instead: control character U+001B"
            ),
            (
                ["add", "--trigger", "bored", "--instead", String(repeating: "a", count: 201)],
                "invalid --instead: 201 characters; at most 200"
            ),
            (["add", "--trigger", "bored", "--instead", "walk", "--message", "nothing like it"], "nothing like it"),
            (["add", "--instead", "walk"], "--trigger"),
            (["remove", "3"], "there is no plan 3 (plans: 1–1)"),
            (["remove", "none"], "'none' is not a whole number"),
        ] {
            let refused = try run(["plan"] + arguments, status: nil)
            XCTAssertNotEqual(refused.status, 0, "\(arguments)")
            XCTAssertEqual(refused.stdout, "", "\(arguments)")
            let lines = refused.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, "\(arguments): one line: \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains(said), "\(arguments): \(refused.stderr)")
            XCTAssertEqual(try run(["plan", "list", "--json"]).stdout, before, "\(arguments) changed nothing")
        }
    }

    func testTenPlansAreKeptAndTheEleventhIsRefusedKindly() throws {
        for hour in 0..<10 {
            try run(["plan", "add", "--trigger", "bored", "--hour", String(hour), "--instead", "plan \(hour)"])
        }
        let refused = try run(["plan", "add", "--trigger", "sad", "--instead", "one more"], status: 1)
        XCTAssertEqual(
            refused.stderr,
            "cravey: You have 10 plans already, as many as cravey keeps. Remove one first: cravey plan remove N\n")
        XCTAssertEqual(try plans().count, 10)
        XCTAssertEqual(try plans().last?["instead"] as? String, "plan 9")
    }

    func testACravingWithThePlansTriggerShowsItsPlanFirst() throws {
        let bored = try message("For boredom", for: "bored")
        let walk = try message("Walk first")
        for _ in 0..<3 { try run(["play", bored, "--speaker", "cravey_capture"]) }
        try run(["craving", "7", "--trigger", "bored", "--play", "1", "--speaker", "cravey_capture"])
        XCTAssertEqual(try logs().first?["recordingId"] as? String, bored, "no plan: the trigger's message")
        try run([
            "plan", "add", "--trigger", "bored", "--instead", "walk round the block", "--message", walk,
        ])
        let logged = try run(["craving", "7", "--trigger", "sad,bored"]).stdout.split(separator: "\n")
        XCTAssertEqual(logged.count, 3, "\(logged)")
        XCTAssertEqual(logged.last, "📝 Your plan for bored: walk round the block")
        try run(["craving", "7", "--trigger", "bored", "--play", "1", "--speaker", "cravey_capture"])
        XCTAssertEqual(try logs().first?["recordingId"] as? String, walk, "--play 1 is the plan's message")
        try run(["craving", "7", "--trigger", "bored", "--play", "2", "--speaker", "cravey_capture"])
        XCTAssertEqual(try logs().first?["recordingId"] as? String, bored, "then the trigger's")
        let other = try run(["craving", "7", "--trigger", "anxious"]).stdout
        XCTAssertFalse(other.contains("Your plan"), "no plan for anxious: \(other)")
        let json = try run(["craving", "7", "--trigger", "bored", "--json"]).stdout
        XCTAssertNoThrow(try jsonObject(json), "--json prints the craving alone: \(json)")

        // The offer on a terminal, and the ride from it: the plan heads both.
        let tmux = try TmuxSession(
            "cd \(shellQuote(base)) && env NO_COLOR=1 TZ=Europe/Berlin CRAVEY_TRANSCRIBE=later "
                + "ALSA_CONFIG_PATH=\(shellQuote(testALSAConfig)) \(shellQuote(cravey)) craving 8 --trigger bored "
                + "--speaker cravey_capture --library \(shellQuote(root)); echo EXIT=$?; sleep 60", width: 80,
            height: 24)
        defer { tmux.close() }
        let offer = try tmux.waitFor("Enter  not now")
        XCTAssertTrue(
            offer.contains(
                "📝 Your plan for bored: walk round the block\nPlay one of your messages?\n  1  🎙️ Walk first\n  2  🎙️ For boredom"
            ), offer)
        try tmux.send("o", literal: true)
        let ride = try tmux.waitFor("Riding it out")
        XCTAssertTrue(ride.contains("📝 Your plan for bored: walk round the block"), ride)
        // Its message plays first: the first the ride keeps as played.
        func played() throws -> String {
            try runProcess(
                "/usr/bin/sqlite3", [root + "/library.sqlite", "SELECT played FROM craving ORDER BY at DESC LIMIT 1"]
            ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let deadline = Date().addingTimeInterval(10)
        while try played().isEmpty, Date() < deadline { usleep(100_000) }
        XCTAssertEqual(try played().split(separator: ",").first.map(String.init), walk)
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
    }

    func testTheReportHasAPlansSection() throws {
        let walk = try message("Walk first")
        try run(["craving", "5", "--trigger", "bored"])
        let empty = try jsonObject(try run(["report", "--json"]).stdout)
        XCTAssertEqual((empty["plans"] as? [Any])?.count, 0)
        try run(["report", "--html", base + "/none.html"])
        XCTAssertFalse(try String(contentsOfFile: base + "/none.html", encoding: .utf8).contains("<h2>Plans</h2>"))
        try run([
            "plan", "add", "--trigger", "bored", "--hour", "21", "--instead", "walk <round> the block", "--message",
            walk,
        ])
        let report = try jsonObject(try run(["report", "--json"]).stdout)
        let plans = try XCTUnwrap(report["plans"] as? [[String: Any]])
        XCTAssertEqual(plans.count, 1)
        XCTAssertEqual(plans[0]["instead"] as? String, "walk <round> the block")
        XCTAssertEqual(plans[0]["hour"] as? Int, 21)
        XCTAssertEqual(plans[0]["message"] as? String, "Walk first")
        try run(["report", "--html", base + "/report.html"])
        let page = try String(contentsOfFile: base + "/report.html", encoding: .utf8)
        XCTAssertTrue(
            page.contains(
                "<h2>Plans</h2><ul class=\"notes\"><li>If bored · 21:00–22:00, then: walk &lt;round&gt; the block (plays &#39;Walk first&#39;)</li></ul>"
            ), page)
        // The PDF draws the same section.
        try run(["report", "--pdf", base + "/report.pdf"])
        let drawn = try runProcess("/usr/bin/pdftotext", [base + "/report.pdf", "-"]).stdout
        XCTAssertTrue(drawn.contains("Plans"), drawn)
        XCTAssertTrue(drawn.contains("If bored · 21:00–22:00, then: walk <round> the block"), drawn)
    }
}
