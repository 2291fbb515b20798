import CraveyLibrary
import CraveyMessages
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Terminal facts and small output helpers shared by the commands.
enum Terminal {
    static var stdinIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }
    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// The terminal's height in rows (24 when it cannot be told).
    static var rows: Int {
        var size = winsize()
        for fd in [STDOUT_FILENO, STDERR_FILENO, STDIN_FILENO] where ioctl(fd, UInt(TIOCGWINSZ), &size) == 0 && size.ws_row > 0 {
            return Int(size.ws_row)
        }
        return 24
    }

    /// The terminal's width in columns (80 when it cannot be told).
    static var columns: Int {
        var size = winsize()
        for fd in [STDOUT_FILENO, STDERR_FILENO, STDIN_FILENO] where ioctl(fd, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 {
            return Int(size.ws_col)
        }
        return 80
    }

    /// Colour only on a terminal, never with NO_COLOR set (https://no-color.org) or TERM=dumb.
    static let useColor: Bool = {
        let env = ProcessInfo.processInfo.environment
        if let noColor = env["NO_COLOR"], !noColor.isEmpty { return false }
        if env["TERM"] == "dumb" { return false }
        return isatty(STDOUT_FILENO) == 1
    }()

    static func style(_ text: String, _ code: String) -> String {
        useColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
    static func bold(_ text: String) -> String { style(text, "1") }
    static func dim(_ text: String) -> String { style(text, "2") }
    static func accent(_ text: String) -> String { style(text, "36") }

    /// One line for the user on stderr, an error or a note: `cravey: <message>`.
    static func printNote(_ message: String) {
        FileHandle.standardError.write(Data("cravey: \(safe(message))\n".utf8))
    }

    /// Text from the library or from outside (titles, notes, file names, ids typed by the user)
    /// made safe to print: a character that could drive the terminal — an escape sequence's
    /// control character, a bidirectional override, a line separator, an invisible character —
    /// is shown as U+FFFD instead of acting. Stored data never reaches the terminal raw.
    static func safe(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }  // plain ASCII
        guard text.unicodeScalars.contains(where: Validation.isUnsafe) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { out.append(Validation.isUnsafe(scalar) ? "\u{FFFD}" : scalar) }
        return String(out)
    }

    /// `safe`, keeping line breaks (a line feed, or a carriage return right before one, as CSV
    /// ends its lines) and showing tabs as spaces: for notes shown on several lines and for
    /// exported text printed on a terminal.
    static func safeLines(_ text: String) -> String {
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let crlf = line.last == "\r"
            let body = String(Substring(crlf ? line.dropLast() : line))
            return safe(body.replacingOccurrences(of: "\t", with: " ")) + (crlf ? "\r" : "")
        }.joined(separator: "\n")
    }

    static func fail(_ message: String, code: Int32 = 1) -> Never {
        printNote(message)
        exit(code == 0 ? 1 : code)
    }

    /// Asks a yes/no question on the terminal; anything but y/yes is no.
    /// Without a terminal (and without --yes) the caller must refuse instead of asking.
    static func confirm(_ question: String) -> Bool {
        FileHandle.standardError.write(Data("\(question) [y/N] ".utf8))
        guard let answer = readLine() else { return false }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// Requires a confirmation: `--yes`, or a "y" typed at a terminal.
    static func requireConfirmation(_ question: String, yes: Bool, action: String) throws {
        if yes { return }
        guard stdinIsTerminal else {
            throw CraveyFailure(message: "refusing to \(action) without confirmation: no terminal to ask on (pass --yes)")
        }
        guard confirm(question) else { throw CraveyFailure(message: "cancelled; nothing was changed") }
    }

    /// Columns a character takes on a terminal: wide (emoji, CJK) 2, control 0, else 1.
    static func width(_ character: Character) -> Int {
        if character.isASCII { return character.asciiValue! < 0x20 ? 0 : 1 }
        let scalars = character.unicodeScalars
        let first = scalars.first!
        if isWide(first.value) || scalars.contains(where: { $0.value == 0xFE0F }) || first.properties.isEmojiPresentation {
            return 2
        }
        return first.properties.generalCategory == .control ? 0 : 1
    }

    static func width(_ text: String) -> Int { text.reduce(0) { $0 + width($1) } }

    private static func isWide(_ v: UInt32) -> Bool {
        (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
            || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1FAFF).contains(v) || (0x20000...0x3FFFD).contains(v)
    }

    /// The words of `text` in lines of at most `width` terminal columns (a word wider than that
    /// has a line of its own); no lines for no words.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        var used = 0
        for word in text.split(separator: " ") {
            let columns = self.width(String(word))
            if !current.isEmpty && used + 1 + columns > width {
                lines.append(current)
                (current, used) = ("", 0)
            }
            current += (current.isEmpty ? "" : " ") + word
            used += (used == 0 ? 0 : 1) + columns
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// `text` cut (with …) or padded to exactly `columns` terminal columns. Colour sequences
    /// (`ESC [ … m`) take no columns and are kept (a cut line ends with a reset).
    static func fit(_ text: String, _ columns: Int) -> String {
        var widths: [Int] = []
        var inSequence = false
        for character in text {
            if inSequence {
                widths.append(0)
                if let ascii = character.asciiValue, ascii >= 0x40, ascii <= 0x7E, character != "[" { inSequence = false }
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
        return out + (text.contains("\u{1B}") ? "\u{1B}[0m" : "") + "…" + String(repeating: " ", count: max(0, columns - used - 1))
    }
}

/// How recordings look in tables.
enum Format {
    static func icon(_ kind: Recording.Kind) -> String { kind == .audio ? "🎙️" : "🎬" }

    /// `m:ss`, rounding to the nearest second but never showing 0:00 for a real clip.
    static func duration(_ seconds: Double) -> String { Timecode.text(Double(max(1, Int(seconds.rounded())))) }

    /// `m:ss` truncating (for running clocks).
    static func clock(_ seconds: Double) -> String { Timecode.text(Double(max(0, Int(seconds)))) }

    static func plays(_ count: Int) -> String { count == 1 ? "1 play" : "\(count) plays" }

    /// One table line per recording: icon, title, date, m:ss, plays, purpose (and id prefix).
    /// `onItsWay`: recordings whose transcript is being made in the background (said after them).
    static func table(_ recordings: [Recording], onItsWay: Set<UUID> = []) -> String {
        var lines: [String] = []
        lines.reserveCapacity(recordings.count + 1)
        lines.append(Terminal.dim("   " + Terminal.fit("ID", 9) + Terminal.fit("TITLE", 41) + Terminal.fit("DATE", 24)
                                  + Terminal.fit("LENGTH", 7) + Terminal.fit("PLAYS", 9) + "PURPOSE"))
        for r in recordings {
            let line = icon(r.kind) + " " + Terminal.accent(String(r.id.uuidString.prefix(8))) + " "
                + Terminal.bold(Terminal.fit(r.shownTitle, 40)) + " "
                + Terminal.fit(Validation.displayDate(r.createdAt), 24)
                + Terminal.fit(duration(r.duration), 7)
                + Terminal.fit(plays(r.playCount), 9)
                + (r.purpose?.rawValue ?? "—")
                + (onItsWay.contains(r.id) ? Terminal.dim("  · transcript on its way") : "")
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// A row of block characters for a stored waveform, squeezed into `columns`.
    static func sparkline(_ peaks: [UInt8], columns: Int) -> String {
        guard !peaks.isEmpty, columns > 0 else { return "" }
        let blocks: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        var out = ""
        let n = min(columns, peaks.count)
        for i in 0..<n {
            let start = i * peaks.count / n
            let end = max(start + 1, (i + 1) * peaks.count / n)
            let peak = peaks[start..<end].max() ?? 0
            out.append(blocks[Int((Double(peak) / 255 * 8).rounded())])
        }
        return out
    }
}

extension Recording {
    /// The title as it may be printed (see `Terminal.safe`).
    var shownTitle: String { Terminal.safe(title) }
}
