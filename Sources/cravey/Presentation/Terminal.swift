import CraveyLibrary
import CraveyMessages
import Foundation
import TerminalKit

#if canImport(Glibc)
    import Glibc
#endif

/// Small output helpers shared by the commands and screens, on the terminal's facts.
extension Terminal {
    /// One line for the user on stderr, an error or a note: `cravey: <message>`.
    static func printNote(_ message: String) {
        FileHandle.standardError.show(Data("cravey: \(safe(message))\n".utf8))
    }

    /// Standard output not written whole (a full disk behind `>`): one line and status 1, never a
    /// silent success. What a command saved before it printed stays saved.
    static func failUnlessOutputWritten() {
        if let failure = StandardOutput.failure() { fail(failure, code: 1) }
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

    /// Requires a confirmation: `--yes`, or a "y" typed at a terminal (`confirm`).
    static func requireConfirmation(_ question: String, yes: Bool, action: String) throws {
        guard try confirmed(question, yes: yes, action: action) else {
            throw CraveyFailure(message: "cancelled; nothing was changed")
        }
    }

    /// Whether to go ahead: `--yes`, or a "y" typed at a terminal (`confirm`); false when the
    /// person said no, which is a choice, not a failure. Without a terminal to ask on it refuses.
    static func confirmed(_ question: String, yes: Bool, action: String) throws -> Bool {
        if yes { return true }
        guard stdinIsTerminal else {
            throw CraveyFailure(
                message: "refusing to \(action) without confirmation: no terminal to ask on (pass --yes)")
        }
        return confirm(question)
    }

    /// What a delete the person cancelled says (on standard output; the command succeeds).
    static let nothingDeleted = "Nothing deleted."

}

/// How recordings look in tables.
enum Format {
    /// "1 craving", "3 usage logs".
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    static func icon(_ kind: Recording.Kind) -> String { kind == .audio ? "🎙️" : "🎥" }

    /// Whole seconds, the one rounding every length, clock and countdown is shown with: to the
    /// nearest second, so a list, the player and the recorder agree on the same clip.
    static func wholeSeconds(_ seconds: Double) -> Int { seconds.isFinite ? Int(max(0, seconds).rounded()) : 0 }

    /// `m:ss` to the nearest second, but never 0:00 for a real clip.
    static func duration(_ seconds: Double) -> String { Timecode.text(Double(max(1, wholeSeconds(seconds)))) }

    /// `m:ss` to the nearest second (running clocks and countdowns).
    static func clock(_ seconds: Double) -> String { Timecode.text(Double(wholeSeconds(seconds))) }

    /// `m:ss` where a word starts, cut to the second before it: `play --from` it starts before the word.
    static func start(_ seconds: Double) -> String { Timecode.text(Double(max(0, Int(seconds)))) }

    static func plays(_ count: Int) -> String { count == 1 ? "1 play" : "\(count) plays" }

    /// One table line per recording: icon, title, date, m:ss, plays, purpose (and id prefix).
    /// `onItsWay`: recordings whose transcript is being made in the background (said after them).
    static func table(_ recordings: [Recording], onItsWay: Set<UUID> = []) -> String {
        var lines: [String] = []
        lines.reserveCapacity(recordings.count + 1)
        lines.append(
            Terminal.dim(
                "   " + Terminal.fit("ID", 9) + Terminal.fit("TITLE", 41) + Terminal.fit("DATE", 24)
                    + Terminal.fit("LENGTH", 7) + Terminal.fit("PLAYS", 9) + "PURPOSE"))
        for r in recordings {
            let line =
                icon(r.kind) + " " + Terminal.accent(String(r.id.uuidString.prefix(8))) + " "
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
