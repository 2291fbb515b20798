import Foundation

#if canImport(Glibc)
    import Glibc
#endif
import Synchronization

/// Calm screens, for screen readers and for people who want no motion: on with `TERM=dumb` or
/// when the program asks for them (`Calm.choose`, its reduced-motion preference). Nothing is redrawn in place: a page is printed as plain lines (then
/// only the lines that changed), a live screen (the meter, a playback, the check-in's recording, a
/// progress bar) prints a plain status line at most once a second, and a key that chooses
/// something is answered with what it chose, as text (`→ Log craving`).
package enum Calm {
    /// Whether screens are calm now.
    package static var isOn: Bool { chosen.withLock { $0 } }

    private static let chosen = Mutex(ProcessInfo.processInfo.environment["TERM"] == "dumb")

    /// Calm screens or not, as the program chose once when it started (a dumb terminal, or the
    /// person asked for reduced motion).
    package static func choose(_ calm: Bool) { chosen.withLock { $0 = calm } }

    /// `text` without its escape sequences (colours, styles).
    package static func plain(_ text: String) -> String {
        guard text.contains("\u{1B}") else { return text }
        var out = ""
        var escaping = false, bracket = false
        for scalar in text.unicodeScalars {
            if escaping {
                if !bracket && scalar == "[" { bracket = true; continue }
                // A CSI sequence ends with a letter (or ~); a two-byte escape with its second byte.
                if !bracket || (scalar.value >= 0x40 && scalar.value <= 0x7E) { escaping = false; bracket = false }
                continue
            }
            if scalar == "\u{1B}" { escaping = true; continue }
            out.unicodeScalars.append(scalar)
        }
        return out
    }

    /// What a page printed after `previous` shows: the whole page after a blank line (plain, no
    /// trailing spaces or blank lines, no runs of blank lines) when it is a new page, else only its
    /// lines that changed.
    package static func lines(of page: [String], after previous: [String]) -> [String] {
        func text(_ line: String) -> String {
            var line = plain(line).replacingOccurrences(of: "\r", with: "")
            while line.last?.isWhitespace == true { line.removeLast() }
            return line
        }
        let new = page.map(text), old = previous.map(text)
        let changed = new.indices.filter { $0 >= old.count || old[$0] != new[$0] }
        if !old.isEmpty, new.count == old.count, changed.count * 2 <= new.count {
            return changed.map { new[$0] }.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        }
        var out: [String] = []
        for line in new where !(line.trimmingCharacters(in: .whitespaces).isEmpty && (out.last?.isEmpty ?? true)) {
            out.append(line.trimmingCharacters(in: .whitespaces).isEmpty ? "" : line)
        }
        while out.last?.isEmpty == true { out.removeLast() }
        return out.isEmpty ? [] : [""] + out
    }

    /// What `key` chooses on a page that names its keys (`c  Log craving`, `Enter  Start`,
    /// `p Progress`): the text after the key, up to the next gap of two spaces.
    package static func label(of key: Key, in page: [String]) -> String? {
        let name: String
        switch key {
        case .enter: name = "Enter"
        case .escape: name = "Esc"
        case .delete: name = "Del"
        case let .character(c) where !c.isWhitespace: name = String(c)
        default: return nil
        }
        // A key names a choice where it starts a line or follows a gap of two spaces, and is
        // followed by a space ("Day 1 · …" is not the key 1).
        for line in page.map(plain) {
            var searched = line.startIndex
            while let range = line.range(of: name, range: searched..<line.endIndex) {
                searched = range.upperBound
                let before = line[..<range.lowerBound]
                let after = line[range.upperBound...]
                guard before.allSatisfy({ $0 == " " }) || before.hasSuffix("  "), after.first == " " else { continue }
                let text = after.drop { $0 == " " }
                let label = (text.range(of: "  ").map { text[..<$0.lowerBound] } ?? text).trimmingCharacters(
                    in: .whitespaces)
                if !label.isEmpty { return label }
            }
        }
        return nil
    }
}

/// A page printed the calm way (see `Calm.lines`): remembers the last one to print only changes.
package final class CalmPage: Sendable {
    package static let shared = CalmPage()
    private let last = Mutex<[String]>([])

    /// Prints `page` (its changes); the page is kept for `announce`.
    package func show(_ page: [String], to handle: FileHandle) {
        let lines = last.withLock { last -> [String] in
            defer { last = page }
            return Calm.lines(of: page, after: last)
        }
        guard !lines.isEmpty else { return }
        handle.show(Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    /// Says what `key` chose on the page shown last, when the page names it.
    package func announce(_ key: Key, to handle: FileHandle) {
        guard let label = last.withLock({ Calm.label(of: key, in: $0) }) else { return }
        handle.show(Data("→ \(label)\n".utf8))
    }

    /// The next page is printed whole (a screen left and come back to).
    package func forget() { last.withLock { $0 = [] } }
}

/// A live screen's status as plain lines (calm screens): at most one a second, and only when it
/// says something new.
package struct StatusLines {
    package init() {}

    private var printedAt: UInt64 = 0
    private var last = ""

    /// Prints `text` if a second has passed since the last line (or `now` is set) and it changed.
    package mutating func offer(_ text: String, to handle: FileHandle, now: Bool = false) {
        var clock = timespec()
        clock_gettime(CLOCK_MONOTONIC, &clock)
        let time = UInt64(clock.tv_sec) * 1_000_000_000 + UInt64(clock.tv_nsec)
        guard text != last, now || printedAt == 0 || time - printedAt >= 1_000_000_000 else { return }
        printedAt = time
        last = text
        handle.show(Data((Calm.plain(text) + "\n").utf8))
    }
}
