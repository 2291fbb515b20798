import Foundation

/// A screen of its own on the terminal (the alternate screen, raw mode, the cursor hidden) for
/// the hub and its pages: each page is drawn whole and answers with one key. A command run from
/// it (a log form, a recording, a message playing) runs on the normal screen in between
/// (`suspend`), with the terminal as it was, and the screen comes back after. Ctrl-C, a hang-up or
/// the input closing leaves it (`Key.inputEnded`); the terminal is always given back.
package final class FullScreen {
    private var raw: RawMode?
    private var signals: StopSignals?
    private let out = FileHandle.standardOutput
    /// Whether a stop signal or the end of input closed the screen (every `ask` after returns
    /// `.inputEnded`).
    package private(set) var closed = false

    /// nil when standard input or output is not a terminal.
    package init?() {
        guard Terminal.stdinIsTerminal, Terminal.stdoutIsTerminal else { return nil }
        enter()
    }

    deinit { leave() }

    private func enter() {
        raw = RawMode()
        signals = StopSignals()
        CalmPage.shared.forget()
        if !Calm.isOn { out.show(Data("\u{1B}[?1049h".utf8)) }
        Drawing.cursor(visible: false, to: out)
    }

    private func leave() {
        guard raw != nil else { return }
        Drawing.cursor(visible: true, to: out)
        if !Calm.isOn { out.show(Data("\u{1B}[?1049l".utf8)) }
        signals?.cancel()
        signals = nil
        raw?.release()
        raw = nil
    }

    /// Draws `lines` from the top: plain text wider than the terminal is wrapped at spaces, a
    /// styled line (a chart, a row of keys) is cut to the width.
    package func draw(_ lines: [String]) {
        if Calm.isOn { return CalmPage.shared.show(lines, to: out) }
        let columns = max(20, Terminal.columns - 1)
        let rows = Terminal.rows
        let wrapped = lines.flatMap { line in
            line.contains("\u{1B}") || Terminal.width(line) <= columns ? [line] : Terminal.wrap(line, width: columns)
        }
        write(Array(wrapped.prefix(rows)), columns: columns)
    }

    /// Draws `page` laid out for the window (see `Page.lines`): its title, focus and keys in view,
    /// or, in a window below `Page.minimum`, the one line that asks for a bigger one.
    package func draw(_ page: Page) {
        if Calm.isOn { return CalmPage.shared.show(page.all, to: out) }
        let columns = Terminal.columns
        write(page.lines(columns: columns, rows: Terminal.rows), columns: max(20, columns - 1))
    }

    private func write(_ lines: [String], columns: Int) {
        let shown = lines.map { Terminal.fit($0, columns) + "\u{1B}[K" }
        out.show(Data(("\u{1B}[H" + shown.joined(separator: "\r\n") + "\u{1B}[J").utf8))
    }

    /// Draws `lines` and waits for a key; `.inputEnded` when the screen must close (a stop
    /// signal, the terminal gone). A change of the terminal's size redraws.
    package func ask(_ lines: [String]) -> Key { ask { lines } }

    /// As `ask(_:)`, the page made again for the new size when the terminal's size changes.
    package func ask(drawing lines: () -> [String]) -> Key { wait { draw(lines()) } }

    /// Draws `page()` and waits for a key, as `ask(_:)`, the page laid out again when the window's
    /// size changes. In a window below `Page.minimum` only `q` and Esc answer (back, or leave):
    /// nothing is chosen unseen.
    package func ask(page: () -> Page) -> Key {
        while true {
            let key = wait { draw(page()) }
            guard tooSmall else { return key }
            if key.isQuit || key == .inputEnded { return key }
        }
    }

    /// Whether the window is below `Page.minimum` (a page shows only the line that says so).
    package var tooSmall: Bool { !Calm.isOn && Page.isTooSmall(columns: Terminal.columns, rows: Terminal.rows) }

    /// A key for a page where text is typed: in a window too small to see the field, `q` is Esc
    /// (it leaves) rather than a letter typed unseen.
    package func askTyping(page: () -> Page) -> Key {
        let key = ask(page: page)
        return tooSmall && key.isQuit ? .escape : key
    }

    /// As `ask(page:)` for a page that does not change while it waits.
    package func ask(_ page: Page) -> Key { ask { page } }

    private func wait(drawing: () -> Void) -> Key {
        var size = (Terminal.columns, Terminal.rows)
        drawing()
        while !closed {
            if signals?.stopRequested ?? true { break }
            if let key = KeyReader.shared.next(waiting: 200) {
                if key == .inputEnded || signals?.stopRequested ?? false { break }
                if Calm.isOn { CalmPage.shared.announce(key, to: out) }
                return key
            }
            let now = (Terminal.columns, Terminal.rows)
            if now != size {
                size = now
                drawing()
            }
        }
        closed = true
        return .inputEnded
    }

    /// Reads a line of text typed on the page (Enter ends it; Esc, or the screen closing, gives
    /// nil — `closed` tells which), at most `limit`
    /// characters; `page` draws the page around what is typed so far.
    package func readLine(limit: Int, initial: String = "", page: (String) -> [String]) -> String? {
        var text = initial
        while true {
            if let ended = ask(page(text)).edit(&text, limit: limit) { return ended ? text : nil }
        }
    }

    /// As `readLine(limit:initial:page:)`, the page laid out to fit (see `ask(page:)`).
    package func readLine(limit: Int, initial: String = "", fitting page: (String) -> Page) -> String? {
        var text = initial
        while true {
            if let ended = askTyping(page: { page(text) }).edit(&text, limit: limit) { return ended ? text : nil }
        }
    }

    /// Runs `body` on the normal screen with the terminal as it was, then comes back. The normal
    /// screen starts clear (what was on it scrolled up, not erased): a form opened from this
    /// screen never sits under an earlier flow's questions.
    package func suspend<T>(_ body: () throws -> T) rethrows -> T {
        leave()
        if !Calm.isOn {
            out.show(
                Data(("\u{1B}[\(Terminal.rows);1H" + String(repeating: "\n", count: Terminal.rows) + "\u{1B}[H").utf8))
        }
        defer { enter() }
        return try body()
    }
}
