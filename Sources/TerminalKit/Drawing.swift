import Foundation
import Synchronization

/// Drawing to the terminal: each frame is built whole in a buffer and written at once, so it never
/// flickers half-drawn.
package enum Drawing {
    /// Clears the screen and draws `lines` from the top (a screen of its own).
    package static func screen(_ lines: [String], to handle: FileHandle = .standardError) {
        if Calm.isOn { return CalmPage.shared.show(lines, to: handle) }
        handle.show(Data(("\u{1B}[H\u{1B}[2J" + lines.joined(separator: "\r\n") + "\r\n").utf8))
    }

    /// A one-line status at the cursor's line, redrawn in place (`\r`, cut to the width).
    package static func progressLine(_ text: String, to handle: FileHandle = .standardError) {
        if Calm.isOn { return calmProgress.withLock { $0.offer(text, to: handle) } }
        handle.show(Data(("\r" + Terminal.fit(text, max(20, Terminal.columns - 1)) + "\u{1B}[K").utf8))
    }

    /// Calm screens' progress: a line at most once a second.
    private static let calmProgress = Mutex(StatusLines())

    /// Clears the progress line.
    package static func clearLine(to handle: FileHandle = .standardError) {
        if Calm.isOn { return }
        handle.show(Data("\r\u{1B}[K".utf8))
    }

    /// The cursor hidden or shown again.
    package static func cursor(visible: Bool, to handle: FileHandle = .standardError) {
        if Calm.isOn { return }
        handle.show(Data((visible ? "\u{1B}[?25h" : "\u{1B}[?25l").utf8))
    }
}

/// A block of lines redrawn in place below the cursor (the meter, the play screen): each redraw
/// moves up over the previous block and rewrites the lines that changed (a line left as it was
/// costs one byte: a preview picture's lines are many bytes, redrawn only when it changes); a
/// shorter block clears what is left below it.
package struct LiveBlock {
    package init() {}

    private var drawn: [String] = []

    /// The bytes that replace the previous block with `lines` (calm screens: the lines that
    /// changed, printed below).
    package mutating func frame(_ lines: [String]) -> String {
        if Calm.isOn {
            defer { drawn = lines }
            return Calm.lines(of: lines, after: drawn).map { $0 + "\n" }.joined()
        }
        var out = drawn.isEmpty ? "" : "\u{1B}[\(drawn.count)A"
        for (index, line) in lines.enumerated() {
            out += index < drawn.count && drawn[index] == line ? "\n" : "\r\u{1B}[2K" + line + "\n"
        }
        if lines.count < drawn.count { out += "\r\u{1B}[J" }
        drawn = lines
        return out
    }

    package mutating func draw(_ lines: [String], to handle: FileHandle) {
        handle.show(Data(frame(lines).utf8))
    }
}
