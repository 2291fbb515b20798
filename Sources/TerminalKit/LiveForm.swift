import Foundation

/// A form drawn in place on standard error (below what was printed before it) and answered key by
/// key in raw mode, the cursor hidden: the one loop a form on the normal screen needs. A stop
/// signal or the end of input closes it; the terminal is given back however it ends.
package enum LiveForm {
    /// Draws `lines()` and hands each key to `answer` until it gives a result (nil: the form goes
    /// on, drawn again). nil without a terminal, or when a stop signal closed the form.
    package static func run<Result>(lines: () -> [String], answer: (Key) -> Result?) -> Result? {
        run(lines: lines, answer: answer, resized: false)
    }

    /// `resized`: when the window's size changes, the form starts again at the top of a clear
    /// screen (the terminal has moved the lines drawn before).
    private static func run<Result>(lines: () -> [String], answer: (Key) -> Result?, resized: Bool) -> Result? {
        guard let raw = RawMode() else { return nil }
        defer { raw.release() }
        let signals = StopSignals()
        defer { signals.cancel() }
        var block = LiveBlock()
        Drawing.cursor(visible: false)
        defer { Drawing.cursor(visible: true) }
        var size = (Terminal.columns, Terminal.rows)
        while !signals.stopRequested {
            if resized, !Calm.isOn, (Terminal.columns, Terminal.rows) != size {
                size = (Terminal.columns, Terminal.rows)
                block = LiveBlock()
                FileHandle.standardError.show(Data("\u{1B}[H\u{1B}[2J".utf8))
            }
            block.draw(lines(), to: .standardError)
            guard let key = KeyReader.shared.next(waiting: 200), !signals.stopRequested else { continue }
            if let result = answer(key) { return result }
        }
        return nil
    }

    /// As `run(lines:answer:)`, the form a page laid out to fit the window (one row kept for the
    /// cursor below it): its title, focus and keys stay in view. In a window below
    /// `Page.minimum` only `q` and Esc answer, both as Esc (close).
    package static func run<Result>(page: () -> Page, answer: (Key) -> Result?) -> Result? {
        func small() -> Bool { !Calm.isOn && Page.isTooSmall(columns: Terminal.columns, rows: Terminal.rows) }
        return run(
            lines: {
                let page = page()
                return Calm.isOn ? page.all : page.lines(columns: Terminal.columns, rows: Terminal.rows, reserve: 1)
            },
            answer: { key in
                guard small() else { return answer(key) }
                return key.isQuit ? answer(.escape) : nil
            }, resized: true)
    }
}
