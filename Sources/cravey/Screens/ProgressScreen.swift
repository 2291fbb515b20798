import CraveyTracker
import Foundation
import TerminalKit

/// The progress dashboard on a terminal: a screen of its own (`FullScreen`) whose title and range line stay at the top while the sections scroll beneath. ←/→
/// (or Tab) change the range; `o` and `1`–`3` help in a craving (`help`), as on every screen and redraw, ↑/↓, PgUp/PgDn, Home/End scroll, q or Esc leaves; the
/// terminal is given back as it was however the screen ends (a key, Ctrl-C, a hang-up).
enum ProgressScreen {
    /// What the screen shows now: the range, the scroll, the size it was drawn for.
    struct State: Equatable {
        var range: ProgressRange
        var offset = 0

        enum Outcome { case redraw, leave }

        /// Applies a key; `page` is how many body rows fit; `bodyCount` how many there are.
        mutating func apply(_ key: Key, page: Int, bodyCount: Int) -> Outcome {
            let ranges = ProgressRange.allCases
            let index = ranges.firstIndex(of: range) ?? 0
            let shown = range
            // A new range is a new dashboard: it starts at its top.
            defer { if range != shown { offset = 0 } }
            switch key {
            case _ where key.isQuit, .inputEnded: return .leave
            case .left: range = ranges[(index + ranges.count - 1) % ranges.count]
            case .right, .tab: range = ranges[(index + 1) % ranges.count]
            case .up: offset -= 1
            case .down, .enter: offset += 1
            case .pageUp: offset -= max(1, page - 1)
            case .pageDown, .character(" "): offset += max(1, page - 1)
            case .home: offset = 0
            case .end: offset = bodyCount
            default: break
            }
            offset = max(0, min(offset, bodyCount - page))
            return .redraw
        }
    }

    /// The whole screen for `state` at a size: the header, the visible part of `body` (the
    /// sections), and the keys line.
    static func frame(_ body: [String], state: inout State, columns: Int, rows: Int, note: String? = nil) -> [String] {
        if Page.isTooSmall(columns: columns, rows: rows) { return Page(title: []).lines(columns: columns, rows: rows) }
        let header = ProgressView.header(state.range, width: columns)
        let page = max(1, rows - header.count - 1)
        state.offset = max(0, min(state.offset, body.count - page))
        let shown = Array(body.dropFirst(state.offset).prefix(page))
        let more = body.count > page ? "  \(state.offset + 1)–\(state.offset + shown.count) of \(body.count)" : ""
        let keys =
            note.map { Terminal.accent(Terminal.fit($0, columns - 1)) }
            ?? Terminal.dim("←/→ range   ↑/↓ PgUp/PgDn scroll   q leave" + more)
        return (header + shown + Array(repeating: "", count: page - shown.count)).map { Terminal.fit($0, columns - 1) }
            + [keys]
    }

    /// Runs the screen until it is left. `figures` works out a range (from facts read once).
    /// A key `help` takes (it says what happened) shows its note in place of the keys, once.
    static func run(
        range: ProgressRange, help: (FullScreen, Key) throws -> String?, figures: (ProgressRange) -> ProgressFigures
    ) {
        guard let screen = FullScreen() else { return }
        var state = State(range: range)
        var current = figures(range)
        var bodyCount = 0
        var note: String?
        while true {
            if current.range != state.range { current = figures(state.range) }
            let key = screen.ask {
                // Words wrap between words; a chart is drawn to the width and never wraps.
                let body = ProgressView(current, width: Terminal.columns).sections.flatMap {
                    Page.wrap($0, width: Terminal.columns - 1)
                }
                bodyCount = body.count
                return frame(body, state: &state, columns: Terminal.columns, rows: Terminal.rows, note: note)
            }
            note = nil
            if Page.isTooSmall(columns: Terminal.columns, rows: Terminal.rows), !key.isQuit, key != .inputEnded {
                continue
            }
            if let said = try? help(screen, key) {
                note = said
                continue
            }
            if state.apply(key, page: max(1, Terminal.rows - 4), bodyCount: bodyCount) == .leave { return }
        }
    }
}
