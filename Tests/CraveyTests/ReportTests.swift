import CraveyLibrary
import CraveyTestSupport
import CraveyTracker
import Foundation
import XCTest

@testable import cravey

/// Prices in settings and money kept in `progress --json` end to end, and `cravey report --html`:
/// the page rendered by headless Chromium (a picture that is not blank, the calendar's cells, no
/// request leaving the page), notes only when asked for, bad input as one line. The PDF's own
/// tests are in `ReportPDFTests`.
final class ReportTests: CommandTestCase {
    let environment = [
        "NO_COLOR": "1", "TZ": "Europe/Berlin", "CRAVEY_TRANSCRIBE": "later", "LC_ALL": "", "LC_MONETARY": "",
        "LANG": "en_GB.UTF-8",
    ]

    @discardableResult
    func run(
        _ arguments: [String], status: Int32? = 0, environment extra: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try runProcess(
            cravey, arguments + ["--library", root], environment: environment.merging(extra) { $1 })
        if let status {
            XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)", file: file, line: line)
        }
        return result
    }

    /// Refused: one line on stderr, nothing on stdout, a non-zero exit.
    func assertRefused(
        _ arguments: [String], saying words: String, environment extra: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let result = try run(arguments, status: nil, environment: extra, file: file, line: line)
        XCTAssertNotEqual(result.status, 0, "\(arguments)", file: file, line: line)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.contains(words), "\(arguments): \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stdout, "", file: file, line: line)
    }

    /// Days from the local day `hours` ago to today, in Berlin.
    func daysSince(hoursAgo hours: Double) -> Int {
        var berlin = Calendar(identifier: .gregorian)
        berlin.timeZone = TimeZone(identifier: "Europe/Berlin")!
        return berlin.dateComponents(
            [.day], from: berlin.startOfDay(for: Date().addingTimeInterval(-hours * 3600)),
            to: berlin.startOfDay(for: Date())
        ).day!
    }

    func testPricesInSettingsAndMoneyInProgress() throws {
        var settings = try run(["settings"]).stdout
        XCTAssertTrue(settings.contains("price  (not set)\ncurrency  GBP (from the locale)\n"), settings)
        try run(["use", "bowls", "2", "--at", "-50h"])
        try run(["settings", "goal", "quit"])
        var progress = try jsonObject(try run(["progress", "--json"]).stdout)
        XCTAssertTrue(progress["money"] is NSNull, "no price: no money")
        XCTAssertFalse(try run(["progress"]).stdout.contains("Money"))

        // Bad input: one line, nothing changed (an amount that was fine is not kept either).
        let before = try run(["settings", "price", "--json"]).stdout
        try assertRefused(["settings", "price", "pipe", "3"], saying: "no method called 'pipe'")
        try assertRefused(["settings", "price", "bowls", "0"], saying: "invalid price")
        try assertRefused(["settings", "price", "bowls", "12.345"], saying: "invalid price")
        try assertRefused(["settings", "price", "bowls", "5", "--currency", "EURO"], saying: "invalid currency")
        try assertRefused(["settings", "price", "--clear"], saying: "name its method")
        try assertRefused(["settings", "name", "Sam", "--currency", "EUR"], saying: "--currency goes with price")
        try assertRefused(["settings", "goal", "quit", "--json"], saying: "--json")
        XCTAssertEqual(try run(["settings", "price", "--json"]).stdout, before)
        XCTAssertTrue(try run(["settings", "name"]).stdout.contains("(not set)"))

        XCTAssertEqual(
            try run(["settings", "price", "joints", "10", "--currency", "eur"]).stdout,
            "price: bowls €10.00 per bowl/joint\n")
        XCTAssertEqual(try run(["settings", "price", "edible", "3,5"]).stdout, "price: edible €3.50 per 10 mg THC\n")
        settings = try run(["settings"]).stdout
        XCTAssertTrue(
            settings.contains("price  bowls €10.00 per bowl/joint · edible €3.50 per 10 mg THC\ncurrency  EUR\n"),
            settings)
        let all = try jsonObject(try run(["settings", "--json"]).stdout)
        XCTAssertEqual((all["prices"] as? [String: Any])?["bowls"] as? Double, 10)
        XCTAssertEqual((all["prices"] as? [String: Any])?["edible"] as? Double, 3.5)
        XCTAssertTrue((all["prices"] as? [String: Any])?["vape"] is NSNull)
        XCTAssertEqual(all["currency"] as? String, "EUR")
        XCTAssertEqual(all["currencyFromLocale"] as? Bool, false)
        XCTAssertEqual(all["goal"] as? String, "quit")

        // Quitting: the first week cost 2 × €10.00; each day since the last use keeps 20 ÷ 7.
        let days = daysSince(hoursAgo: 50)
        progress = try jsonObject(try run(["progress", "--json"]).stdout)
        let money = try XCTUnwrap(progress["money"] as? [String: Any])
        XCTAssertEqual(money["kept"] as? Double, (2000.0 / 7 * Double(days)).rounded() / 100)
        XCTAssertEqual(money["currency"] as? String, "EUR")
        XCTAssertEqual(money["basis"] as? String, "lastUse")
        XCTAssertEqual(money["firstWeek"] as? Double, 20)
        XCTAssertNotNil(money["since"] as? String)
        XCTAssertEqual(
            progress["withdrawal"] as? String,
            "For many people, sleep, mood and appetite are hardest around days 2–6 and ease within two weeks.")
        let plain = try run(["progress"]).stdout
        XCTAssertTrue(plain.contains("💰 Money Kept"), plain)
        XCTAssertTrue(plain.contains("kept in the \(days) days since your last logged use"), plain)
        XCTAssertTrue(plain.contains("For many people, sleep, mood and appetite"), plain)

        // Prices and the currency are settings: a backup carries them into a restored library.
        let prices = try run(["settings", "price", "--json"]).stdout
        try run(["backup", base + "/backup"])
        let restored = try runProcess(
            cravey, ["restore", base + "/backup", "--library", base + "/restored"], environment: environment)
        XCTAssertEqual(restored.status, 0, restored.stderr)
        XCTAssertEqual(
            try runProcess(
                cravey, ["settings", "price", "--json", "--library", base + "/restored"], environment: environment
            ).stdout, prices)

        // Cutting down, still in the first week: nothing counted yet, and no withdrawal line.
        try run(["settings", "goal", "cut-down"])
        progress = try jsonObject(try run(["progress", "--json"]).stdout)
        XCTAssertEqual((progress["money"] as? [String: Any])?["kept"] as? Double, 0)
        XCTAssertTrue((progress["money"] as? [String: Any])?["since"] is NSNull)
        XCTAssertTrue(progress["withdrawal"] is NSNull)

        // Plain numbers, then the locale's currency again; the last price forgotten, no money.
        try run(["settings", "price", "--currency", "none"])
        XCTAssertTrue(
            (try jsonObject(try run(["progress", "--json"]).stdout)["money"] as? [String: Any])?["currency"] is NSNull)
        XCTAssertEqual(
            try run(["settings", "price", "--currency", "locale"]).stdout, "currency: GBP (from the locale)\n")
        XCTAssertEqual(try run(["settings", "price", "bowls", "--clear"]).stdout, "Forgot the price of bowls.\n")
        XCTAssertNotNil(try jsonObject(try run(["progress", "--json"]).stdout)["money"] as? [String: Any])
        try run(["settings", "price", "edible", "--clear"])
        XCTAssertTrue(try jsonObject(try run(["progress", "--json"]).stdout)["money"] is NSNull)
    }

    func testHomeSaysTheFirstTwoWeeksLineOnlyWhileQuitting() throws {
        let lib = try Library(root: root)
        _ = try Tracker(library: lib).logUse(.init(time: LogTime(Date().addingTimeInterval(-50 * 3600))), now: Date())
        func home() throws -> String { try Home.lines(lib, top: [], toast: nil, now: Date()).joined(separator: "\n") }
        try lib.setSetting(.goal, to: "quit")
        let shown = try home()
        XCTAssertTrue(shown.contains("For many people, sleep, mood and appetite are hardest"), shown)
        XCTAssertTrue(shown.contains("ease within two weeks."), shown)
        for goal in ["cut-down", "monitor", "harm-reduction", "exploring"] {
            try lib.setSetting(.goal, to: goal)
            XCTAssertFalse(try home().contains("sleep, mood and appetite"), goal)
        }
        try lib.setSetting(.goal, to: "quit")
        _ = try Tracker(library: lib).logUse(.init(time: LogTime(Date())), now: Date())
        XCTAssertFalse(try home().contains("sleep, mood and appetite"), "not on the day of a use")
    }

    /// A craving with a note a day and a bit ago, and a use with a note after it.
    func logWithNotes() throws {
        try run(["craving", "7", "--at", "-30h", "--trigger", "bored", "--notes", "quiet-evening-words"])
        try run(["use", "vape", "3", "--at", "-29h", "--notes", "after-dinner-words"])
    }

    func testTheReportInABrowserAndItsInput() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") else {
            throw XCTSkip("chromium is not installed (Tests/install-deps.sh installs it)")
        }
        try logWithNotes()
        let page = base + "/report.html"
        XCTAssertEqual(try run(["report", "--html", page]).stdout, "Wrote your report to \(page)\n")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: page)[.posixPermissions] as? Int, 0o600)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        XCTAssertTrue(html.contains("Content-Security-Policy\" content=\"default-src 'none'"))
        XCTAssertTrue(html.contains("@page { size: A4"))
        for outside in ["<script", "<link", "http://", "https://", "@import", "url(", "src="] {
            XCTAssertFalse(html.contains(outside), "nothing loaded from anywhere: \(outside)")
        }
        XCTAssertFalse(html.contains("quiet-evening-words"), "no notes unless asked for")
        XCTAssertFalse(html.contains("after-dinner-words"))
        XCTAssertEqual(html.components(separatedBy: "<td class=\"day\"").count - 1, 30, "30 days by default")
        // The first log was a day and a bit ago: the days before it say no use is known of them.
        let untracked = html.components(separatedBy: "title=\"not tracked yet\">—<").count - 1
        XCTAssertTrue((27...28).contains(untracked), "\(untracked) days before tracking began")

        // Rendered: not blank, the calendar's cells and the day's figures there, no request.
        let (png, requests) = try render(page)
        XCTAssertEqual(requests, [], "no request leaves the page")
        let stats = try runProcess("/usr/bin/python3", ["-c", ProgressCommandTests.pngStats, png]).stdout
            .split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        XCTAssertGreaterThan(stats.first ?? 0, 20, "colours in the picture: not blank")
        XCTAssertGreaterThan(stats.last ?? 0, 2_000, "dark (text) pixels in the picture")
        let dom = try runProcess(
            "/usr/bin/chromium",
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(base)/chromium", "--dump-dom",
                "file://\(page)",
            ]
        ).stdout
        XCTAssertEqual(
            dom.components(separatedBy: "<td class=\"day\"").count - 1, 30, "the calendar's cells in the DOM")
        XCTAssertTrue(dom.contains("1 craving, peak 7"), "the craving's day")
        XCTAssertTrue(dom.contains("<span class=\"use\">3 pulls</span>"), "the use's day")
        XCTAssertTrue(dom.contains("Cannabis use and cravings: a report"))
        let control = base + "/control.html"
        try Data("<!DOCTYPE html><img src=\"http://127.0.0.1:9/x.png\">".utf8).write(to: URL(fileURLWithPath: control))
        XCTAssertFalse(try render(control).requests.isEmpty, "a page's own request shows in the network log")

        // An existing file is kept unless --force; the notes only with --with-notes.
        try assertRefused(["report", "--html", page, "--with-notes"], saying: "already exists")
        XCTAssertEqual(try String(contentsOfFile: page, encoding: .utf8), html)
        try run(["report", "--html", page, "--with-notes", "--force"])
        let noted = try String(contentsOfFile: page, encoding: .utf8)
        XCTAssertTrue(noted.contains("quiet-evening-words") && noted.contains("after-dinner-words"))
        XCTAssertTrue(noted.contains("Craving 7/10") && noted.contains("Use: 3 pulls"))

        // A period of its own: --from/--to, both days counted; --range.
        let week = base + "/week.html"
        let (to, from) = (day(hoursAgo: 0), day(hoursAgo: 24 * 9))
        try run(["report", "--html", week, "--from", from, "--to", to])
        XCTAssertEqual(
            try String(contentsOfFile: week, encoding: .utf8).components(separatedBy: "<td class=\"day\"").count - 1, 10
        )
        try run(["report", "--html", week, "--range", "7d", "--force"])
        XCTAssertEqual(
            try String(contentsOfFile: week, encoding: .utf8).components(separatedBy: "<td class=\"day\"").count - 1, 7)

        // Bad input: one line, nothing written.
        let none = base + "/none.html"
        try assertRefused(["report"], saying: "--html FILE or --pdf FILE")
        try assertRefused(["report", "--html", none, "--range", "14d"], saying: "14d")
        try assertRefused(["report", "--html", none, "--from", "2026-02-30"], saying: "invalid --from")
        try assertRefused(["report", "--html", none, "--from", to, "--to", from], saying: "is after")
        try assertRefused(["report", "--html", none, "--to", "2999-01-01"], saying: "after today")
        try assertRefused(["report", "--html", none, "--range", "7d", "--from", from], saying: "not both")
        XCTAssertFalse(FileManager.default.fileExists(atPath: none))
    }

    /// The local day `hours` ago in Berlin, as YYYY-MM-DD.
    func day(hoursAgo hours: Double) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "Europe/Berlin")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date().addingTimeInterval(-hours * 3600))
    }

    /// Renders `page` headless to a PNG; returns it and the URLs of the requests the page itself
    /// started (as the progress page's test reads them).
    func render(_ page: String) throws -> (png: String, requests: [String]) {
        let png = page + ".png"
        let log = page + ".netlog.json"
        let result = try runProcess(
            "/usr/bin/chromium",
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=\(base)/chromium",
                "--window-size=1000,2000", "--screenshot=\(png)", "--log-net-log=\(log)", "file://\(page)",
            ])
        XCTAssertTrue(FileManager.default.fileExists(atPath: png), result.stderr)
        let requests = try runProcess("/usr/bin/python3", ["-c", ProgressCommandTests.pageRequests, log]).stdout
        return (png, requests.split(separator: "\n").map(String.init))
    }
}
