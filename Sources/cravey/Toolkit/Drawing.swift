import Foundation

/// Drawing to the terminal: each frame is built whole in a buffer and written at once, so it never
/// flickers half-drawn.
enum Drawing {
    /// Clears the screen and draws `lines` from the top (a screen of its own).
    static func screen(_ lines: [String], to handle: FileHandle = .standardError) {
        handle.write(Data(("\u{1B}[H\u{1B}[2J" + lines.joined(separator: "\r\n") + "\r\n").utf8))
    }

    /// A one-line status at the cursor's line, redrawn in place (`\r`, cut to the width).
    static func progressLine(_ text: String, to handle: FileHandle = .standardError) {
        handle.write(Data(("\r" + Terminal.fit(text, max(20, Terminal.columns - 1)) + "\u{1B}[K").utf8))
    }

    /// Clears the progress line.
    static func clearLine(to handle: FileHandle = .standardError) {
        handle.write(Data("\r\u{1B}[K".utf8))
    }

    /// The cursor hidden or shown again.
    static func cursor(visible: Bool, to handle: FileHandle = .standardError) {
        handle.write(Data((visible ? "\u{1B}[?25h" : "\u{1B}[?25l").utf8))
    }
}

/// A block of lines redrawn in place below the cursor (the meter, the play screen): each redraw
/// moves up over the previous block and rewrites every line.
struct LiveBlock {
    private var drawn = 0

    /// The bytes that replace the previous block with `lines`.
    mutating func frame(_ lines: [String]) -> String {
        var out = drawn > 0 ? "\u{1B}[\(drawn)A" : ""
        for line in lines { out += "\r\u{1B}[2K" + line + "\n" }
        drawn = lines.count
        return out
    }

    mutating func draw(_ lines: [String], to handle: FileHandle) {
        handle.write(Data(frame(lines).utf8))
    }
}

extension Terminal {
    /// Reads a line typed in place on standard error's terminal (the caller holds raw mode): at
    /// most `limit` characters, a counter (`153/200`) shown once `counterFrom` are typed, a text
    /// too wide for the terminal shown by its end. Enter ends it; Esc or Ctrl-C give nil.
    static func editLine(prompt: String, limit: Int, counterFrom: Int) -> String? {
        var text = ""
        func draw() {
            let counter = text.count >= counterFrom ? "  " + dim("\(text.count)/\(limit)") : ""
            let room = max(8, columns - prompt.count - (text.count >= counterFrom ? 11 : 2))
            let shown = text.count > room ? "…" + String(text.suffix(room - 1)) : text
            FileHandle.standardError.write(Data(("\r\u{1B}[2K" + prompt + safe(shown) + counter).utf8))
        }
        draw()
        while true {
            let key = KeyReader.shared.next() ?? .inputEnded
            let ended = key == .character("\u{03}") ? false : key.edit(&text, limit: limit)  // Ctrl-C (raw mode) cancels too
            if let ended {
                FileHandle.standardError.write(Data("\r\n".utf8))
                return ended ? text : nil
            }
            draw()
        }
    }
}
