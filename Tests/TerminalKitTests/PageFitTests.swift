import XCTest

import TerminalKit

/// A page laid out for its window: the title, the lines in focus and the keys stay in view down to
/// 60x12, lines wrap at spaces (never inside a word, colours kept), the body scrolls to the focus,
/// and a smaller window shows one line.
final class PageFitTests: XCTestCase {
    private let chips =
        "   [ ]\u{A0}Stressed [ ]\u{A0}Bored [ ]\u{A0}Tired [ ]\u{A0}Social [ ]\u{A0}Anxious [ ]\u{A0}Paraphernalia [ ]\u{A0}Lonely"

    private func plain(_ lines: [String]) -> [String] { lines.map(Calm.plain) }

    func testWrapsAtSpacesNeverInsideAWord() {
        for width in [20, 33, 59, 79] {
            let lines = plain(Page.wrap(chips, width: width))
            XCTAssertGreaterThan(lines.count, width < 79 ? 1 : 0)
            for line in lines { XCTAssertLessThanOrEqual(Terminal.width(line), width, line) }
            let words = lines.flatMap { $0.split(separator: " ").map(String.init) }
            XCTAssertEqual(
                words, chips.replacingOccurrences(of: "\u{A0}", with: " ").split(separator: " ").map(String.init),
                "every word whole at \(width)")
            XCTAssertFalse(lines.contains { $0.hasSuffix("]") }, "a no-break space holds a chip to its label")
            XCTAssertTrue(lines.dropFirst().allSatisfy { $0.hasPrefix("   ") }, "wrapped lines keep the indent")
        }
        XCTAssertEqual(Page.wrap("short", width: 40), ["short"])
        XCTAssertEqual(
            plain(Page.wrap("You stayed with it and it will pass 💪", width: 36)),
            ["You stayed with it and it will", "pass 💪"], "an emoji is never alone on a line")
        XCTAssertEqual(
            Page.wrap("Averyveryveryverylongwordthatcannotfit here", width: 20).map(Calm.plain).first,
            "Averyveryveryverylo…", "a word wider than the line is cut with …")
    }

    func testColoursAreClosedAndOpenedAgainAcrossABreak() {
        let line = "Intensity \u{1B}[1;33mfive of ten strong right now\u{1B}[0m then calm words follow"
        let lines = Page.wrap(line, width: 22)
        XCTAssertEqual(plain(lines), ["Intensity five of ten", "strong right now then", "calm words follow"])
        XCTAssertTrue(lines[0].hasSuffix("\u{1B}[0m"), "a colour open at a break is closed")
        XCTAssertTrue(lines[1].hasPrefix("\u{1B}[1;33m"), "and opened again")
        XCTAssertFalse(lines[2].contains("\u{1B}[1;33m"), "a reset ends it")
    }

    private func page(bodyLines: Int, focus: Int) -> Page {
        Page(
            title: ["Log Craving", "────"], body: (0..<bodyLines).map { "line \($0)" }, focusLine: focus,
            keys: ["Enter: save · ↑/↓ field · Esc: close"])
    }

    func testTitleFocusAndKeysStayInViewAtEverySize() {
        for (columns, rows) in [(60, 12), (80, 14), (80, 24), (61, 13), (200, 50)] {
            for focus in [0, 1, 7, 15, 29] {
                let lines = plain(page(bodyLines: 30, focus: focus).lines(columns: columns, rows: rows))
                XCTAssertEqual(
                    lines.count, min(rows, 33), "\(columns)x\(rows) focus \(focus): the window filled, no more")
                XCTAssertEqual(Array(lines.prefix(2)), ["Log Craving", "────"])
                XCTAssertEqual(lines.last, "Enter: save · ↑/↓ field · Esc: close")
                XCTAssertTrue(lines.contains("line \(focus)"), "\(columns)x\(rows): focus \(focus) shown")
                XCTAssertEqual(lines.contains("  ↑ more above"), !lines.contains("line 0"))
                XCTAssertEqual(lines.contains("  ↓ more below"), !lines.contains("line 29"))
            }
        }
        let fits = plain(page(bodyLines: 5, focus: 4).lines(columns: 80, rows: 24))
        XCTAssertEqual(fits, ["Log Craving", "────", "line 0", "line 1", "line 2", "line 3", "line 4", fits.last!])
        let form = plain(page(bodyLines: 30, focus: 29).lines(columns: 80, rows: 14, reserve: 1))
        XCTAssertEqual(form.count, 13, "a form on the normal screen keeps the cursor's row free")
        XCTAssertTrue(form.contains("line 29"))
    }

    func testAFocusOfSeveralLinesIsShownFromItsStart() {
        var page = page(bodyLines: 30, focus: 0)
        page.focus = 20..<24
        let lines = plain(page.lines(columns: 60, rows: 12))
        for line in 20..<24 { XCTAssertTrue(lines.contains("line \(line)"), "line \(line)") }
    }

    func testANoteLongerThanTheWindowNeverPushesTheTitleOff() {
        let note = Array(repeating: "a note that goes on", count: 40).joined(separator: " ")
        let page = Page(title: ["Title"], body: ["body"], keys: ["keys", note])
        let lines = plain(page.lines(columns: 60, rows: 12))
        XCTAssertEqual(lines.count, 12)
        XCTAssertEqual(lines.first, "Title")
    }

    func testASmallerWindowShowsOneLine() {
        XCTAssertEqual(page(bodyLines: 3, focus: 0).lines(columns: 50, rows: 10), [Page.tooSmall])
        XCTAssertEqual(page(bodyLines: 3, focus: 0).lines(columns: 59, rows: 24), [Page.tooSmall])
        XCTAssertEqual(page(bodyLines: 3, focus: 0).lines(columns: 80, rows: 11), [Page.tooSmall])
        XCTAssertTrue(Page.tooSmall.contains("60x12") && Page.tooSmall.contains("q leaves"))
        XCTAssertLessThan(Terminal.width(Page.tooSmall), 50)
        XCTAssertEqual(page(bodyLines: 3, focus: 0).all.count, 6, "calm screens print the whole page")
    }

    /// Home's shape at 60x12: a heading, a calm line of two lines, rules, the three actions for a
    /// hard moment, the keys and a note. What gives way is the calm line (to the body) and the
    /// rules, never the actions.
    func testTheLeastNeededGivesWayBeforeTheTitleIsCut() {
        let rule = String(repeating: "─", count: 59)
        let calm =
            "For many people, sleep, mood and appetite are hardest around days 2–6 and ease within two weeks."
        var page = Page(
            title: ["cravey   Day 3", calm, rule, "  c  LOG CRAVING", "  u  LOG USAGE", "  o  RIDE IT OUT", rule],
            body: ["Quick Play:", "  1  A message", "  r  + RECORD NEW"],
            keys: [
                rule, "  m 🎙️ Recordings   p 📊 Progress   k ☀️ Check-in (not\u{A0}yet\u{A0}today)",
                "  s ⚙️ Settings   q Quit", "", "🌱 3 days in progress, a milestone worth a moment of quiet pride",
            ])
        page.aside = 1..<2
        let lines = plain(page.lines(columns: 60, rows: 12))
        XCTAssertEqual(lines.count, 12, lines.joined(separator: "\n"))
        for part in ["cravey", "c  LOG CRAVING", "u  LOG USAGE", "o  RIDE IT OUT", "q Quit", "pride"] {
            XCTAssertTrue(lines.contains { $0.contains(part) }, "'\(part)' in\n\(lines.joined(separator: "\n"))")
        }
        XCTAssertTrue(lines.contains { $0.hasPrefix("For many people") }, "the calm line is in the body")
        let big = plain(page.lines(columns: 100, rows: 30))
        XCTAssertEqual(big.count, page.title.count + page.body.count + page.keys.count, "a big window shows every line")
        XCTAssertEqual(big[1], calm, "in its place")
    }

    /// Scrolling stops where the last body line is shown: one ↑ after many ↓ moves the page.
    func testScrollingStopsAtTheEnd() {
        let page = Page(title: ["Title", ""], body: (0..<20).map { "line \($0)" }, keys: ["", "keys"])
        var scroll = PageScroll()
        for _ in 0..<40 { XCTAssertTrue(scroll.move(.down, over: page, columns: 60, rows: 12)) }
        let end = plain(scroll.apply(to: page).lines(columns: 60, rows: 12))
        XCTAssertTrue(end.contains("line 19") && !end.contains("  ↓ more below"), end.joined(separator: "\n"))
        XCTAssertEqual(scroll.line, page.lastFrom(columns: 60, rows: 12))
        XCTAssertTrue(scroll.move(.up, over: page, columns: 60, rows: 12))
        let up = plain(scroll.apply(to: page).lines(columns: 60, rows: 12))
        XCTAssertNotEqual(up, end, "one ↑ moves")
        XCTAssertTrue(up.contains("  ↓ more below"))
        XCTAssertTrue(scroll.move(.end, over: page, columns: 60, rows: 12))
        XCTAssertEqual(plain(scroll.apply(to: page).lines(columns: 60, rows: 12)), end)
        // A window grown since: the next key moves from what is shown there.
        XCTAssertTrue(scroll.move(.up, over: page, columns: 80, rows: 24))
        XCTAssertEqual(scroll.line, 0, "the whole body fits at 80x24")
        XCTAssertFalse(scroll.move(.enter, over: page, columns: 60, rows: 12))
    }
}
