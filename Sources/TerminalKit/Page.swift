/// A screen's page as parts that must stay in view, laid out for the window it is drawn in: its
/// title lines at the top, its keys at the bottom, and between them the body, scrolled so the
/// lines in focus are shown. Every line is wrapped at spaces to the width (a word is never cut; a
/// no-break space, U+00A0, holds two words together and is shown as a space), colours kept across the break. A window
/// smaller than `minimum` shows one line that asks for a bigger one (`tooSmall`); calm screens
/// print the whole page as it is (`all`).
package struct Page: Equatable, Sendable {
    /// The title lines, always shown first.
    package var title: [String]
    /// The lines between, scrolled when they do not fit.
    package var body: [String]
    /// The body lines in focus (the field being answered, the row chosen), kept in view.
    package var focus: Range<Int>
    /// The keys lines, always shown last.
    package var keys: [String]
    /// For a page read by scrolling (nothing in focus): the first body line shown, as far as the
    /// body reaches (see `PageScroll`).
    package var from: Int?
    /// The title lines that give way first when title and keys leave the body no room (a calm
    /// line under the heading): they go to the top of the body, scrolled with it.
    package var aside: Range<Int> = 0..<0

    package init(title: [String], body: [String] = [], focus: Range<Int>? = nil, keys: [String] = []) {
        self.title = title
        self.body = body
        self.focus = focus ?? 0..<0
        self.keys = keys
    }

    /// As `init(title:body:focus:keys:)`, the focus one body line.
    package init(title: [String], body: [String], focusLine: Int?, keys: [String]) {
        self.init(title: title, body: body, focus: focusLine.map { $0..<($0 + 1) }, keys: keys)
    }

    /// The smallest window a page is laid out in: below it, `tooSmall` is shown.
    package static let minimum = (columns: 60, rows: 12)

    /// What a window below `minimum` shows: one line, and `q` leaves.
    package static let tooSmall = "Make the window at least 60x12, please · q leaves"

    /// Whether a window of `columns` by `rows` is too small for a page.
    package static func isTooSmall(columns: Int, rows: Int) -> Bool {
        columns < minimum.columns || rows < minimum.rows
    }

    /// Every line, unwrapped and unscrolled (calm screens print this).
    package var all: [String] { (title + body + keys).map(Page.spaced) }

    /// `line` as the terminal shows it: a no-break space is a plain space there.
    static func spaced(_ line: String) -> String { line.replacingOccurrences(of: "\u{A0}", with: " ") }

    /// The lines to draw in `width` columns and at most `rows` rows: the title, the body (from the
    /// first line that keeps the focus in view, with a dim `↑ more` / `↓ more` where lines are
    /// hidden) and the keys. One line (`tooSmall`) when the
    /// window of `columns` by `rows` is smaller than `minimum`. `reserve`: rows left free below
    /// (a form on the normal screen keeps the cursor's row).
    package func lines(columns: Int, rows window: Int, reserve: Int = 0) -> [String] {
        if Self.isTooSmall(columns: columns, rows: window) {
            return Terminal.wrap(Self.tooSmall, width: max(10, columns - 1)).prefix(max(1, window)).map { $0 }
        }
        let rows = window - reserve
        let laid = layout(width: columns - 1, rows: rows)
        // Title and keys alone overfill the window (a long note): the keys' last lines, and the
        // title's first as fit above them.
        if laid.top.count + laid.bottom.count >= rows {
            let shownKeys = Array(laid.bottom.suffix(max(1, rows - 1)))
            return Array(laid.top.prefix(max(0, rows - shownKeys.count))) + shownKeys
        }
        let room = rows - laid.top.count - laid.bottom.count
        return laid.top + Page.scrolled(laid.body, focus: laid.focus, from: from, rows: room) + laid.bottom
    }

    /// The last body line a page read by scrolling can be shown from in a window of `columns` by
    /// `rows`: past it, nothing more comes into view (0 when the body fits or is not shown).
    package func lastFrom(columns: Int, rows: Int) -> Int {
        if Self.isTooSmall(columns: columns, rows: rows) { return 0 }
        let laid = layout(width: columns - 1, rows: rows)
        let room = rows - laid.top.count - laid.bottom.count
        guard room >= 3, laid.body.count > room else { return 0 }
        return laid.body.count - (room - 1)
    }

    /// The title, body and keys wrapped to `width`, the body's focus counted in its wrapped lines.
    /// When title and keys leave the body no row of `rows`, the least needed give way first: the
    /// `aside` lines go to the top of the body, then the lines that only set parts apart (blank
    /// lines, rules) are left out.
    private func layout(width: Int, rows: Int) -> (top: [String], body: [String], focus: Range<Int>, bottom: [String]) {
        var (title, body, focus, keys) = (self.title, self.body, self.focus, self.keys)
        func wrapped(_ lines: [String]) -> [String] { lines.flatMap { Page.wrap($0, width: width) } }
        func overfilled() -> Bool { wrapped(title).count + wrapped(keys).count >= rows }
        let moved = aside.clamped(to: title.indices)
        if !moved.isEmpty, overfilled() {
            body = Array(title[moved]) + body
            if !focus.isEmpty { focus = (focus.lowerBound + moved.count)..<(focus.upperBound + moved.count) }
            title.removeSubrange(moved)
        }
        if overfilled() {
            title.removeAll(where: Page.setsApart)
            keys.removeAll(where: Page.setsApart)
        }
        var lines: [String] = []
        var shownFocus = 0..<0
        for (index, line) in body.enumerated() {
            if index == focus.lowerBound { shownFocus = lines.count..<lines.count }
            lines += Page.wrap(line, width: width)
            if index == focus.upperBound - 1 { shownFocus = shownFocus.lowerBound..<lines.count }
        }
        return (wrapped(title), lines, shownFocus, wrapped(keys))
    }

    /// Whether `line` only sets parts apart: blank, or a rule.
    static func setsApart(_ line: String) -> Bool {
        Calm.plain(line).allSatisfy { $0 == " " || $0 == "\u{A0}" || $0 == "─" }
    }

    /// At most `rows` of `lines`, from the first that keeps `focus` in view (its first line at
    /// least), each hidden part marked with one dim line.
    static func scrolled(_ lines: [String], focus: Range<Int>, from: Int? = nil, rows: Int) -> [String] {
        guard lines.count > rows else { return lines }
        if let from, rows >= 3 {
            // From the top: one mark below; to the end: one above; between: both.
            let start = min(max(0, from), lines.count - (rows - 1))
            if start == 0 { return Array(lines[0..<(rows - 1)]) + [Terminal.dim("  ↓ more below")] }
            let end = min(lines.count, start + (start + rows - 1 >= lines.count ? rows - 1 : rows - 2))
            return [Terminal.dim("  ↑ more above")] + Array(lines[start..<end])
                + (end < lines.count ? [Terminal.dim("  ↓ more below")] : [])
        }
        guard rows >= 3 else {
            let start = min(max(0, focus.lowerBound), max(0, lines.count - rows))
            return Array(lines[start..<min(lines.count, start + rows)])
        }
        // Inside the marks, `rows - 2` lines: the focus from its start, or as much before it as fits.
        let inner = rows - 2
        var start = max(0, min(focus.upperBound, lines.count) - inner)
        start = min(start, max(0, focus.lowerBound))
        if start <= 1 { start = 0 }
        var end = min(lines.count, start + (start == 0 ? rows - 1 : inner))
        if end >= lines.count - 1 {
            end = lines.count
            start = max(0, min(start, lines.count - (start == 0 ? rows : rows - 1)))
            if start == 1 { start = 0 }
        }
        var shown = Array(lines[start..<end])
        if start > 0 { shown.insert(Terminal.dim("  ↑ more above"), at: 0) }
        if end < lines.count { shown.append(Terminal.dim("  ↓ more below")) }
        return Array(shown.prefix(rows))
    }

    /// `line` in lines of at most `width` columns, broken at spaces (a word wider than the width is
    /// cut with …). A line's leading spaces indent the lines it wraps onto; a colour open at a
    /// break is closed there and opened again on the next line.
    package static func wrap(_ line: String, width: Int) -> [String] {
        let width = max(10, width)
        if Terminal.width(Calm.plain(line)) <= width { return [spaced(line)] }
        let indent = String(line.prefix { $0 == " " })
        let lead = Terminal.width(indent) < width / 2 ? indent : ""
        var lines: [String] = []
        var current = ""
        var used = 0
        var fresh = true
        var open = ""  // the colour sequences in force where the current line ends
        for piece in line.dropFirst(indent.count).split(separator: " ", omittingEmptySubsequences: false) {
            var word = String(piece)
            let columns = Terminal.width(Calm.plain(word))
            let room = width - Terminal.width(lines.isEmpty ? indent : lead)
            if !fresh, columns > 0, used + 1 + columns > room {
                // A word of no letters or digits (an emoji, a dash) takes the word before it along.
                if !Calm.plain(word).contains(where: { $0.isLetter || $0.isNumber }), !current.contains("\u{1B}"),
                    let space = current.lastIndex(of: " "),
                    Terminal.width(String(current[current.index(after: space)...])) + 1 + columns <= room
                {
                    word = current[current.index(after: space)...] + " " + word
                    current = String(current[..<space])
                }
                lines.append((lines.isEmpty ? indent : lead) + current + (open.isEmpty ? "" : "\u{1B}[0m"))
                (current, used, fresh) = (open, 0, true)
            }
            let wordColumns = Terminal.width(Calm.plain(word))
            if fresh {
                if word.isEmpty { continue }
                current += word
                used += wordColumns
                fresh = wordColumns == 0
            } else {
                current += " " + word
                used += 1 + wordColumns
            }
            open = openStyles(after: open, in: word)
        }
        lines.append((lines.isEmpty ? indent : lead) + current)
        return lines.map { spaced(Terminal.width(Calm.plain($0)) > width ? cut($0, width) : $0) }
    }

    /// `line` cut to `width` columns with …, its trailing padding dropped.
    private static func cut(_ line: String, _ width: Int) -> String {
        var text = Terminal.fit(line, width)
        while text.last == " " { text.removeLast() }
        return text
    }

    /// The colour sequences in force after `text`, when `open` were before it (a reset clears them).
    static func openStyles(after open: String, in text: String) -> String {
        var open = open
        var rest = Substring(text)
        while let start = rest.firstIndex(of: "\u{1B}") {
            let after = rest[rest.index(after: start)...]
            guard after.first == "[", let end = after.firstIndex(where: { $0.isLetter }) else { break }
            let sequence = rest[start...end]
            if after[end] == "m" {
                let parameters = after[after.index(after: after.startIndex)..<end]
                open = parameters.isEmpty || parameters == "0" ? "" : open + sequence
            }
            rest = rest[rest.index(after: end)...]
        }
        return open
    }
}

/// Where a page read by scrolling is (`Page.from`): ↑/↓ a line, PgUp/PgDn ten, Home/End the ends.
package struct PageScroll: Equatable, Sendable {
    package private(set) var line = 0

    package init() {}

    /// Moves for `key` over `page` as drawn in a window of `columns` by `rows`, never past the
    /// line the last of its body is shown from; false, and nothing moves, for another key.
    package mutating func move(
        _ key: Key, over page: Page, columns: Int = Terminal.columns, rows: Int = Terminal.rows
    ) -> Bool {
        let last = page.lastFrom(columns: columns, rows: rows)
        line = min(line, last)  // the window may have grown since
        switch key {
        case .up: line = max(0, line - 1)
        case .down: line = min(last, line + 1)
        case .pageUp: line = max(0, line - 10)
        case .pageDown: line = min(last, line + 10)
        case .home: line = 0
        case .end: line = last
        default: return false
        }
        return true
    }

    /// `page` shown from this line.
    package func apply(to page: Page) -> Page {
        var page = page
        page.from = line
        return page
    }
}
