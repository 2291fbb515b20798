import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

/// The days of a period with neither a use nor an answer, newest first, one key each: `n` no
/// use, `u` the use form for that day, `d` not remembered (kept as its own answer, so it is not
/// asked again), `s` skips it for now; `q` leaves at any time, with every answer given kept.
/// What `cravey today --backfill` and home's `b` both run.
struct BackfillScreen {
    /// What the screen shows: the days asked about, where it is, and what was kept.
    struct State {
        var days: [LocalDay]
        var index = 0
        var answered = 0
        var usesLogged = 0
        var skipped = 0
        /// The last thing kept, or the one line of what went wrong.
        var note: String?

        var current: LocalDay? { index < days.count ? days[index] : nil }

        /// What leaving says: what was kept ("2 days answered, 1 use logged"), or that nothing was.
        var summary: String {
            var parts: [String] = []
            if answered > 0 { parts.append(answered == 1 ? "1 day answered" : "\(answered) days answered") }
            if usesLogged > 0 { parts.append(usesLogged == 1 ? "1 use logged" : "\(usesLogged) uses logged") }
            guard !parts.isEmpty else { return "Back-fill: nothing changed." }
            let left = days.count - index + skipped
            return "Back-fill: " + parts.joined(separator: ", ")
                + (left > 0 ? " — \(left == 1 ? "1 day" : "\(left) days") still to answer." : " ✓")
        }
    }

    let session: Session
    let screen: FullScreen

    /// The screen as a page: the title and how far it is, the day asked about, the keys, the note.
    static func page(_ state: State, width: Int) -> Page {
        let rule = Terminal.dim(String(repeating: "─", count: min(max(40, width - 1), 72)))
        let title = [
            Terminal.bold("Back-fill days") + "  "
                + Terminal.dim(
                    state.current == nil
                        ? "every day asked about is answered"
                        : "day \(state.index + 1) of \(state.days.count), newest first"),
            rule,
        ]
        var body: [String] = []
        if let day = state.current {
            let weekday = LocalDay.weekdayNames[day.weekday]
            body.append(Terminal.bold("\(weekday), \(day.short), \(day.civil.year)"))
            body.append("Did you use cannabis that day?")
        }
        let keys = [
            rule,
            [
                Terminal.bold("n") + " No\u{A0}use", Terminal.bold("u") + " I\u{A0}used",
                Terminal.bold("d") + " Don't\u{A0}remember", Terminal.bold("s") + " Skip",
                Terminal.bold("q") + " Leave",
            ].map { "  " + $0 }.joined(separator: " "),
        ]
        return Page(
            title: title, body: body, focusLine: body.isEmpty ? nil : 0,
            keys: keys + (state.note.map { ["", Terminal.accent($0)] } ?? []))
    }

    /// Asks about each day until every one is answered or skipped, or `q`; returns the summary.
    func run(_ days: [LocalDay]) -> String {
        var state = State(days: days)
        while state.current != nil {
            let key = screen.ask(Self.page(state, width: Terminal.columns))
            if key.letter == "q" || key == .escape || key == .inputEnded { break }
            guard let day = state.current else { break }
            switch key.letter {
            case "n": answer(day, .noUse, &state)
            case "d": answer(day, .unknown, &state)
            case "s":
                state.skipped += 1
                state.index += 1
                state.note = nil
            case "u":
                var logged: Usage?
                let note = OffScreen.run(on: screen) {
                    logged = try DayMarkFlow.use(on: day, in: session)
                    return logged.map { Home.saved(.use($0)) } ?? "Nothing was logged."
                }
                state.note = note
                if logged != nil {
                    state.usesLogged += 1
                    state.index += 1
                }
            default: continue
            }
        }
        return state.summary
    }

    /// Home's `n` (today: no use) and `b` (the back-fill of the last 30 days): the note home shows.
    func fromHome(backfill: Bool) -> String? {
        let today = LocalDay(session.now(), in: .current)
        do {
            let tracker = Tracker(library: session.library)
            if !backfill, try tracker.kind(of: today, now: session.now()) == .used {
                return "A use is logged today, so today is known already: nothing to mark."
            }
            guard backfill else {
                return DayMarkFlow.said(
                    try DayMarkFlow.mark(today, .noUse, in: session.library, now: session.now()), now: session.now())
            }
            let days = try tracker.unreportedDays(
                from: today - 29, to: today, now: session.now())
            guard !days.isEmpty else { return "Nothing to back-fill: no day of the last 30 is waiting for an answer." }
            return run(days)
        } catch {
            return OffScreen.note(failed: error)
        }
    }

    /// Home's keys for days: `n` (with ✓ once today is confirmed) and `b`, each held to its words.
    static func homeKeys(_ progress: ProgressFigures) -> String {
        let confirmed = progress.known.confirmedDays.last == progress.today
        return Terminal.bold("n") + (confirmed ? " ✓\u{A0}No\u{A0}use\u{A0}today   " : " No\u{A0}use\u{A0}today   ")
            + Terminal.bold("b") + " Back-fill   "
    }

    /// Keeps an answer for `day` and goes on to the next; a refusal stays on the day, said once.
    private func answer(_ day: LocalDay, _ answer: DayAnswer, _ state: inout State) {
        do {
            let marked = try DayMarkFlow.mark(day, answer, in: session.library, now: session.now())
            state.note = [DayMarkFlow.said(marked, now: session.now()), DayMarkFlow.note(marked, now: session.now())]
                .compactMap { $0 }.joined(separator: "  ")
            state.answered += 1
            state.index += 1
        } catch {
            state.note = OffScreen.note(failed: error)
        }
    }
}
