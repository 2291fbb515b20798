import CraveyTestSupport
import Foundation
import XCTest

/// `cravey limit`, end to end through the built binary without a terminal, on a clock started at
/// Wed Nov 25, 2026, 12:00 (UTC): windows added and removed, a weekly target and the planned use
/// set and cleared, `--json`, the refusals that change nothing, the goals it is absent for unless
/// asked; a script's use in a break window logged at once with one line on standard error; the
/// weeks as a smoothed trend and "uses as planned" in progress, on the report's page, in its PDF
/// and in `report --json`, against a hand-worked history.
final class LimitCommandTests: CommandTestCase {
    var now = "2026-11-25T12:00:00"

    @discardableResult
    func run(_ arguments: [String], status: Int32? = 0, file: StaticString = #filePath, line: UInt = #line) throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        try runClocked(arguments, now: now, status: status, file: file, line: line)
    }

    /// The limits as stored.
    func stored() throws -> String {
        guard FileManager.default.fileExists(atPath: root) else { return "no library" }
        return try runProcess(
            "/usr/bin/sqlite3",
            [
                root + "/library.sqlite",
                "SELECT id, kind, startMinute, endMinute, methods, amount FROM limitRule ORDER BY id",
            ]
        ).stdout
    }

    /// A refusal in one line that changes no limit.
    func assertRefused(_ arguments: [String], saying words: String, file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        try assertRefusedClocked(arguments, now: now, saying: words, state: stored, file: file, line: line)
    }

    func testLimitsSetShownAndRefusedWithoutATerminal() throws {
        XCTAssertTrue(try run(["limit"]).stdout.hasPrefix("Break windows: none"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: root), "a question makes no library")
        try assertRefused(["limit", "break", "add", "21:00-23:00"], saying: "no cravey library")

        try run(["settings", "goal", "cut-down"])
        XCTAssertEqual(
            try run(["limit", "break", "add", "21:00-23:00"]).stdout,
            "Break window 21:00–23:00 ✓ — a use logged in it asks first, once, and is never refused.\n")
        XCTAssertEqual(
            try run(["limit", "break", "add", "21:00-23:00"]).stdout, "The break window 21:00–23:00 is set already.\n")
        try run(["limit", "break", "add", "23:30-06:00"])
        XCTAssertEqual(
            try run(["limit", "week", "3"]).stdout,
            "Weekly target: at most 3 days of use a week ✓ — progress shows your weeks as a trend.\n")
        XCTAssertEqual(
            try run(["limit", "plan", "--methods", "vape,edible", "--per-day", "3", "--hours", "18-23"]).stdout,
            "Planned use: vape or edible, up to 3 a day, 18:00–23:00 ✓\n")
        XCTAssertEqual(
            try run(["limit"]).stdout,
            """
            Break windows (a use in one asks first, once; it is never refused):
              1  21:00–23:00
              2  23:30–06:00 (across midnight)
            Weekly target: at most 3 days of use a week
            Planned use: vape or edible, up to 3 a day, 18:00–23:00

            """)
        let shown = try jsonObject(try run(["limit", "--json"]).stdout)
        XCTAssertEqual(shown["breaks"] as? [String], ["21:00-23:00", "23:30-06:00"])
        XCTAssertEqual((shown["weeklyTarget"] as? [String: Any])?["days"] as? Int, 3)
        XCTAssertEqual((shown["planned"] as? [String: Any])?["methods"] as? [String], ["vape", "edible"])
        XCTAssertEqual((shown["planned"] as? [String: Any])?["hours"] as? String, "18-23")
        XCTAssertEqual(shown["offered"] as? Bool, true)

        // An amount a week replaces the days.
        try run(["limit", "week", "--amount", "vape=20", "--amount", "dab=2"])
        let amounts = try jsonObject(try run(["limit", "--json"]).stdout)["weeklyTarget"] as? [String: Any]
        XCTAssertEqual(amounts?["amounts"] as? [String: Double], ["vape": 20, "dab": 2])
        XCTAssertEqual(amounts?["text"] as? String, "at most 20 pulls (vape) and 2 dabs a week")

        for (arguments, words) in [
            (["limit", "break", "add", "21:00"], "HH:MM-HH:MM"),
            (["limit", "break", "add", "22:00-22:00"], "starts and ends at different times"),
            (["limit", "break", "add", "\u{1B}[31m-23:00"], "HH:MM-HH:MM"),
            (["limit", "break", "remove", "3"], "there is no window 3"),
            (["limit", "break", "remove", "0"], "not a whole number from 1 to 8"),
            (["limit", "week", "7"], "not a whole number from 0 to 6"),
            (["limit", "week", "3", "--amount", "vape=2"], "not both"),
            (["limit", "week", "--amount", "weed=2"], "'weed' is not one of"),
            (["limit", "week", "--amount", "vape=-1"], "is not an amount of pulls a week"),
            (["limit", "week"], "give the days of use a week"),
            (["limit", "plan", "--methods", "vape", "--per-day", "0", "--hours", "18-23"], "not an amount a day"),
            (["limit", "plan", "--methods", "vape", "--per-day", "3", "--hours", "18"], "HH-HH"),
            (["limit", "plan", "--methods", "", "--per-day", "3", "--hours", "18-23"], "name one or more"),
            (["limit", "clear", "everything"], "clear all, breaks, week or plan"),
            (["limit", "--offer", "always"], "--offer is any-goal or goal"),
        ] {
            try assertRefused(arguments, saying: words)
        }

        XCTAssertEqual(try run(["limit", "break", "remove", "1"]).stdout, "Removed the break window 21:00–23:00.\n")
        XCTAssertEqual(try run(["limit", "clear", "week"]).stdout, "Weekly target cleared.\n")
        XCTAssertEqual(try run(["limit", "clear", "week"]).stdout, "There was nothing to clear.\n")
        XCTAssertTrue(try run(["check"]).stdout.hasPrefix("Library OK"))
        XCTAssertEqual(
            try run(["limit", "clear"]).stdout,
            "Limits cleared: no break windows, no weekly target, no planned use.\n")
        XCTAssertEqual(try stored(), "")
    }

    func testAbsentForOtherGoalsUnlessAsked() throws {
        try run(["settings", "goal", "quit"])
        try assertRefused(
            ["limit", "break", "add", "21:00-23:00"], saying: "your goal is 'quit'; 'cravey limit --offer any-goal'")
        XCTAssertTrue(try run(["limit"]).stdout.contains("--offer any-goal"))
        XCTAssertEqual(try jsonObject(try run(["limit", "--json"]).stdout)["offered"] as? Bool, false)
        XCTAssertEqual(try run(["limit", "--offer", "any-goal"]).stdout, "Limits are offered whatever your goal ✓\n")
        try run(["limit", "break", "add", "21:00-23:00"])
        XCTAssertTrue(try run(["check"]).stdout.hasPrefix("Library OK"), "the setting is one cravey keeps")
        XCTAssertNotNil(try jsonObject(try run(["progress", "--json"]).stdout)["limits"] as? [String: Any])
        try run(["limit", "--offer", "goal"])
        XCTAssertTrue(try jsonObject(try run(["progress", "--json"]).stdout)["limits"] is NSNull)
        now = "2026-11-25T21:30:00"
        let used = try run(["use", "vape", "1"])
        XCTAssertEqual(used.stderr, "", "not asked for a goal limits are not offered for")
    }

    /// A script's use in a break window is logged at once, the window said once on standard
    /// error; outside a window nothing more is said.
    func testAScriptsUseInABreakWindowIsLoggedAndSaysTheWindowOnce() throws {
        try run(["settings", "goal", "harm-reduction"])
        try run(["limit", "break", "add", "21:00-23:00"])
        now = "2026-11-25T21:30:00"
        let used = try run(["use", "vape", "2"])
        XCTAssertTrue(used.stdout.hasPrefix("Usage logged ✓"), used.stdout)
        XCTAssertEqual(used.stderr, "This use was in your break window 21:00–23:00; it is logged all the same.\n")
        let json = try run(["use", "vape", "1", "--json"])
        XCTAssertNoThrow(try jsonObject(json.stdout), "standard output stays JSON")
        XCTAssertEqual(json.stderr.split(separator: "\n").count, 1)
        let earlier = try run(["use", "vape", "1", "--at", "2026-11-25 20:30"])
        XCTAssertEqual(earlier.stderr, "", "20:30 is before the window")
        let logged = try runProcess("/usr/bin/sqlite3", [root + "/library.sqlite", "SELECT count(*) FROM usage"])
        XCTAssertEqual(logged.stdout, "3\n", "never refused")
    }

    /// Cut-down, at most 2 days of use a week (set on Sun Nov 1); today Wed Nov 25. Weeks from the first log (Mon
    /// Nov 2): two days (within), three (over), one (within): the trend 0.13157, 0.11426, 0.23080
    /// — 23% — and this week so far two days. Harm reduction's plan (vape up to 3 a day, 18–23)
    /// fits 2 of the last 7 days' 3 uses.
    func testTheTrendAndUsesAsPlannedInProgressAndTheReport() throws {
        try run(["settings", "goal", "cut-down"])
        for at in [
            "2026-11-02 20:00", "2026-11-04 20:00", "2026-11-09 20:00", "2026-11-10 20:00", "2026-11-11 20:00",
            "2026-11-20 20:00", "2026-11-23 20:00",
        ] {
            try run(["use", "vape", "2", "--at", at])
        }
        try run(["use", "vape", "2", "--at", "2026-11-24 23:30"])
        now = "2026-11-01T12:00:00"  // the target set before the weeks it judges
        try run(["limit", "week", "2"])
        now = "2026-11-25T12:00:00"
        try run(["limit", "break", "add", "23:00-01:00"])
        try run(["limit", "plan", "--methods", "vape", "--per-day", "3", "--hours", "18-23"])

        let progress = try run(["progress"]).stdout
        for part in [
            "🧭 Limits", "Break windows: 23:00–01:00 (1 use logged in one)",
            "Weekly target: at most 2 days of use a week",
            "Within target: 23% (smoothed) · 2 of the last 3 weeks", "The trend, a block a week: ▂▁▂",
            "This week so far: 2 days of use",
        ] {
            XCTAssertTrue(progress.contains(part), "'\(part)' not in\n\(progress)")
        }
        XCTAssertTrue(
            progress.replacingOccurrences(of: "\n  ", with: " ").contains(
                "a week over it nudges it down a little, never back to zero"), progress)
        XCTAssertFalse(progress.contains("Uses as Planned"), "the headline is harm reduction's")
        let limits = try XCTUnwrap(try jsonObject(try run(["progress", "--json"]).stdout)["limits"] as? [String: Any])
        XCTAssertEqual(limits["strengthPercent"] as? Int, 23)
        XCTAssertEqual(limits["trend"] as? [Double], [0.132, 0.114, 0.231])
        XCTAssertEqual((limits["weeks"] as? [[String: Any]])?.map { $0["within"] as? Bool }, [true, false, true])
        XCTAssertEqual((limits["thisWeek"] as? [String: Any])?["daysUsed"] as? Int, 2)

        try run(["settings", "goal", "harm-reduction"])
        let harm = try run(["progress"]).stdout
        XCTAssertTrue(harm.contains("🤝 Uses as Planned"), harm)
        XCTAssertTrue(harm.contains("2 of 3 uses as planned"), harm)
        let asPlanned = try XCTUnwrap(
            (try jsonObject(try run(["progress", "--json"]).stdout)["limits"] as? [String: Any])?["asPlanned"]
                as? [String: Any])
        XCTAssertEqual(asPlanned["asPlanned"] as? Int, 2)
        XCTAssertEqual(asPlanned["uses"] as? Int, 3)

        let page = base + "/report.html"
        try run(["report", "--range", "7d", "--html", page])
        let html = try String(contentsOfFile: page, encoding: .utf8)
        XCTAssertTrue(html.contains("<h2>Limits</h2>") || html.contains(">Limits<"), "the report's page has Limits")
        XCTAssertTrue(html.contains("Weekly target: at most 2 days of use a week"), html)
        XCTAssertTrue(html.contains("Planned use: vape, up to 3 a day, 18:00–23:00"), html)
        let pdf = base + "/report.pdf"
        try run(["report", "--range", "7d", "--pdf", pdf])
        let text = try runProcess("/usr/bin/pdftotext", [pdf, "-"]).stdout
        XCTAssertTrue(text.contains("Limits"), text)
        XCTAssertTrue(text.contains("Weekly target: at most 2 days of use a week"), text)
        let report = try jsonObject(try run(["report", "--range", "7d", "--json"]).stdout)
        let reported = try XCTUnwrap(report["limits"] as? [String: Any])
        XCTAssertEqual(reported["breaks"] as? [String], ["23:00-01:00"])
        XCTAssertEqual((reported["asPlanned"] as? [String: Any])?["text"] as? String, "2 of 3 uses as planned")
    }
}
