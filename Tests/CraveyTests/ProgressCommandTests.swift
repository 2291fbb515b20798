import CraveyTestSupport
import Foundation
import XCTest

/// `cravey progress` end to end: the plain form without a terminal, `--json`, bad input as one
/// line, the screen in a real terminal (tmux: range keys, scrolling, 60 and 120 columns, colour
/// and NO_COLOR, the terminal given back), and the `--html` page rendered by headless Chromium
/// (a picture that is not blank, its SVG charts, no request leaving the page).
final class ProgressCommandTests: CommandTestCase {
    let environment = ["NO_COLOR": "1", "TZ": "Europe/Berlin", "CRAVEY_TRANSCRIBE": "later"]

    @discardableResult
    func run(_ arguments: [String], status: Int32? = 0, file: StaticString = #filePath, line: UInt = #line) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let result = try runProcess(cravey, arguments + ["--library", root], environment: environment)
        if let status {
            XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)", file: file, line: line)
        }
        return result
    }

    /// Two anxious cravings at home (8, a day ago; 6, three hours ago) and a vape use an hour
    /// after the second, linked to it: the first was resisted, the second was not.
    func logTwoCravingsAndAUse() throws {
        try run(["craving", "8", "--at", "-26h", "--trigger", "anxious", "--location", "home"])
        try run(["craving", "6", "--at", "-3h", "--trigger", "anxious", "--location", "home"])
        try run(["use", "vape", "3", "--at", "-2h", "--after-craving", "last"])
    }

    static let sections = [
        "Summary", "🌅 Days Without Use", "📏 Longest Stretch Without Use", "🌱 Days in Progress",
        "📈 Craving Intensity Over Time",
        "📊 Amount Trends", "🧩 Trigger Breakdown", "📍 Location Patterns", "🕐 Time of Day Patterns", "📅 Weekly Patterns",
        "🌿 Method Breakdown", "💪 Cravings Resisted", "📊 This week and your first", "🏅 Milestones",
    ]

    func assertInOrder(_ text: String, _ parts: [String], file: StaticString = #filePath, line: UInt = #line) {
        var from = text.startIndex
        for part in parts {
            guard let found = text.range(of: part, range: from..<text.endIndex) else {
                return XCTFail("'\(part)' missing or out of order in:\n\(text)", file: file, line: line)
            }
            from = found.upperBound
        }
    }

    func testPlainJSONAndBadInput() throws {
        // Nothing logged: the encouraging empty states.
        let empty = try run(["progress"]).stdout
        assertInOrder(
            empty,
            [
                "📊 Progress", "[7D]", "0 Cravings • 0 Uses", "Start logging to see your patterns! 💪",
                "Log your first craving to see intensity trends! 📈", "Track usage to see your pattern over time! 📊",
            ])

        try logTwoCravingsAndAUse()
        let plain = try run(["progress"]).stdout
        assertInOrder(plain, ["📊 Progress", "[7D]"] + Self.sections)
        assertInOrder(
            plain,
            [
                "2 Cravings • 1 Use", "You're building awareness! 💪",
                "Your intensity dropped from 8/10 to 6/10. That's progress! 📉",
                "Anxious triggered both cravings. This is your main pattern right now.",
                "Both cravings at Home. Where you are can set off a craving. 🏠",
                "1 craving resisted — each one counts",
            ])
        XCTAssertFalse(plain.contains("\u{1B}"), "no escape sequences without a terminal")
        XCTAssertTrue(try run(["progress", "--range", "all"]).stdout.contains("[All]"))

        let json = try jsonObject(try run(["progress", "--json", "--range", "30d"]).stdout)
        XCTAssertEqual(
            Set(json.keys),
            [
                "range", "from", "to", "summary", "currentStreak", "longestStreak", "daysInProgress",
                "daysSinceLastUse",
                "intensity", "amounts", "triggers", "locations", "timeOfDay", "weekdays", "methods", "resisted",
                "reduction", "insights", "messages", "cravingLength", "money", "withdrawal", "milestones", "knownDays",
                "withdrawalChecks", "limits",
            ])
        XCTAssertEqual(json["range"] as? String, "30d")
        let summary = json["summary"] as? [String: Any]
        XCTAssertEqual(summary?["cravings"] as? Int, 2)
        XCTAssertEqual(summary?["uses"] as? Int, 1)
        let points = (json["intensity"] as? [String: Any])?["points"] as? [[String: Any]]
        XCTAssertEqual(points?.map { $0["intensity"] as? Int }, [8, 6])
        XCTAssertEqual((json["triggers"] as? [[String: Any]])?.first?["name"] as? String, "anxious")
        XCTAssertEqual((json["triggers"] as? [[String: Any]])?.first?["percent"] as? Int, 100)
        XCTAssertEqual((json["methods"] as? [[String: Any]])?.first?["name"] as? String, "vape")
        XCTAssertEqual(
            ((json["amounts"] as? [String: Any])?["vape"] as? [[String: Any]])?.first?["amount"] as? Double, 3)
        XCTAssertEqual(((json["timeOfDay"] as? [String: Any])?["hours"] as? [Int])?.reduce(0, +), 2)
        XCTAssertEqual(((json["weekdays"] as? [String: Any])?["days"] as? [Int])?.count, 7)
        XCTAssertEqual((json["resisted"] as? [String: Any])?["count"] as? Int, 1)
        XCTAssertEqual((json["resisted"] as? [String: Any])?["percent"] as? Int, 50)
        // The use was 2 h ago: today in Berlin, or yesterday when this runs in Berlin's first two hours.
        var berlin = Calendar(identifier: .gregorian)
        berlin.timeZone = TimeZone(identifier: "Europe/Berlin")!
        let sinceUse = berlin.dateComponents(
            [.day], from: berlin.startOfDay(for: Date().addingTimeInterval(-7200)), to: berlin.startOfDay(for: Date())
        ).day
        XCTAssertEqual(json["daysSinceLastUse"] as? Int, sinceUse)
        XCTAssertTrue((json["reduction"] as? [String: Any])?["percent"] is NSNull, "not two weeks of logs yet")
        XCTAssertEqual((json["insights"] as? [String])?.count, 12)

        // Bad input: one line, nothing written.
        let bad = try run(["progress", "--range", "14d"], status: nil)
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("14d"), bad.stderr)
        XCTAssertEqual(bad.stdout, "")
        let page = base + "/page.html"
        try Data("mine".utf8).write(to: URL(fileURLWithPath: page))
        let refused = try run(["progress", "--html", page], status: nil)
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        XCTAssertEqual(
            try String(contentsOfFile: page, encoding: .utf8), "mine", "an existing file is replaced only with --force")
        try run(["progress", "--html", page, "--force"])
        XCTAssertTrue(try String(contentsOfFile: page, encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: page)[.posixPermissions] as? Int, 0o600)

        // Only deleting all data starts Days in Progress again.
        XCTAssertNotNil(try jsonObject(try run(["progress", "--json"]).stdout)["daysInProgress"] as? Int)
        try run(["purge", "--yes"])
        XCTAssertTrue(try jsonObject(try run(["progress", "--json"]).stdout)["daysInProgress"] is NSNull)
    }

    func screen(width: Int, color: Bool) throws -> TmuxSession {
        let env = color ? "env -u NO_COLOR TERM=xterm-256color" : "env NO_COLOR=1"
        return try TmuxSession(
            "\(env) TZ=Europe/Berlin \(shellQuote(cravey)) progress --library \(shellQuote(root)); echo EXIT=$?; "
                + "stty -a | grep -o -- '-*icanon'; sleep 30", width: width, height: 30)
    }

    func testTheScreenInATerminal() throws {
        try logTwoCravingsAndAUse()
        for width in [60, 120] {
            let tmux = try screen(width: width, color: false)
            var shown = try tmux.waitFor("q leave")
            var rows = shown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            XCTAssertEqual(rows[0], "📊 Progress", "the title stays at the top at \(width) columns")
            XCTAssertTrue(rows[1].hasPrefix("[7D]"), rows[1])
            XCTAssertEqual(rows[3], "Summary", "nothing wrapped at \(width) columns:\n\(shown)")
            XCTAssertTrue(rows[29].contains("q leave"), "the keys line is the last row: \(rows[29])")
            XCTAssertFalse(try tmux.screen(escapes: true).contains("\u{1B}[7"), "NO_COLOR: no inverse chip")
            // The intensity chart's dates end at the right edge, unwrapped.
            XCTAssertTrue(rows.contains { $0.hasSuffix(LocalDayText.today) && $0.count <= width }, shown)

            try tmux.send("Right"); try tmux.send("Right")
            shown = try tmux.waitFor("[90D]")
            try tmux.send("Right")
            shown = try tmux.waitFor("[All]")
            try tmux.send("Left"); try tmux.send("Left")
            shown = try tmux.waitFor("[30D]")
            try tmux.send("NPage")
            shown = try tmux.waitFor("  26–")  // 30 rows: 26 for the sections; a page down moves 25
            rows = shown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            XCTAssertNotEqual(rows[3], "Summary", "scrolled")
            XCTAssertEqual(rows[0], "📊 Progress", "the header stays while the sections scroll")
            XCTAssertTrue(rows[1].contains("[30D]"))
            try tmux.send("Home")
            try tmux.waitFor("\nSummary\n")
            try tmux.send("q", literal: true)
            try tmux.waitFor("EXIT=0")
            let after = try tmux.waitFor("icanon")
            XCTAssertFalse(after.contains("-icanon"), "the terminal is back in canonical mode:\n\(after)")
            tmux.close()
        }
        let colored = try screen(width: 80, color: true)
        try colored.waitFor("q leave")
        let escaped = try colored.screen(escapes: true)
        XCTAssertTrue(escaped.contains("\u{1B}[1;7m 7D "), "the chosen range in inverse video")
        XCTAssertTrue(escaped.contains("\u{1B}[36m"), "charts tinted")
        colored.close()
    }

    func testThePageInABrowser() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") else {
            throw XCTSkip("chromium is not installed (Tests/install-deps.sh installs it)")
        }
        try logTwoCravingsAndAUse()
        let page = base + "/progress.html"
        try run(["progress", "--html", page, "--range", "30d"])
        let html = try String(contentsOfFile: page, encoding: .utf8)
        XCTAssertGreaterThanOrEqual(html.components(separatedBy: "<svg").count - 1, 6, "charts as inline SVG")
        XCTAssertTrue(html.contains("<polyline class=\"line\""), "the intensity line")
        XCTAssertTrue(html.contains("Content-Security-Policy\" content=\"default-src 'none'"))
        XCTAssertTrue(html.contains("prefers-color-scheme: dark"))
        for outside in ["<script", "<link", "http://", "https://", "@import", "url(", "src="] {
            XCTAssertFalse(html.contains(outside), "nothing loaded from anywhere: \(outside)")
        }
        // The titles in words after their inline SVG icons: no emoji, which would be boxes without an emoji font.
        assertInOrder(
            html,
            Self.sections.map {
                String($0.drop { !$0.isASCII }).trimmingCharacters(in: .whitespaces)
                    .replacingOccurrences(of: "'", with: "&#39;")
            })

        let (png, pageRequests) = try render(page)
        XCTAssertEqual(pageRequests, [], "no request leaves the page")
        let stats = try runProcess("/usr/bin/python3", ["-c", Self.pngStats, png]).stdout.split(separator: " ")
            .compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        XCTAssertEqual(stats.count, 2)
        XCTAssertGreaterThan(stats.first ?? 0, 20, "colours in the picture: not blank")
        XCTAssertGreaterThan(stats.last ?? 0, 2_000, "dark (text) pixels in the picture")

        // The check sees a request when a page makes one.
        let control = base + "/control.html"
        try Data("<!DOCTYPE html><img src=\"http://127.0.0.1:9/x.png\">".utf8).write(to: URL(fileURLWithPath: control))
        XCTAssertFalse(try render(control).pageRequests.isEmpty, "a page's own request shows in the network log")
    }

    func testRangesAmountsAndAPagePlainEverywhere() throws {
        try logTwoCravingsAndAUse()
        try run(["use", "vape", "5", "--at", "-50h"])
        try run(["use", "dab", "1", "--at", "-1h"])

        // Amount Trends: each method with its total, its own scale (its busiest day) and dates.
        let plain = try run(["progress"]).stdout
        let amounts = plain.components(separatedBy: "📊 Amount Trends").last?.components(separatedBy: "🧩").first ?? ""
        assertInOrder(
            amounts,
            [
                "Vape: total 8 pulls · busiest day 5 pulls", "5 ┤", "0 └", "Dab: total 1 dab · busiest day 1 dab",
                "1 ┤",
                "0 └",
            ])
        let dates = amounts.split(separator: "\n").filter { $0.hasSuffix(LocalDayText.today) }
        XCTAssertEqual(dates.count, 2, "dates under each method's chart: \(amounts)")
        XCTAssertTrue(
            dates.allSatisfy { $0.split(separator: " ", omittingEmptySubsequences: true).count == 6 },
            "first, middle and last day: \(dates)")

        // The page: no emoji, no chips that look like buttons, the range written, the goal.
        try run(["settings", "goal", "harm-reduction"])
        let page = base + "/plain.html"
        try run(["progress", "--html", page, "--range", "90d"])
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let emoji = html.unicodeScalars.filter {
            $0.properties.isEmojiPresentation || $0.value == 0xFE0F || ($0.properties.isEmoji && $0.value >= 0x1F000)
        }
        XCTAssertEqual(String(String.UnicodeScalarView(emoji)), "", "no emoji on the page")
        XCTAssertGreaterThanOrEqual(html.components(separatedBy: "<svg class=\"icon\"").count - 1, 13, "icons")
        XCTAssertFalse(html.contains("chip"), "no range chips that do nothing")
        XCTAssertFalse(html.contains("<button"))
        XCTAssertTrue(html.contains("<strong>Last 90 days</strong>"), "the range written")
        XCTAssertTrue(html.contains("Your goal: Harm reduction"), "the goal shown")
        XCTAssertTrue(html.contains("Vape: total 8 pulls · busiest day 5 pulls"))

        // The screen: a new range starts at the top of the dashboard.
        let tmux = try screen(width: 80, color: false)
        try tmux.waitFor("q leave")
        try tmux.send("NPage")
        var rows = try tmux.waitFor("  26–").split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertNotEqual(rows[3], "Summary", "scrolled")
        try tmux.send("Right")
        rows = try tmux.waitFor("[30D]").split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(rows[3], "Summary", "back at the top: \(rows.joined(separator: "\n"))")
        try tmux.send("NPage")
        try tmux.waitFor("  26–")
        try tmux.send("Right")
        rows = try tmux.waitFor("[90D]").split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(rows[3], "Summary", "back at the top after → too")
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
        tmux.close()
    }

    /// Renders `page` headless to a PNG; returns it and the URLs of the requests the page itself
    /// started (the browser's own background requests are not the page's).
    func render(_ page: String) throws -> (png: String, pageRequests: [String]) {
        let png = page + ".png"
        let log = page + ".netlog.json"
        let result = try runProcess(
            "/usr/bin/chromium",
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=\(base)/chromium",
                "--window-size=1000,2600", "--screenshot=\(png)", "--log-net-log=\(log)", "file://\(page)",
            ])
        XCTAssertTrue(FileManager.default.fileExists(atPath: png), result.stderr)
        let requests = try runProcess("/usr/bin/python3", ["-c", Self.pageRequests, log]).stdout
        return (png, requests.split(separator: "\n").map(String.init))
    }

    /// Prints the URL of every request a page started (its initiator is the page's origin; the
    /// browser's own say "not an origin").
    static let pageRequests = """
        import json, sys
        d = json.load(open(sys.argv[1]))
        names = {v: k for k, v in d["constants"]["logEventTypes"].items()}
        for e in d["events"]:
            p = e.get("params", {})
            if names.get(e["type"]) == "URL_REQUEST_START_JOB" and "url" in p and p.get("initiator") != "not an origin":
                print(p.get("url"))
        """

    /// Prints the number of distinct colours and of dark pixels in an 8-bit RGB(A) PNG.
    static let pngStats = """
        import struct, sys, zlib
        data = open(sys.argv[1], "rb").read()
        pos, idat, w, h, kind = 8, b"", 0, 0, 0
        while pos < len(data):
            n, tag = struct.unpack(">I4s", data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + n]
            if tag == b"IHDR": w, h, depth, kind = struct.unpack(">IIBB", body[:10])
            if tag == b"IDAT": idat += body
            pos += 12 + n
        bpp = 4 if kind == 6 else 3
        raw = zlib.decompress(idat)
        stride = w * bpp
        prev = bytearray(stride)
        colours, dark = set(), 0
        for y in range(h):
            f = raw[y * (stride + 1)]
            line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                if f == 1: line[i] = (line[i] + a) & 255
                elif f == 2: line[i] = (line[i] + b) & 255
                elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
                elif f == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            for x in range(0, stride, bpp * 4):
                px = bytes(line[x:x + 3])
                colours.add(px)
                if sum(px) < 200: dark += 1
            prev = line
        print(len(colours), dark)
        """
}

/// Today as the chart's axis prints it ("Nov 23"), in Berlin.
enum LocalDayText {
    static var today: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "Europe/Berlin")
        formatter.dateFormat = "MMM d"
        return formatter.string(from: Date())
    }
}
