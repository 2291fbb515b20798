import CraveyTestSupport
import Foundation
import XCTest

@testable import cravey
import TerminalKit

/// Words that fit the goal and the day, as the built `cravey` prints them: harm reduction's
/// dashboard reads of what was used and when while monitor's and just exploring's stay the same;
/// settings' currency row with one parenthesis; one rounding for every length and clock; a
/// closing emoji never wrapped onto a line of its own.
final class GoalWordsCommandTests: CommandTestCase {
    @discardableResult
    func run(_ arguments: [String], _ extra: [String: String] = [:]) throws -> String {
        let result = try runProcess(
            cravey, arguments + ["--library", root],
            environment: ["NO_COLOR": "1", "CRAVEY_TRANSCRIBE": "later", "TZ": "Europe/Berlin"].merging(extra) { $1 })
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        return result.stdout
    }

    func testHarmReductionsProgressSpeaksOfUseAndWhen() throws {
        try run(["craving", "7", "--at", "-50h"])
        try run(["use", "vape", "2", "--at", "-30h"])
        try run(["settings", "goal", "monitor"])
        let monitor = try run(["progress", "--range", "30d"])
        try run(["settings", "goal", "exploring"])
        XCTAssertEqual(try run(["progress", "--range", "30d"]), monitor, "monitor and just exploring read alike")
        XCTAssertTrue(monitor.contains("🌅 Days Without Use"), monitor)
        XCTAssertTrue(monitor.contains("💪 1 craving resisted  "), "the milestone, for monitoring:\n\(monitor)")
        try run(["settings", "goal", "harm-reduction"])
        let harm = try run(["progress", "--range", "30d"])
        XCTAssertTrue(harm.contains("🕐 Your Last Use\n"), harm)
        for words in ["Without Use", "Abstinence", "Usage Reduction", "💪 1 craving resisted  "] {
            XCTAssertFalse(harm.contains(words), "\(words) in:\n\(harm)")
        }
        let page = base + "/page.html"
        try run(["progress", "--html", page, "--range", "30d"])
        let html = try String(contentsOfFile: page, encoding: .utf8)
        XCTAssertTrue(html.contains("Your Last Use</h2>"), html)
        XCTAssertFalse(html.contains("Without Use") || html.contains("craving resisted <span"), html)
    }

    /// With no currency (a locale without a country) and none chosen: one parenthesis says it.
    func testTheCurrencyRowHasOneParenthesis() throws {
        let settings = try run(["settings"], ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"])
        XCTAssertTrue(settings.contains("currency  none (plain numbers, from the locale)\n"), settings)
        try run(["settings", "price", "--currency", "none"])
        XCTAssertTrue(try run(["settings"]).contains("currency  none (plain numbers)\n"))
    }

    /// Quick Play, lists and the player round a length the same way: a 4.6 s message is 0:05
    /// everywhere, its end included; the recorder's countdown is the same whole seconds.
    func testEveryLengthAndClockRoundsTheSameWay() {
        for seconds in [0.6, 4.4, 4.5, 4.6, 6.3, 6.5, 59.6, 119.5] {
            XCTAssertEqual(Format.clock(seconds), Format.duration(max(1, seconds)), "\(seconds)")
        }
        XCTAssertEqual(Format.clock(4.6), "0:05", "the player's end as Quick Play says it")
        XCTAssertEqual(Format.duration(4.6), "0:05")
        XCTAssertEqual(Format.wholeSeconds(6.3), 6, "\"0:06 left\" above \"6 seconds left\"")
        XCTAssertEqual(Format.clock(6.3), "0:06")
    }

    /// A closing emoji goes onto the next line with the word before it, never alone.
    func testALoneEmojiIsNeverWrappedOntoItsOwnLine() {
        let sentence = "Keep logging! Trends become clearer with more data. 💪"
        for width in 10...70 {
            let lines = Terminal.wrap(sentence, width: width)
            XCTAssertNotEqual(lines.last, "💪", "width \(width): \(lines)")
            XCTAssertTrue(lines.allSatisfy { Terminal.width($0) <= width }, "width \(width): \(lines)")
            XCTAssertEqual(lines.joined(separator: " "), sentence)
        }
    }
}
