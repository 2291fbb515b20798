import CraveyTestSupport
import Foundation
import XCTest

/// The words `cravey progress` and `cravey privacy` print, end to end: no name from the code and
/// no unfilled placeholder in any sentence (terminal, JSON and the HTML page), words shaped by the
/// goal the person chose, and who can read the library said in plain words.
extension ProgressCommandTests {
    /// One use in the first week (20 days ago), three in the last days (the last one now), bowls
    /// and vape as often, and cravings at home and at work as often.
    func logMoreUseThanTheFirstWeek() throws {
        try run(["craving", "6", "--at", "-20d", "--location", "home"])
        try run(["use", "bowls", "1", "--at", "-20d"])
        try run(["craving", "7", "--at", "-3d", "--location", "work"])
        try run(["use", "vape", "4", "--at", "-3d"])
        try run(["use", "bowls", "2", "--at", "-2d"])
        try run(["use", "vape", "2"])
    }

    /// Every sentence the dashboard printed (the plain form without its range line, the JSON's
    /// sentences, the page's text) holds no code name and no placeholder.
    func testEveryProgressSentenceIsPlainWords() throws {
        var texts: [String] = []
        func collect() throws {
            for range in ["7d", "30d", "all"] {
                texts += try run(["progress", "--range", range]).stdout.split(separator: "\n").dropFirst(3).map(
                    String.init)
                let json = try jsonObject(try run(["progress", "--json", "--range", range]).stdout)
                texts += json["insights"] as? [String] ?? []
                texts += [(json["summary"] as? [String: Any])?["text"] as? String ?? ""]
            }
            let page = base + "/page.html"
            try run(["progress", "--html", page, "--force"])
            let html = try String(contentsOfFile: page, encoding: .utf8)
            for part in html.components(separatedBy: "<p class=\"insight\">").dropFirst() {
                texts.append(String(part.prefix { $0 != "<" }))
            }
        }
        try collect()  // nothing logged yet
        try logMoreUseThanTheFirstWeek()
        for goal in [nil, "quit", "cut-down", "monitor", "harm-reduction", "exploring"] {
            if let goal { try run(["settings", "goal", goal]) }
            try collect()
        }
        XCTAssertGreaterThan(texts.count, 300)
        let problems = Set(texts).compactMap { text in PlainWords.problem(text).map { "\($0) in \"\(text)\"" } }
        XCTAssertEqual(problems.sorted(), [])
    }

    /// Harm reduction: no abstinence, no reduction, no rise as a percent; quitting: the reduction
    /// heading with the two weeks side by side; a streak of 0 without a fire; ties said as ties.
    func testTheGoalShapesTheProgressWords() throws {
        try logMoreUseThanTheFirstWeek()
        try run(["settings", "goal", "harm-reduction"])
        var plain = try run(["progress", "--range", "30d"]).stdout
        for word in [
            "Abstinence", "Reduction", "+200%", "🔥", "Usage Event", "Environmental", "strength",
            "Last use logged today",
        ] {
            XCTAssertFalse(plain.contains(word), "\(word) in:\n\(plain)")
        }
        for words in [
            "🕐 Your Last Use", "📊 This week and your first", "Last 7 days: 3 uses · first week: 1 use",
            "More than your first week.", "Bowls / Joints / Blunts and Vape, 50% each",
            "Cravings at Home and Work, 50% each. Where you are can set off a craving. 🏠", "2 Cravings • 4 Uses",
        ] {
            XCTAssertTrue(plain.contains(words), "\(words) in:\n\(plain)")
        }
        XCTAssertTrue(plain.contains("🌱 Days in Progress\n  21\n"), "Days in Progress always:\n\(plain)")

        try run(["settings", "goal", "quit"])
        plain = try run(["progress", "--range", "30d"]).stdout
        for words in [
            "\nCurrent Streak\n", "📏 Longest Abstinence Streak",
            "📊 This week and your first\n  Last 7 days: 3 uses · first week: 1 use\n",
            "More than your first week. Progress isn't a straight line",
        ] {
            XCTAssertTrue(plain.contains(words), "\(words) in:\n\(plain)")
        }
        for word in ["+200%", "🔥", "ProgressFigures", "\n  0 days"] {
            XCTAssertFalse(plain.contains(word), "\(word) in:\n\(plain)")
        }
        let page = base + "/page.html"
        try run(["progress", "--html", page])
        let html = try String(contentsOfFile: page, encoding: .utf8)
        XCTAssertTrue(
            html.contains(
                "This week and your first</h2><p class=\"figure\">Last 7 days: 3 uses · first week: 1 use</p>"),
            html)
        XCTAssertFalse(html.contains("+200%") || html.contains("🔥"))
    }

    /// `cravey privacy` and settings' privacy page say who can read the library, not its modes.
    func testThePrivacyPageSaysWhoCanRead() throws {
        let privacy = try run(["privacy"]).stdout
        XCTAssertTrue(privacy.contains("Who can read it: only you, on this computer account."), privacy)
        XCTAssertTrue(privacy.contains("An administrator of this computer"), privacy)
        XCTAssertFalse(privacy.contains("0700") || privacy.contains("0600"), privacy)

        try run(["settings", "goal", "quit"])
        let tmux = try TmuxSession(
            "env NO_COLOR=1 CRAVEY_TRANSCRIBE=later \(shellQuote(cravey)) settings --library \(shellQuote(root)); sleep 30",
            width: 100, height: 32)
        defer { tmux.close() }
        try tmux.waitFor("DATA MANAGEMENT")
        try tmux.send("p", literal: true)
        // Who can read it follows the list of what is stored: at the page's end.
        try tmux.waitFor("What is stored")
        try tmux.send("End")
        let shown = try tmux.waitFor("only you, on this computer account")
        XCTAssertFalse(shown.contains("0700"), shown)
    }
}
