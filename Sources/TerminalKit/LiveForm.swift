/// A form drawn in place on standard error (below what was printed before it) and answered key by
/// key in raw mode, the cursor hidden: the one loop a form on the normal screen needs. A stop
/// signal or the end of input closes it; the terminal is given back however it ends.
package enum LiveForm {
    /// Draws `lines()` and hands each key to `answer` until it gives a result (nil: the form goes
    /// on, drawn again). nil without a terminal, or when a stop signal closed the form.
    package static func run<Result>(lines: () -> [String], answer: (Key) -> Result?) -> Result? {
        guard let raw = RawMode() else { return nil }
        defer { raw.release() }
        let signals = StopSignals()
        defer { signals.cancel() }
        var block = LiveBlock()
        Drawing.cursor(visible: false)
        defer { Drawing.cursor(visible: true) }
        while !signals.stopRequested {
            block.draw(lines(), to: .standardError)
            guard let key = KeyReader.shared.next(waiting: 200), !signals.stopRequested else { continue }
            if let result = answer(key) { return result }
        }
        return nil
    }
}
