import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

/// The private self-screen on a terminal: the eight questions one at a time, one key per answer
/// (`1`–`5`, the answer's number), `b` back a question, `q` leaves with nothing kept. After the
/// eighth, the score and its trend; `w` says what the number means. What `cravey screen` and
/// settings' `s` both run.
struct SelfScreenScreen {
    /// What the screen shows: the question asked, the answers given so far, and after the last
    /// one the screens taken (this one last) and whether the meaning is shown.
    struct State {
        var answers: [Int] = []
        var screens: [SelfScreenTaken] = []
        var meaning = false
        /// The one line of what went wrong.
        var note: String?

        var index: Int { answers.count }
        var done: Bool { !screens.isEmpty }
    }

    let session: Session
    let screen: FullScreen

    /// The screen as a page: the title and how far it is, the question and its answers (or the
    /// result), the keys.
    static func page(_ state: State, width: Int) -> Page {
        let width = max(40, width)
        let rule = Terminal.dim(String(repeating: "─", count: min(width - 1, 72)))
        let count = SelfScreen.items.count
        let title = [
            Terminal.bold("Self-screen") + "  "
                + Terminal.dim(state.done ? "CUDIT-R · private" : "question \(state.index + 1) of \(count) · private"),
            rule,
        ]
        var body: [String] = []
        var keys: [String]
        if state.done {
            for line in SelfScreenFlow.said(state.screens, meaning: state.meaning) {
                body += Terminal.wrap(line, width: width - 1)
            }
            keys = [
                rule,
                "  " + (state.meaning ? "" : Terminal.bold("w") + " What\u{A0}does\u{A0}the\u{A0}number\u{A0}mean?  ")
                    + Terminal.bold("q") + " Done",
            ]
        } else {
            let item = SelfScreen.items[state.index]
            if state.index == 0 { body += Terminal.wrap(SelfScreen.preface, width: width - 1).map(Terminal.dim) }
            body += Terminal.wrap(item.question, width: width - 1).map(Terminal.bold)
            for (number, answer) in item.answers.enumerated() {
                body.append("  " + Terminal.bold(String(number + 1)) + "  " + answer.text)
            }
            keys = [
                rule,
                "  " + Terminal.bold("1–\(item.answers.count)") + " Answer  "
                    + (state.index > 0 ? Terminal.bold("b") + " Back  " : "") + Terminal.bold("q")
                    + " Leave\u{A0}(nothing\u{A0}kept)",
            ]
        }
        return Page(
            title: title, body: body, focus: body.isEmpty ? nil : 0..<body.count,
            keys: keys + (state.note.map { ["", Terminal.accent($0)] } ?? []))
    }

    /// Asks the eight questions, keeps the screen after the last, shows the result until `q`;
    /// returns the note for where it was opened from (its score, or that nothing was kept).
    func run() -> String {
        var state = State()
        while true {
            let key = screen.ask(Self.page(state, width: Terminal.columns))
            if screen.closed || key == .inputEnded || key.isQuit { break }
            if state.done {
                if key.letter == "w" { state.meaning = true } else { break }
                continue
            }
            if key.letter == "b", !state.answers.isEmpty {
                state.answers.removeLast()
                continue
            }
            let answers = SelfScreen.items[state.index].answers
            guard let digit = key.digit, (1...answers.count).contains(digit) else { continue }
            state.answers.append(answers[digit - 1].score)
            if state.answers.count == SelfScreen.items.count {
                do {
                    state.screens = try SelfScreenFlow.take(state.answers, in: session.library, now: session.now())
                } catch {
                    state.answers.removeLast()
                    state.note = OffScreen.note(failed: error)
                }
            }
        }
        guard let last = state.screens.last else { return "Self-screen: nothing was kept." }
        return "Self-screen kept ✓ " + SelfScreenWords.score(last)
    }
}
