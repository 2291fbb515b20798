import CraveyLibrary
import CraveyMessages
import CraveyTracker
import Foundation
import TerminalKit

/// The hub: each action runs the same flow as its command (on the normal screen) and comes back
/// home with a one-line note of what happened.
struct Home {
    let session: Session
    let screen: FullScreen

    enum Action: Equatable {
        case craving, use, ride, play(Int), record(Recording.Kind), recordings, progress, checkIn, settings, plans, quit
        case noUseToday, backfill, withdrawal, limits
    }

    /// The action a key asks for (`r` asks for a second key: audio or video).
    static func action(for key: Key, top: Int) -> Action? {
        if let digit = key.digit, (1...3).contains(digit), digit <= top { return .play(digit) }
        switch key.letter {
        case "c": return .craving
        case "u": return .use
        case "o": return .ride
        case "m": return .recordings
        case "p": return .progress
        case "k": return .checkIn
        case "s": return .settings
        case "n": return .noUseToday
        case "b": return .backfill
        case "i": return .plans
        case "w": return .withdrawal
        case "l": return .limits
        case "q": return .quit
        default: return key == .escape || key == .inputEnded ? .quit : nil
        }
    }

    func run() throws {
        let lib = session.library
        var toast: String?
        var goalAsked = false
        var asking = false  // the goal question is the note shown
        var suggestion: PlanSuggestion?  // where a plan would help is the note shown (once a visit)
        var suggested = false
        var screenReminded = false  // the self-screen's reminder is the note shown (once a visit)
        var backupNoted = false  // the old backup's note was shown, or a craving was logged or ridden (not this visit)
        var scroll = PageScroll()
        while true {
            if try lib.setting(.welcomed) == nil {
                var toured = false
                guard try FirstRun.run(screen, session: session, note: toast, toured: &toured) else { return }
                toast = toured ? SelfScreenFlow.offer(lib) : nil
            }
            let top = try Tracker(library: lib).quickPlay(3, now: session.now())
            if toast == nil { toast = Self.newMilestone(lib, now: session.now()) }
            if toast == nil, !screenReminded, let note = SelfScreenFlow.reminder(lib, now: session.now()) {
                (toast, screenReminded) = (note, true)
            }
            if toast == nil, !goalAsked, (try? Self.asksForGoal(lib, now: session.now())) == true {
                (toast, goalAsked, asking) = (Self.goalQuestion, true, true)
            }
            if toast == nil, !suggested, let spot = PlanScreen.suggestion(lib, now: session.now()) {
                (toast, suggested, suggestion) = (spot.note, true, spot)
            }
            if toast == nil, !backupNoted,
                let note = BackupFlow.homeNote(lib, now: session.now(), environment: session.configuration.environment)
            {
                (toast, backupNoted) = (note, true)
            }
            let shown = try Self.page(lib, top: top, toast: toast, now: session.now())
            let key = screen.ask(scroll.apply(to: shown))
            if scroll.move(key, over: shown) { continue }  // the note, and the question, stay
            if toast == SelfScreenWords.reminder, key.letter == "x" {
                toast = SelfScreenFlow.dismiss(lib, now: session.now())
                continue
            }
            toast = nil
            if asking {
                asking = false
                if let answer = try answerGoalQuestion(key, lib: lib) {
                    toast = answer
                    continue
                }
            }
            if let spot = suggestion {
                suggestion = nil
                if let answer = try PlanScreen(session: session, screen: screen).answer(key, to: spot) {
                    toast = answer
                    continue
                }
            }
            var action = Self.action(for: key, top: top.count)
            if key.letter == "r" {
                let kind = screen.ask(
                    try Self.page(
                        lib, top: top, toast: Terminal.bold("Record:") + "  a audio   v video   Esc cancel",
                        now: session.now()))
                action = kind.letter == "a" ? .record(.audio) : kind.letter == "v" ? .record(.video) : nil
            }
            guard let action else { continue }
            if action == .craving || action == .ride { backupNoted = true }
            if action == .quit { return }
            toast = try perform(action, lib: lib, top: top)
        }
    }

    /// What home asks, once a visit, when the tour was skipped and no goal was chosen since (each
    /// key held to its words where the note wraps).
    static let goalQuestion =
        "Would you like to choose a goal? It shapes the words progress speaks in.  g\u{A0}choose   "
        + "x\u{A0}don't\u{A0}ask\u{A0}again"

    /// Whether home asks for a goal: none is chosen, the person has not said not to ask, and the
    /// first run was on an earlier day (never on the day the tour was skipped).
    static func asksForGoal(_ lib: Library, now: Date) throws -> Bool {
        guard try lib.setting(.goal) == nil, try lib.setting(.goalAsked) == nil,
            let welcomed = try lib.setting(.welcomed).flatMap(StoredDate.date)
        else { return false }
        return LocalDay(now, in: .current) > LocalDay(welcomed, in: .current)
    }

    /// `g` chooses a goal, `x` puts the question away for good (kept in settings); nil for any
    /// other key (home takes it as always).
    func answerGoalQuestion(_ key: Key, lib: Library) throws -> String? {
        switch key.letter {
        case "g":
            let help = HelpNow(screen: screen, session: session)
            guard
                case let .chosen(goal) = try FirstRun.chooseGoal(
                    screen, title: "What brings you here today?", current: nil, help: help)
            else { return "No goal for now — s, then g chooses one any time." }
            try lib.setSetting(.goal, to: goal.rawValue)
            return "Goal: \(goal.label) ✓"
        case "x":
            try lib.setSetting(.goalAsked, to: StoredDate.text(session.now()))
            return "I won't ask again. A goal can be chosen any time in settings: s, then g."
        default: return nil
        }
    }

    /// Runs an action on the normal screen, as its command would, and returns its note for the
    /// home screen: what happened, or the one line of what went wrong.
    func perform(_ action: Action, lib: Library, top: [Recording]) throws -> String? {
        switch action {
        case .settings:
            return try SettingsScreen(session: session, screen: screen).run()
        case .plans:
            return try PlanScreen(session: session, screen: screen).run()
        case .recordings:
            try RecordingsScreen(session: session, screen: screen).run()
            return nil
        case .quit:
            return nil
        case .craving:
            return suspended {
                try CravingFlow.interactively(in: session).map {
                    [Self.saved(.craving($0.craving))] + ($0.rode ?? [])
                }?.joined(separator: "  ") ?? "Nothing was logged."
            }
        case .ride:
            return ride()
        case .use:
            if let asked = LimitScreen(session: session, screen: screen).askAtBreak(top: top) { return asked }
            return suspended {
                try UseFlow.interactively(in: session).map {
                    [Self.saved(.use($0)), DayMarkFlow.withdrawn(by: $0, in: lib, now: session.now())].compactMap { $0 }
                        .joined(
                            separator: "  ")
                } ?? "Nothing was logged."
            }
        case let .record(kind):
            return suspended { try RecordFlow.fromScreen(kind, in: session) }
        case .progress:
            return suspended {
                try ProgressFlow.show(in: session)
                return nil
            }
        case let .play(rank):
            return suspended {
                let played = try PlayFlow.play(top: rank, in: session)
                return (played.wordsShown ? "Read the words of" : "Played") + " '\(played.recording.shownTitle)' ✓"
            }
        case .withdrawal:
            return WithdrawalScreen.fromHome(session: session, screen: screen)
        case .limits:
            return LimitScreen.fromHome(session: session, screen: screen)
        case .noUseToday, .backfill:
            return BackfillScreen(session: session, screen: screen).fromHome(backfill: action == .backfill)
        case .checkIn:
            return suspended {
                switch try CheckInFlow.run(in: session) {
                case .saved: return "Check-in saved ✓"
                case .postponed: return "Later, then. No reminder today."
                case .already, .notSaved: return nil
                }
            }
        }
    }

    /// `o`: ride a craving out on home's own screen — how strong it is, then the ride; its note is
    /// the ride's closing words.
    func ride() -> String? {
        guard let intensity = RideScreen.askIntensity(on: screen) else { return "Nothing was logged." }
        do {
            let ridden = try RideFlow.ride(
                Tracker.CravingDraft(intensity: intensity, time: LogTime(session.now())), in: session, on: screen)
            let closing = RideScreen.closing(ridden.ratings, rideSeconds: ridden.seconds, in: session.library)
            return ((ridden.notLogged.map { ["\($0)"] } ?? []) + closing).joined(separator: "  ")
        } catch {
            return OffScreen.note(failed: error)
        }
    }

    /// What a log saved from home says: what was kept, and the note a log older than 7 days has.
    static func saved(_ entry: LogEntry) -> String {
        let now = LocalClock.now()
        return [LogWords.saved(entry, now: now), LogWords.note(entry.time, now: now)].compactMap { $0 }
            .joined(separator: "  ")
    }

    /// Runs `body` on the normal screen; its note, or its failure in one line.
    func suspended(_ body: () throws -> String?) -> String? { OffScreen.run(on: screen, body) }

    static func lines(_ lib: Library, top: [Recording], toast: String?, now: Date) throws -> [String] {
        try page(lib, top: top, toast: toast, now: now).all
    }

    /// Home as a page: the title (name, day, streak, the first weeks' line) and the three actions
    /// for a hard moment at the top, the keys and the note at the bottom (the note wrapped, never
    /// cut), Quick Play between (↑/↓ scroll it in a small window). Where title, keys and note leave
    /// no room, the first weeks' line goes down into Quick Play and the rules are left out, so
    /// `c`, `u` and `o` stay in view down to the smallest window.
    static func page(_ lib: Library, top: [Recording], toast: String?, now: Date) throws -> Page {
        let width = max(40, Terminal.columns - 1)
        let rule = Terminal.dim(String(repeating: "─", count: min(width, 72)))
        let name = try lib.setting(.name)
        let progress = try Tracker(library: lib).progress(.week, now: now)
        var status: [String] = []
        if let days = progress.daysInProgress { status.append("Day\u{A0}\(days)") }
        if let streak = progress.currentStreak, streak > 0, progress.everUsed {
            status.append(
                ((progress.aimsToReduce ? "🔥 " : "") + "\(ProgressFigures.days(streak)) without use")
                    .replacingOccurrences(of: " ", with: "\u{A0}"))
        }
        let withdrawal = withdrawalLines(progress, width: min(width, 72))
        let title =
            [
                Terminal.bold("cravey") + (name.map { "  " + Terminal.dim("Hi \(Terminal.safe($0))") } ?? "")
                    + (status.isEmpty ? "" : "   " + status.joined(separator: " · "))
            ] + withdrawal + [
                rule,
                "  " + Terminal.bold("c") + "  🧠 " + Terminal.bold("LOG CRAVING"),
                "  " + Terminal.bold("u") + "  💨 " + Terminal.bold("LOG USAGE"),
                "  " + Terminal.bold("o") + "  🌊 " + Terminal.bold("RIDE IT OUT"), rule,
            ]
        var body: [String] = []
        if top.isEmpty {
            body += ["  💡 Tip: Record motivational content to play during cravings  →  " + Terminal.bold("r")]
        } else {
            body.append("Quick Play:")
            for (index, recording) in top.enumerated() {
                body.append(
                    "  " + Terminal.bold(String(index + 1)) + "  " + Format.icon(recording.kind) + " "
                        + Terminal.safe(recording.shownTitle)
                        + "  "
                        + Terminal.dim(Format.duration(recording.duration) + " · " + Format.plays(recording.playCount)))
            }
            body.append("  " + Terminal.bold("r") + "  + RECORD NEW")
        }
        let today = try lib.checkInDay(CheckIn.day(of: now))
        let keys =
            [
                rule,
                "  " + Terminal.bold("m") + " 🎙️ Recordings   " + Terminal.bold("p") + " 📊 Progress   "
                    + Terminal.bold("k") + " ☀️ Check-in "
                    + (today.entry != nil ? "✓ done today" : today.postponed ? "(later today)" : "(not yet today)")
                    .replacingOccurrences(of: " ", with: "\u{A0}"),
                "  " + BackfillScreen.homeKeys(progress) + Terminal.bold("i") + " 📝 Plans",
                "  " + Terminal.bold("s") + " ⚙️ Settings   " + LimitScreen.homeKey(progress, lib) + Terminal.bold("q")
                    + " Quit",
            ] + (WithdrawalScreen.homeKey(progress, lib).map { [$0] } ?? [])
        var page = Page(
            title: title, body: body, focus: nil, keys: keys + (toast.map { ["", Terminal.accent($0)] } ?? []))
        page.aside = 1..<(1 + withdrawal.count)  // in a small window, the calm line scrolls with Quick Play
        return page
    }

    /// The first two weeks' calm line under the title, while it applies (see `ProgressFigures.withdrawal`).
    static func withdrawalLines(_ progress: ProgressFigures, width: Int) -> [String] {
        progress.withdrawal.map { Terminal.wrap($0, width: width).map(Terminal.dim) } ?? []
    }

    /// A milestone reached since home last showed one ("🌱 30 days in progress"), shown once; the
    /// milestones are noted here first. A milestone that cannot be noted now (a busy or read-only
    /// library) is noted on a later visit: home goes on without it.
    static func newMilestone(_ lib: Library, now: Date) -> String? {
        (try? Tracker(library: lib).showNextMilestone(now: now))?.map { $0.note(today: LocalDay(now, in: .current)) }
    }
}

/// The keys for a hard moment, the same on every screen but a form or the ride: `o` rides a
/// craving out and `1`–`3` play one of Quick Play's messages (before home, `c` logs a craving
/// too), each running home's own flow and giving home's note of what happened.
struct HelpNow {
    let screen: FullScreen
    let session: Session

    /// What `key` did: the note of what happened, how to record a message when there is none yet
    /// to play; nil when it is not one of these keys (`logs`: `c` is one).
    func callAsFunction(_ key: Key, logs: Bool = false) throws -> String? {
        let top = try Tracker(library: session.library).quickPlay(3, now: session.now())
        if let digit = key.digit, (1...3).contains(digit), top.isEmpty { return FirstRun.noMessages }
        guard let action = Home.action(for: key, top: top.count) else { return nil }
        switch action {
        case .ride, .play: break
        case .craving where logs: break
        default: return nil
        }
        return try Home(session: session, screen: screen).perform(action, lib: session.library, top: top)
    }

    /// The line that shows these keys (`logs`: with `c`; `quit`: with `q`, where it leaves).
    /// Each key and its words are held together where the line wraps.
    static func line(logs: Bool = true, quit: Bool = false) -> String {
        "  " + Terminal.dim("In a craving now?") + (logs ? "  " + Terminal.bold("c") + "\u{A0}Log\u{A0}craving" : "")
            + "  " + Terminal.bold("o") + "\u{A0}Ride\u{A0}it\u{A0}out  " + Terminal.bold("1–3")
            + "\u{A0}Play\u{A0}a\u{A0}message" + (quit ? "  " + Terminal.bold("q") + "\u{A0}Quit" : "")
    }
}
