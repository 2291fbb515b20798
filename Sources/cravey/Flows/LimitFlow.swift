import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

/// Limits that ask and never block: what `cravey limit` and the limits screen both run — each
/// change read from what is typed (refused in one line before anything changes), kept, and said
/// in the same words — and the break window's question before a use, in the same words on home's
/// screen, on the normal screen of `cravey use`, and (as one line) on standard error in a script.
enum LimitFlow {
    /// What the person chose at the break window's question.
    enum BreakAnswer: Equatable { case ride, message, goOn, back }

    /// The question, kind and asked once: "This is one of your break hours (21:00–23:00). Ride
    /// it out first? It's your choice — the use is logged if you go on."
    static func question(_ window: BreakWindow) -> String {
        "This is one of your break hours (\(window.text)). Ride it out first? It's your choice — the use is logged if you go on."
    }

    /// The question's keys: the ride and a message one key away, Enter goes on to the use form.
    static let questionKeys = [
        ("o", "ride it out"), ("p", "play a message"), ("Enter", "log the use"), ("Esc", "back"),
    ]

    /// The keys as one line, each key `styled` and its words held to it where the line wraps.
    static func keysLine(_ styled: (String) -> String = { $0 }) -> String {
        questionKeys.map { styled($0.0) + "\u{A0}" + $0.1.replacingOccurrences(of: " ", with: "\u{A0}") }
            .joined(separator: "   ")
    }

    /// What a key answers (nil: not an answer; the question waits).
    static func answer(_ key: Key) -> BreakAnswer? {
        if key.letter == "o" { return .ride }
        if key.letter == "p" { return .message }
        if key == .enter || key.letter == "u" { return .goOn }
        if key == .escape || key == .inputEnded || key.letter == "q" { return .back }
        return nil
    }

    /// The line a script's use says on standard error when it fell in a break window (once).
    static func scriptedLine(_ window: BreakWindow) -> String {
        "This use was in your break window \(window.text); it is logged all the same."
    }

    /// The break window that holds `date` (nil: none, limits not offered, or the library
    /// cannot be read now — a use is never held up by it).
    static func window(at date: Date, in lib: Library) -> BreakWindow? {
        (try? Tracker(library: lib).breakWindow(at: date)) ?? nil
    }

    /// On the normal screen of `cravey use`: asks the question when `now` is in a break window
    /// (nil: not in one, or no terminal to ask on).
    static func askOnTerminal(in lib: Library, now: Date) -> BreakAnswer? {
        guard Terminal.stdinIsTerminal, let window = Self.window(at: now, in: lib) else { return nil }
        return Prompt.choice(
            question(window) + "\n  " + keysLine().replacingOccurrences(of: "\u{A0}", with: " ") + "\n",
            echoing: false, key: answer, line: { $0.isEmpty ? .goOn : nil }, ended: .back)
    }

    // MARK: - Changes

    /// Adds the window typed ("21:00-23:00"); its note.
    static func addBreak(_ text: String, in lib: Library, now: Date) throws -> String {
        let window = try BreakWindow(parsing: text)
        guard try Tracker(library: lib).addBreak(window, now: now) else {
            return "The break window \(window.text) is set already."
        }
        return "Break window \(window.text) ✓ — a use logged in it asks first, once, and is never refused."
    }

    /// Removes window `number`; its note.
    static func removeBreak(_ number: Int, in lib: Library) throws -> String {
        let window = try Tracker(library: lib).removeBreak(number)
        return "Removed the break window \(window.text)."
    }

    /// The weekly target typed: a number of days ("3"), or amounts ("vape=20", several).
    static func target(days: String?, amounts: [String]) throws -> WeeklyTarget {
        if let days {
            guard amounts.isEmpty else {
                throw TrackerError.invalid(field: "week", reason: "give days of use or --amount, not both")
            }
            return .days(try LogInput.wholeNumber(days, field: "days", in: 0...6))
        }
        guard !amounts.isEmpty else {
            throw TrackerError.invalid(
                field: "week", reason: "give the days of use a week (0–6) or --amount METHOD=N (vape=20)")
        }
        var most: [Method: Double] = [:]
        for typed in amounts.flatMap({ $0.split(whereSeparator: { $0 == "," || $0 == " " }) }) {
            let (method, amount) = try WeeklyTarget.amount(parsing: String(typed))
            most[method] = amount
        }
        return .amounts(most)
    }

    /// Sets the weekly target; its note.
    static func setTarget(_ target: WeeklyTarget, in lib: Library, now: Date) throws -> String {
        try Tracker(library: lib).setWeeklyTarget(target, now: now)
        return "Weekly target: \(target.text) ✓ — progress shows your weeks as a trend."
    }

    /// Sets the planned use; its note.
    static func setPlanned(_ planned: PlannedUse, in lib: Library, now: Date) throws -> String {
        try Tracker(library: lib).setPlannedUse(planned, now: now)
        return "Planned use: \(planned.text) ✓"
    }

    /// Clears `part`; its note.
    static func clear(_ part: LimitPart, in lib: Library) throws -> String {
        let removed = try Tracker(library: lib).clearLimits(part)
        if removed == 0 { return "There was nothing to clear." }
        switch part {
        case .all: return "Limits cleared: no break windows, no weekly target, no planned use."
        case .breaks: return "Break windows cleared."
        case .week: return "Weekly target cleared."
        case .plan: return "Planned use cleared."
        }
    }

    /// The limits as lines: the windows numbered, the target, the planned use (or how to set each).
    static func lines(_ limits: Limits) -> [String] {
        var out: [String] = []
        if limits.breaks.isEmpty {
            out.append("Break windows: none — 'cravey limit break add 21:00-23:00' sets one.")
        } else {
            out.append("Break windows (a use in one asks first, once; it is never refused):")
            for (index, window) in limits.breaks.enumerated() {
                out.append("  \(index + 1)  \(window.text)" + (window.crossesMidnight ? " (across midnight)" : ""))
            }
        }
        out.append(
            "Weekly target: "
                + (limits.week?.text
                    ?? "none — 'cravey limit week 3' (days of use) or 'cravey limit week --amount vape=20'."))
        out.append(
            "Planned use: "
                + (limits.planned?.text
                    ?? "none — 'cravey limit plan --methods vape --per-day 3 --hours 18-23'."))
        return out
    }
}

extension LimitFlow {
    /// `cravey use` on a terminal, in a break window: the question, and what the person chose
    /// run on the spot — the ride, or the first of Quick Play's messages — with its words; nil
    /// when the use goes on to its form (not in a window, or the person went on).
    static func answeredOnTerminal(in session: Session) -> String? {
        switch askOnTerminal(in: session.library, now: session.now()) {
        case nil, .goOn?: return nil
        case .back?: return "Nothing was logged."
        case .ride?:
            do {
                guard
                    let ridden = try RideFlow.interactively(
                        Tracker.CravingDraft(time: LogTime(session.now())), asking: true, minutes: 15, in: session)
                else { return "Nothing was logged." }
                return
                    (RideScreen.closing(ridden.ratings, rideSeconds: ridden.seconds, in: session.library)
                    + [notLogged]).joined(separator: "  ")
            } catch {
                return OffScreen.note(failed: error) ?? notLogged
            }
        case .message?:
            do {
                let played = try PlayFlow.play(top: 1, in: session)
                return "Played '\(played.recording.shownTitle)' ✓  " + notLogged
            } catch {
                return OffScreen.note(failed: error) ?? notLogged
            }
        }
    }

    /// What follows the ride or a message: the use was not logged, and how to log it.
    static let notLogged = "The use was not logged; 'cravey use' (home's u) logs it whenever you want."

    /// A use logged without asking (a script, no terminal) in a break window says so once on
    /// standard error.
    static func noteIfInBreak(_ use: Usage, in lib: Library) {
        if let window = Self.window(at: use.time.instant, in: lib) {
            FileHandle.standardError.show(Data((scriptedLine(window) + "\n").utf8))
        }
    }
}
