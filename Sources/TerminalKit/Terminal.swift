import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The terminal the program runs in: whether each standard stream is one, its size, colour, and
/// how many columns text takes on it (wide characters, escape sequences) — the facts every screen
/// lays itself out by. The program's own output helpers extend it.
package enum Terminal {
    package static var stdinIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }
    package static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    package static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// The terminal's height in rows (24 when it cannot be told).
    package static var rows: Int {
        var size = winsize()
        for fd in [STDOUT_FILENO, STDERR_FILENO, STDIN_FILENO]
        where ioctl(fd, UInt(TIOCGWINSZ), &size) == 0 && size.ws_row > 0 {
            return Int(size.ws_row)
        }
        return 24
    }

    /// The terminal's width in columns (80 when it cannot be told).
    package static var columns: Int {
        var size = winsize()
        for fd in [STDOUT_FILENO, STDERR_FILENO, STDIN_FILENO]
        where ioctl(fd, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 {
            return Int(size.ws_col)
        }
        return 80
    }

    /// Colour only on a terminal, never with NO_COLOR set (https://no-color.org) or TERM=dumb.
    package static let useColor: Bool = {
        let env = ProcessInfo.processInfo.environment
        if let noColor = env["NO_COLOR"], !noColor.isEmpty { return false }
        if env["TERM"] == "dumb" { return false }
        return isatty(STDOUT_FILENO) == 1
    }()

    package static func style(_ text: String, _ code: String) -> String {
        useColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
    package static func bold(_ text: String) -> String { style(text, "1") }
    package static func dim(_ text: String) -> String { style(text, "2") }
    package static func accent(_ text: String) -> String { style(text, "36") }

    /// Columns a character takes on a terminal: wide (emoji, CJK) 2, control 0, else 1.
    package static func width(_ character: Character) -> Int {
        if character.isASCII { return character.asciiValue! < 0x20 ? 0 : 1 }
        let scalars = character.unicodeScalars
        let first = scalars.first!
        if isWide(first.value) || scalars.contains(where: { $0.value == 0xFE0F })
            || first.properties.isEmojiPresentation
        {
            return 2
        }
        return first.properties.generalCategory == .control ? 0 : 1
    }

    package static func width(_ text: String) -> Int { text.reduce(0) { $0 + width($1) } }

    private static func isWide(_ v: UInt32) -> Bool {
        (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
            || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1FAFF).contains(v) || (0x20000...0x3FFFD).contains(v)
    }

    /// The words of `text` in lines of at most `width` terminal columns (a word wider than that
    /// has a line of its own); no lines for no words. A word of no letters or digits (an emoji,
    /// a dash) never starts a line alone: the word before it goes along.
    package static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        var used = 0
        for word in text.split(separator: " ") {
            let columns = self.width(String(word))
            if !current.isEmpty && used + 1 + columns > width {
                var carried = ""
                if !word.contains(where: { $0.isLetter || $0.isNumber }), let space = current.lastIndex(of: " "),
                    self.width(String(current[current.index(after: space)...])) + 1 + columns <= width
                {
                    carried = String(current[current.index(after: space)...])
                    current = String(current[..<space])
                }
                lines.append(current)
                (current, used) = (carried, self.width(carried))
            }
            current += (current.isEmpty ? "" : " ") + word
            used += (used == 0 ? 0 : 1) + columns
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// `text` cut (with …) or padded to exactly `columns` terminal columns. Colour sequences
    /// (`ESC [ … m`) take no columns and are kept (a cut line ends with a reset).
    package static func fit(_ text: String, _ columns: Int) -> String {
        var widths: [Int] = []
        var inSequence = false
        for character in text {
            if inSequence {
                widths.append(0)
                if let ascii = character.asciiValue, ascii >= 0x40, ascii <= 0x7E, character != "[" {
                    inSequence = false
                }
            } else if character == "\u{1B}" {
                widths.append(0)
                inSequence = true
            } else {
                widths.append(width(character))
            }
        }
        let total = widths.reduce(0, +)
        if total <= columns { return text + String(repeating: " ", count: columns - total) }
        var out = ""
        var used = 0
        for (character, w) in zip(text, widths) {
            if used + w > columns - 1 { break }
            out.append(character)
            used += w
        }
        return out + (text.contains("\u{1B}") ? "\u{1B}[0m" : "") + "…"
            + String(repeating: " ", count: max(0, columns - used - 1))
    }
}
