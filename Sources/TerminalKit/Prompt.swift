import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Questions, asked the one way every screen asks them. On a terminal (raw mode, the one key
/// reader, a stop signal answering like the end of input) a key answers at once or a line is typed
/// in place; without a terminal on standard input the same question reads a line from standard
/// input, as scripts and tests answer it. Raw mode is given back however the question ends.
package enum Prompt {
    /// A question answered by one key. `key` says what a key means (nil: not an answer, the
    /// question waits); without a terminal a line is read and `line` says what it means (nil: the
    /// question is asked again). The end of input, or on a terminal a stop signal, answers `ended`.
    /// The key that answers is shown after the question, unless `echoing` is off (a question that
    /// ends its own line).
    package static func choice<Answer>(
        _ question: String, echoing: Bool = true, key: (Key) -> Answer?, line: (String) -> Answer?,
        ended: Answer
    ) -> Answer {
        let err = FileHandle.standardError
        guard let raw = RawMode() else {
            while true {
                err.show(Data(question.utf8))
                guard let typed = readLine() else { return ended }
                if let answer = line(typed) { return answer }
            }
        }
        defer { raw.release() }
        let signals = StopSignals()
        defer { signals.cancel() }
        err.show(Data(question.utf8))
        while true {
            guard let pressed = nextKey(stopped: { signals.stopRequested }), pressed != .inputEnded else {
                if echoing { err.show(Data("\r\n".utf8)) }
                return ended
            }
            guard let answer = key(pressed) else { continue }
            if case let .character(c) = pressed {
                if echoing { err.show(Data(String(c).utf8)) }
                noteAnswered()
            }
            if echoing { err.show(Data("\r\n".utf8)) }
            return answer
        }
    }

    /// A line: on a terminal (standard input and error both one) typed in place with
    /// `Terminal.editLine` after `prompt`; else `plain` (or `prompt`) is written and a line read
    /// from standard input. nil at the end of input, on Esc, or on a stop signal.
    package static func line(
        _ prompt: String, plain: String? = nil, limit: Int, counterFrom: Int = .max,
        shown: (String) -> String, answersAtOnce: (Character) -> Bool = { _ in false }
    ) -> String? {
        guard Terminal.stderrIsTerminal, let raw = RawMode() else {
            FileHandle.standardError.show(Data((plain ?? prompt).utf8))
            return readLine()
        }
        defer { raw.release() }
        let signals = StopSignals()
        defer { signals.cancel() }
        return Terminal.editLine(
            prompt: prompt, limit: limit, counterFrom: counterFrom, shown: shown, answersAtOnce: answersAtOnce,
            stopped: { signals.stopRequested })
    }

    /// `line`, asked again (after the reason, indented) until `check` takes the answer; nil when
    /// the question ended without one.
    package static func ask<T>(
        _ prompt: String, plain: String? = nil, limit: Int, counterFrom: Int = .max, shown: (String) -> String,
        answersAtOnce: (Character) -> Bool = { _ in false }, check: (String) throws -> T
    ) -> T? {
        while true {
            guard
                let text = line(
                    prompt, plain: plain, limit: limit, counterFrom: counterFrom, shown: shown,
                    answersAtOnce: answersAtOnce)
            else {
                return nil
            }
            do {
                return try check(text)
            } catch {
                FileHandle.standardError.show(Data("  \(error)\n".utf8))
            }
        }
    }

    /// The next key for a question: nil on a stop signal; an Enter that follows an answer's key is
    /// passed over (by the key reader).
    static func nextKey(stopped: () -> Bool) -> Key? {
        while !stopped() {
            guard let key = KeyReader.shared.next(waiting: 200) else { continue }
            return key
        }
        return nil
    }

    /// Notes that a key answered a question at once (a line's first key did).
    static func noteAnswered() { KeyReader.shared.answered() }
}

/// The Enter typed right after a key that answered a question (the habit of line prompts: `y`
/// then Enter): within a second it is taken as part of that answer and passed over, once.
/// Passing it over only makes the next question wait, so it can never choose anything.
package struct EnterAfterAnswer: Sendable {
    package static let window = 1_000
    private var answeredAt: Int?

    package init() {}

    /// A key answered at `milliseconds`.
    package mutating func answered(at milliseconds: Int) { answeredAt = milliseconds }

    /// Whether `key`, read at `milliseconds`, is that Enter. Any key read ends the window.
    package mutating func swallows(_ key: Key, at milliseconds: Int) -> Bool {
        defer { answeredAt = nil }
        guard key == .enter, let answeredAt else { return false }
        return milliseconds - answeredAt < Self.window
    }
}

extension Terminal {
    /// Asks a yes/no question: on a terminal y answers yes, and n, Enter or Esc no, at once;
    /// without one a line is read, and anything but y/yes is no.
    /// Without a terminal (and without --yes) the caller must refuse instead of asking.
    package static func confirm(_ question: String) -> Bool {
        Prompt.choice(
            "\(question) [y/N] ",
            key: { key in
                key.letter == "y" ? true : key.letter == "n" || key == .enter || key == .escape ? false : nil
            }, line: { ["y", "yes"].contains($0.trimmingCharacters(in: .whitespaces).lowercased()) }, ended: false)
    }

    /// Reads a line typed in place on standard error's terminal (the caller holds raw mode): at
    /// most `limit` characters, a counter (`153/200`) shown once `counterFrom` are typed, a text
    /// too wide for the terminal shown by its end. Enter ends it; Esc, the end of input or `stopped`
    /// give nil. A first key for which `answersAtOnce` holds (a choice's number) is the whole line.
    /// `shown` makes the typed text safe to echo (the program's rule for what may reach a terminal).
    package static func editLine(
        prompt: String, limit: Int, counterFrom: Int, shown safe: (String) -> String,
        answersAtOnce: (Character) -> Bool = { _ in false }, stopped: () -> Bool = { false }
    ) -> String? {
        var text = ""
        func draw() {
            let counter = text.count >= counterFrom ? "  " + dim("\(text.count)/\(limit)") : ""
            let room = max(8, columns - prompt.count - (text.count >= counterFrom ? 11 : 2))
            let shown = text.count > room ? "…" + String(text.suffix(room - 1)) : text
            FileHandle.standardError.show(Data(("\r\u{1B}[2K" + prompt + safe(shown) + counter).utf8))
        }
        draw()
        while true {
            let key = Prompt.nextKey(stopped: stopped) ?? .inputEnded
            if text.isEmpty, case let .character(c) = key, answersAtOnce(c) {
                text.append(c)
                draw()
                Prompt.noteAnswered()
                FileHandle.standardError.show(Data("\r\n".utf8))
                return text
            }
            if let ended = key.edit(&text, limit: limit) {
                FileHandle.standardError.show(Data("\r\n".utf8))
                return ended ? text : nil
            }
            draw()
        }
    }
}
