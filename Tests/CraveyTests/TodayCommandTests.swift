import CraveyTestSupport
import Foundation
import XCTest

/// `cravey today`, end to end through the built binary without a terminal, on a clock started at
/// Nov 20, 2026, 12:00 (UTC): a day answered (no use, not remembered), its JSON, the refusals
/// that change nothing, a use that withdraws a mark (from `use` and from `log edit`), the >7-day
/// note, the back-fill's list without a terminal, and the report and progress that tell the
/// kinds of day apart.
final class TodayCommandTests: CommandTestCase {
    let environment = [
        "NO_COLOR": "1", "TZ": "UTC", "CRAVEY_TRANSCRIBE": "later", "CRAVEY_NOW": "2026-11-20T12:00:00",
    ]

    @discardableResult
    func run(_ arguments: [String], status: Int32? = 0, file: StaticString = #filePath, line: UInt = #line) throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        let result = try runProcess(cravey, arguments + ["--library", root], environment: environment)
        if let status {
            XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)", file: file, line: line)
        }
        return result
    }

    /// A refusal: one line on standard error, nothing on standard output, the answers unchanged.
    func assertRefused(_ arguments: [String], saying words: String, file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        let before = FileManager.default.fileExists(atPath: root) ? try marks() : "no library"
        let result = try run(arguments, status: nil, file: file, line: line)
        XCTAssertNotEqual(result.status, 0, "\(arguments)", file: file, line: line)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.contains(words), "\(arguments): \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stdout, "", file: file, line: line)
        let after = FileManager.default.fileExists(atPath: root) ? try marks() : "no library"
        XCTAssertEqual(after, before, "nothing changed", file: file, line: line)
    }

    /// The answers as stored.
    func marks() throws -> String {
        try runProcess(
            "/usr/bin/sqlite3",
            [root + "/library.sqlite", "SELECT day, answer, withdrawnBy IS NOT NULL FROM dayMark ORDER BY day"]
        ).stdout
    }

    func testADayAnsweredWithoutATerminalAndAsJSON() throws {
        XCTAssertEqual(
            try run(["today"]).stdout,
            "Today (Nov 20): not reported yet. 'cravey today --none' if there was no use; 'cravey use' if you used.\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: root), "a question makes no library")
        try assertRefused(["today", "--none", "--date", "yesterday"], saying: "no cravey library")
        XCTAssertFalse(FileManager.default.fileExists(atPath: root), "a refused answer makes no library")

        XCTAssertEqual(try run(["today", "--none"]).stdout, "No use today ✓\n")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: root)[.posixPermissions] as? Int, 0o700)
        let shown = try jsonObject(try run(["today", "--json"]).stdout)
        XCTAssertEqual(shown["day"] as? String, "2026-11-20")
        XCTAssertEqual(shown["kind"] as? String, "noUse")
        XCTAssertEqual(try run(["today"]).stdout, "Today (Nov 20): no use ✓\n")

        // Tracking began today: yesterday is before it, kindly refused.
        try assertRefused(
            ["today", "--none", "--date", "yesterday"], saying: "2026-11-19 is before tracking began (2026-11-20)")
        try run(["craving", "4", "--at", "2026-11-16 09:00"])
        let answered = try jsonObject(try run(["today", "--dont-remember", "--date", "2026-11-18", "--json"]).stdout)
        XCTAssertEqual(answered["kind"] as? String, "dontRemember")
        XCTAssertEqual(answered["answer"] as? String, "unknown")
        XCTAssertTrue(answered["before"] is NSNull)
        let replaced = try run(["today", "--none", "--date", "2026-11-18"])
        XCTAssertEqual(replaced.stdout, "No use on Nov 18 ✓ (it was not remembered)\n")
        XCTAssertEqual(replaced.stderr, "", "no memory note within 7 days")

        try assertRefused(["today", "--none", "--date", "2026-11-21"], saying: "2026-11-21 has not come yet")
        try assertRefused(
            ["today", "--none", "--date", "2026-13-01"], saying: "there is no day 2026-13-01 in the calendar")
        try assertRefused(
            ["today", "--none", "--date", "2026-02-29"], saying: "there is no day 2026-02-29 in the calendar")
        try assertRefused(["today", "--none", "--date", "\u{1B}[31m"], saying: "is not a date written as YYYY-MM-DD")
        try assertRefused(["today", "--none", "--dont-remember"], saying: "give --none or --dont-remember, not both")
        try assertRefused(["today", "--from", "2026-11-01"], saying: "--from and --to are for --backfill")
        try run(["use", "vape", "2", "--at", "2026-11-17 20:00"])
        try assertRefused(
            ["today", "--none", "--date", "2026-11-17"], saying: "a use is logged on 2026-11-17, so it is a day of use")
        XCTAssertEqual(try marks(), "2026-11-18|none|0\n2026-11-20|none|0\n")
    }

    func testAUseOnADayMarkedWithoutUseWithdrawsTheMarkInOneLine() throws {
        try run(["craving", "4", "--at", "2026-11-16 09:00"])
        try run(["today", "--none", "--date", "2026-11-19"])
        let withdrawn =
            "Yesterday was marked as a day without use; that mark is withdrawn now that a use is logged on it.\n"
        let used = try run(["use", "vape", "2", "--at", "2026-11-19 20:00"])
        XCTAssertTrue(used.stdout.hasPrefix("Usage logged ✓"), used.stdout)
        XCTAssertEqual(used.stderr, withdrawn)
        XCTAssertEqual(try run(["use", "vape", "1", "--at", "2026-11-19 21:00"]).stderr, "", "said once")
        XCTAssertEqual(try marks(), "2026-11-19|none|1\n")
        XCTAssertEqual(
            try jsonObject(try run(["today", "--date", "2026-11-19", "--json"]).stdout)["kind"] as? String, "used")

        // A use moved onto a marked day by `log edit` withdraws that mark too; --json stays one document.
        try run(["today", "--none", "--date", "2026-11-18"])
        let moved = try run(["use", "dab", "1", "--at", "2026-11-17 10:00", "--json"])
        let id = try XCTUnwrap(try jsonObject(moved.stdout)["id"] as? String)
        let edited = try run(["log", "edit", id, "--at", "2026-11-18 10:00"])
        XCTAssertEqual(edited.stderr, withdrawn.replacingOccurrences(of: "Yesterday", with: "Nov 18"))
        XCTAssertEqual(try run(["log", "edit", id, "--notes", "later words"]).stderr, "", "not said again")
    }

    func testADayAnsweredMoreThanSevenDaysLaterHasTheMemoryNote() throws {
        try run(["craving", "4", "--at", "2026-11-01 09:00"])
        let old = try run(["today", "--none", "--date", "2026-11-10"])
        XCTAssertEqual(old.stdout, "No use on Nov 10 ✓\n")
        XCTAssertEqual(old.stderr, "Memory may be less reliable for events more than 7 days ago\n")
    }

    func testTheBackfillListsTheUnreportedDaysWithoutATerminal() throws {
        XCTAssertEqual(
            try run(["today", "--backfill"]).stdout,
            "Nothing to back-fill: no day from Oct 22 to Nov 20 is waiting for an answer.\n")
        try run(["craving", "4", "--at", "2026-11-16 09:00"])
        try run(["use", "vape", "2", "--at", "2026-11-17 20:00"])
        try run(["today", "--none", "--date", "2026-11-18"])
        try run(["today", "--dont-remember", "--date", "2026-11-19"])
        XCTAssertEqual(
            try run(["today", "--backfill"]).stdout,
            """
            Not reported yet, newest first ('cravey today --none --date DAY' answers one):
              2026-11-20  Friday
              2026-11-16  Monday

            """)
        let listed = try jsonObject(try run(["today", "--backfill", "--from", "2026-11-17", "--json"]).stdout)
        XCTAssertEqual(listed["notReported"] as? [String], ["2026-11-20"])
        try assertRefused(["today", "--backfill", "--to", "2026-11-25"], saying: "is after today")
    }

    /// The report's calendar and `report --json`, and `progress --json`: used, no use, not
    /// reported, not remembered and before tracking, told apart; the confirmed days counted.
    func testTheReportAndProgressTellTheKindsOfDayApart() throws {
        try run(["craving", "4", "--at", "2026-11-16 09:00"])
        try run(["use", "vape", "2", "--at", "2026-11-17 20:00"])
        try run(["today", "--none", "--date", "2026-11-18"])
        try run(["today", "--dont-remember", "--date", "2026-11-19"])
        let report = try jsonObject(try run(["report", "--json", "--from", "2026-11-14"]).stdout)
        let days = try XCTUnwrap(report["days"] as? [[String: Any]])
        XCTAssertEqual(
            days.map { "\($0["day"]!) \($0["kind"]!)" },
            [
                "2026-11-14 beforeTracking", "2026-11-15 beforeTracking", "2026-11-16 notReported", "2026-11-17 used",
                "2026-11-18 noUse", "2026-11-19 dontRemember", "2026-11-20 notReported",
            ])
        let known = try XCTUnwrap((report["figures"] as? [String: Any])?["knownDays"] as? [String: Any])
        XCTAssertEqual(known["confirmed"] as? Int, 1)
        XCTAssertEqual(known["days"] as? Int, 5)
        XCTAssertEqual(known["notReported"] as? Int, 2)
        XCTAssertEqual(known["confirmedDays"] as? [String], ["2026-11-18"])

        let progress = try jsonObject(try run(["progress", "--json", "--range", "all"]).stdout)
        let counted = try XCTUnwrap(progress["knownDays"] as? [String: Any])
        XCTAssertEqual(counted["confirmed"] as? Int, 1)
        XCTAssertEqual(counted["dontRemember"] as? Int, 1)
        XCTAssertEqual(counted["used"] as? Int, 1)
        XCTAssertEqual(counted["from"] as? String, "2026-11-16")
        XCTAssertEqual((progress["currentStreak"] as? [String: Any])?["days"] as? Int, 3, "the streak as it was")
        let plain = try run(["progress", "--range", "all"]).stdout
        XCTAssertTrue(plain.contains("Days known: 1 of 5 days confirmed without use"), plain)

        let page = base + "/report.html"
        try run(["report", "--html", page, "--from", "2026-11-14"])
        let html = try String(contentsOfFile: page, encoding: .utf8)
        for (title, symbol, count) in [
            ("not tracked yet", "—", 2), ("not reported", "?", 2), ("no use, confirmed", "0", 1),
            ("not remembered", "~", 1),
        ] {
            XCTAssertEqual(
                html.components(separatedBy: "title=\"\(title)\">\(symbol)<").count - 1, count, "\(title): \(html)")
        }
        XCTAssertTrue(html.contains("<span class=\"use\">2 pulls</span>"))
        XCTAssertTrue(
            html.contains(
                "<dt>Days known</dt><dd>1 of 5 days confirmed without use · 1 with use · 1 not remembered · 2 not reported</dd>"
            ), html)
    }
}
