import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

/// The withdrawal check on the screen: the six symptoms one after another, one key each (`0`–`9`,
/// `t` for 10), `Backspace` back to the one before, `q` leaves with nothing kept. The sixth key
/// keeps the check. What `cravey withdrawal --ask` and home's `w` both run.
struct WithdrawalScreen {
    /// What the screen shows: the scores given so far, and the one line of what went wrong.
    struct State: Equatable {
        var day: Int?
        var scores: [Int] = []
        var note: String?

        var current: Symptom? {
            scores.count < Symptom.allCases.count ? Symptom.allCases[scores.count] : nil
        }

        /// Takes a key: a score for the current symptom, or a step back; false for other keys.
        mutating func take(_ key: Key) -> Bool {
            if key == .backspace || key == .left {
                if !scores.isEmpty { scores.removeLast() }
                return true
            }
            if let digit = key.digit, current != nil {
                scores.append(digit)
                return true
            }
            if key.letter == "t", current != nil {
                scores.append(10)
                return true
            }
            return false
        }
    }

    let session: Session
    let screen: FullScreen

    /// The screen as a page: the title and how far it is, the scores so far, the symptom asked
    /// about, the keys, the note.
    static func page(_ state: State, width: Int) -> Page {
        let rule = Terminal.dim(String(repeating: "─", count: min(max(40, width - 1), 72)))
        let step = min(state.scores.count + 1, Symptom.allCases.count)
        let title = [
            Terminal.bold("Withdrawal check") + (state.day.map { "  " + Terminal.dim("day \($0)") } ?? "")
                + "  " + Terminal.dim("\(step) of \(Symptom.allCases.count)"),
            rule,
        ]
        var body: [String] = []
        if let symptom = state.current {
            body.append(Terminal.bold(symptom.name) + " today, from 0 (none) to 10 (the most)?")
        }
        let given = zip(Symptom.allCases, state.scores).map { "\($0.name) \($1)" }.joined(separator: " · ")
        if !given.isEmpty { body += Terminal.wrap(given, width: max(30, min(width, 72) - 2)).map(Terminal.dim) }
        let keys = [
            rule,
            [
                Terminal.bold("0") + "–" + Terminal.bold("9") + " score", Terminal.bold("t") + " 10",
                Terminal.bold("⌫") + " back", Terminal.bold("q") + " leave",
            ].map { "  " + $0 }.joined(separator: " "),
        ]
        return Page(
            title: title, body: body, focusLine: body.isEmpty ? nil : 0,
            keys: keys + (state.note.map { ["", Terminal.accent($0)] } ?? []))
    }

    /// Asks the six and keeps them; returns what was kept, or that nothing was.
    func run(anyGoal: Bool) -> String {
        let window = try? Tracker(library: session.library).withdrawalWindow(now: session.now())
        var state = State(day: window?.day)
        while state.current != nil {
            let key = screen.ask(Self.page(state, width: Terminal.columns))
            if key.letter == "q" || key == .escape || key == .inputEnded {
                return "Withdrawal check: nothing was kept."
            }
            _ = state.take(key)
        }
        do {
            return WithdrawalFlow.note(
                try WithdrawalFlow.keep(
                    WithdrawalScores(state.scores), anyGoal: anyGoal, in: session.library, now: session.now()))
        } catch {
            return OffScreen.note(failed: error) ?? "Withdrawal check: nothing was kept."
        }
    }

    /// Home's `w` while the window is open ("w 🌙 Withdrawal check (day 3 · not yet today)"),
    /// nil otherwise.
    static func homeKey(_ progress: ProgressFigures, _ lib: Library) -> String? {
        let anyGoal = (try? lib.setting(.withdrawalOffer)) == Tracker.anyGoalOffer
        guard progress.goal == .quit || anyGoal, let day = progress.daysSinceLastUse,
            WithdrawalWindow.days.contains(day)
        else { return nil }
        let today = progress.withdrawalChart?.checks.last?.windowDay == day
        return "  " + Terminal.bold("w") + " 🌙 Withdrawal check "
            + "(day \(day) · \(today ? "✓ done today" : "not yet today"))".replacingOccurrences(of: " ", with: "\u{A0}")
    }
}

extension WithdrawalScreen {
    /// Home's `w`: the check while the window is open for the goal to quit; else the one line
    /// of when it is there.
    static func fromHome(session: Session, screen: FullScreen) -> String? {
        do {
            let window = try Tracker(library: session.library).withdrawalWindow(now: session.now())
            guard window.isOpen else {
                return
                    "The withdrawal check is for days 1–14 after your last use, for the goal to quit ('cravey withdrawal' says more)."
            }
            return WithdrawalScreen(session: session, screen: screen).run(anyGoal: window.anyGoal)
        } catch {
            return OffScreen.note(failed: error)
        }
    }
}
