import CraveyTestSupport
import Foundation
import XCTest

/// `cravey withdrawal`, end to end through the built binary without a terminal, on a clock
/// started at Nov 20, 2026, 12:00 (UTC), the last use on Nov 17 (today is day 3): a check kept
/// and replaced the same day, its JSON, the refusals that change nothing, the goals it is absent
/// for unless asked, and the chart with its line in progress, the report's page, its PDF and
/// `report --json`.
final class WithdrawalCommandTests: CommandTestCase {
    var now = "2026-11-20T12:00:00"

    @discardableResult
    func run(_ arguments: [String], status: Int32? = 0, file: StaticString = #filePath, line: UInt = #line) throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        try runClocked(arguments, now: now, status: status, file: file, line: line)
    }

    /// The checks as stored.
    func checks() throws -> String {
        guard FileManager.default.fileExists(atPath: root) else { return "no library" }
        return try runProcess(
            "/usr/bin/sqlite3",
            [root + "/library.sqlite", "SELECT * FROM withdrawalCheck ORDER BY day"]
        ).stdout
    }

    /// A refusal: one line on standard error, nothing on standard output, the checks unchanged.
    func assertRefused(_ arguments: [String], saying words: String, file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        let before = try checks()
        let result = try run(arguments, status: nil, file: file, line: line)
        XCTAssertNotEqual(result.status, 0, "\(arguments)", file: file, line: line)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.contains(words), "\(arguments): \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stdout, "", file: file, line: line)
        XCTAssertEqual(try checks(), before, "nothing changed", file: file, line: line)
    }

    func testACheckKeptReplacedAndRefusedWithoutATerminal() throws {
        XCTAssertTrue(try run(["withdrawal"]).stdout.hasPrefix("No use is logged, so there is no day 1 to count from"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: root), "a question makes no library")
        try assertRefused(["withdrawal", "3,5,2,0,4,6"], saying: "no cravey library")

        try run(["use", "vape", "2", "--at", "2026-11-17 21:00"])
        try run(["settings", "goal", "quit"])
        XCTAssertEqual(
            try run(["withdrawal"]).stdout,
            "Day 3 after your last use (Nov 17). 'cravey withdrawal 3,5,2,0,4,6' keeps today's scores (sleep, irritability, anxiety, appetite, dreams, craving; 0–10).\n"
        )
        XCTAssertEqual(
            try run(["withdrawal", "3,5,2,0,4,6"]).stdout,
            "Withdrawal check kept for day 3 ✓ — sleep 3 · irritability 5 · anxiety 2 · appetite 0 · dreams 4 · craving 6\n"
        )
        let replaced = try jsonObject(try run(["withdrawal", "4", "5", "2", "0", "4", "7", "--json"]).stdout)
        let check = try XCTUnwrap(replaced["check"] as? [String: Any])
        XCTAssertEqual(check["day"] as? String, "2026-11-20")
        XCTAssertEqual(check["windowDay"] as? Int, 3)
        XCTAssertEqual((check["scores"] as? [String: Int])?["craving"], 7)
        XCTAssertEqual((replaced["replaced"] as? [String: Int])?["sleep"], 3, "the day's first check")
        XCTAssertEqual(
            try run(["withdrawal", "4,5,2,0,4,7"]).stdout,
            "Withdrawal check kept for day 3 ✓ — sleep 4 · irritability 5 · anxiety 2 · appetite 0 · dreams 4 · craving 7. It replaces today's earlier check (sleep 4 · irritability 5 · anxiety 2 · appetite 0 · dreams 4 · craving 7).\n"
        )
        XCTAssertEqual(try checks().split(separator: "\n").count, 1, "one check a day")
        let stored = try checks()
        XCTAssertTrue(stored.hasPrefix("2026-11-20|4|5|2|0|4|7|"), stored)

        try assertRefused(["withdrawal", "3,5,2,0,4"], saying: "give six scores from 0 to 10")
        try assertRefused(["withdrawal", "3,5,2,0,4,11"], saying: "give six scores from 0 to 10")
        try assertRefused(["withdrawal", "\u{1B}[31m,1,1,1,1,1"], saying: "give six scores from 0 to 10")
        try assertRefused(["withdrawal", "--ask", "1,1,1,1,1,1"], saying: "give the scores or --ask, not both")
        try assertRefused(["withdrawal", "--ask"], saying: "--ask needs a terminal")

        let shown = try jsonObject(try run(["withdrawal", "--json"]).stdout)
        XCTAssertEqual(shown["day"] as? Int, 3)
        XCTAssertEqual(shown["open"] as? Bool, true)
        XCTAssertEqual(shown["lastUse"] as? String, "2026-11-17")
        XCTAssertEqual((shown["checks"] as? [Any])?.count, 1)
        XCTAssertTrue((shown["line"] as? String ?? "").contains("Budney et al. 2003"))

        // Day 0 and day 15 are outside the window.
        now = "2026-11-17T23:00:00"
        try assertRefused(["withdrawal", "1,1,1,1,1,1"], saying: "a use is logged today")
        now = "2026-12-02T09:00:00"
        try assertRefused(["withdrawal", "1,1,1,1,1,1"], saying: "15 days ago (Nov 17); the check is for days 1–14")
        XCTAssertFalse(try run(["withdrawal", "--json"]).stdout.contains("\"open\" : true"))
    }

    func testAbsentForOtherGoalsUnlessAsked() throws {
        try run(["use", "vape", "2", "--at", "2026-11-17 21:00"])
        try run(["settings", "goal", "cut-down"])
        try assertRefused(["withdrawal", "3,5,2,0,4,6"], saying: "your goal is 'cut-down'; add --any-goal")
        XCTAssertTrue(try run(["withdrawal"]).stdout.contains("--any-goal"))
        XCTAssertNil(try jsonObject(try run(["progress", "--json"]).stdout)["withdrawalChecks"] as? [String: Any])
        XCTAssertTrue(try run(["withdrawal", "--any-goal", "3,5,2,0,4,6"]).stdout.hasPrefix("Withdrawal check kept"))
        XCTAssertNotNil(try jsonObject(try run(["progress", "--json"]).stdout)["withdrawalChecks"] as? [String: Any])

        // Offered whatever the goal once asked, until asked back.
        XCTAssertEqual(try jsonObject(try run(["withdrawal", "--json"]).stdout)["open"] as? Bool, false)
        try assertRefused(["withdrawal", "--offer", "always"], saying: "--offer is any-goal or quit")
        try assertRefused(["withdrawal", "--offer", "quit", "1,1,1,1,1,1"], saying: "--offer is a setting of its own")
        XCTAssertEqual(
            try run(["withdrawal", "--offer", "any-goal"]).stdout,
            "The withdrawal check is offered whatever your goal, on days 1–14 after your last use ✓\n")
        let offered = try jsonObject(try run(["withdrawal", "--json"]).stdout)
        XCTAssertEqual(offered["open"] as? Bool, true)
        XCTAssertEqual(offered["anyGoal"] as? Bool, true)
        XCTAssertTrue(try run(["withdrawal", "4,5,2,0,4,6"]).stdout.contains("It replaces today's earlier check"))
        XCTAssertTrue(try run(["check"]).stdout.hasPrefix("Library OK"), "the setting is one cravey keeps")
        try run(["withdrawal", "--offer", "quit"])
        try assertRefused(["withdrawal", "3,5,2,0,4,6"], saying: "your goal is 'cut-down'")

        // "Delete all data" deletes the checks too, and a lost database brings none back.
        try run(["purge", "--yes"])
        XCTAssertEqual(try checks(), "")
        for suffix in ["", "-wal", "-shm"] { unlink(root + "/library.sqlite" + suffix) }
        XCTAssertEqual((try jsonObject(try run(["withdrawal", "--json"]).stdout)["checks"] as? [Any])?.count, 0)
    }

    /// Day 1 (Nov 18) and day 3 (Nov 20): the chart in progress, on the report's page and in
    /// `report --json`, each with the published line.
    func testTheChartInProgressAndTheReport() throws {
        try run(["use", "vape", "2", "--at", "2026-11-17 21:00"])
        try run(["settings", "goal", "quit"])
        now = "2026-11-18T20:00:00"
        try run(["withdrawal", "2,3,4,5,1,8"])
        now = "2026-11-20T12:00:00"
        try run(["withdrawal", "7,7,5,2,8,10"])

        let progress = try run(["progress"]).stdout
        for part in [
            "🌙 Withdrawal check, day by day", "Sleep trouble        ▂·▆", "peak 7 on day 3",
            "Craving              ▆·█", "days 1–14 after the last use (Nov 17); · not checked",
            "Most withdrawal symptoms peak around days 2–6 and ease within one to two", "(Budney et al. 2003)",
        ] {
            XCTAssertTrue(progress.contains(part), "'\(part)' not in\n\(progress)")
        }
        let figures = try jsonObject(try run(["progress", "--json"]).stdout)
        let chart = try XCTUnwrap(figures["withdrawalChecks"] as? [String: Any])
        XCTAssertEqual((chart["checks"] as? [[String: Any]])?.map { $0["windowDay"] as? Int }, [1, 3])

        let page = base + "/report.html"
        try run(["report", "--html", page])
        let html = try String(contentsOfFile: page, encoding: .utf8)
        XCTAssertTrue(html.contains("Withdrawal check, day by day"), "the report's page has the chart")
        XCTAssertTrue(html.contains("Sleep trouble        ▂·▆···········  2 7 · peak 7 on day 3 · last 7 (day 3)"))
        XCTAssertTrue(html.contains("Bonnet &amp; Preuss 2017"))
        let pdf = base + "/report.pdf"
        try run(["report", "--pdf", pdf])
        let text = try runProcess("/usr/bin/pdftotext", [pdf, "-"]).stdout
        XCTAssertTrue(text.contains("Withdrawal check, day by day"), text)
        XCTAssertTrue(text.contains("Sleep trouble — 2 7 · peak 7 on day 3 · last 7 (day 3)"), text)
        let report = try jsonObject(try run(["report", "--json"]).stdout)
        let reported = try XCTUnwrap((report["figures"] as? [String: Any])?["withdrawalChecks"] as? [String: Any])
        XCTAssertEqual((reported["checks"] as? [[String: Any]])?.count, 2)
        XCTAssertEqual(reported["lastUse"] as? String, "2026-11-17")
    }
}
