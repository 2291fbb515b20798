import ArgumentParser
import CraveyDesktop
import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

extension Cravey {
    /// `cravey today`: a day answered for — no use, or not remembered — so that it is known, not
    /// assumed; `--backfill` walks the days not reported yet.
    struct TodayCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "today",
            abstract: "Say a day had no use (or that you don't remember it), or back-fill the days not reported yet.",
            discussion: """
                'cravey today --none' marks today a day without use; --date marks another day (YYYY-MM-DD, \
                or yesterday). A use is logged with 'cravey use'; a use logged on a day marked without use \
                withdraws the mark. 'cravey today' alone says what is known of the day. --backfill opens a \
                screen that asks about each day not reported yet, newest first (without a terminal, it lists \
                them). 'cravey today remind on' asks every evening, in a notification, whether today had \
                no use.
                """,
            subcommands: [Remind.self])

        @OptionGroup var library: LibraryOptions

        @Flag(help: "No use on the day.")
        var none = false

        @Flag(help: "You don't remember the day (kept as its own answer: back-fill does not ask again).")
        var dontRemember = false

        @Option(help: ArgumentHelp("The day: YYYY-MM-DD, today or yesterday (default: today).", valueName: "day"))
        var date: String?

        @Flag(help: "Ask about each day not reported yet, newest first.")
        var backfill = false

        @Option(help: ArgumentHelp("Back-fill from this day (default: 29 days before --to).", valueName: "day"))
        var from: String?

        @Option(help: ArgumentHelp("Back-fill to this day (default: today).", valueName: "day"))
        var to: String?

        @OptionGroup var output: OutputOptions

        func validate() throws {
            if none && dontRemember { throw ValidationError("give --none or --dont-remember, not both") }
            if backfill && (none || dontRemember || date != nil) {
                throw ValidationError(
                    "--backfill asks about each day itself; give it without --none, --dont-remember or --date")
            }
            if !backfill && (from != nil || to != nil) { throw ValidationError("--from and --to are for --backfill") }
        }

        /// The day typed as `flag`: YYYY-MM-DD, today or yesterday.
        static func day(_ text: String, as flag: String, today: LocalDay) throws -> LocalDay {
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "today": return today
            case "yesterday": return today - 1
            default: return try LocalDay.parse(text, field: flag)
            }
        }

        /// What is typed is read before the library is opened: a refused answer makes nothing.
        func run() throws {
            let now = LocalClock.now()
            let today = LocalDay(now, in: .current)
            if backfill { return try runBackfill(today: today, now: now) }
            let day = try date.map { try Self.day($0, as: "--date", today: today) } ?? today
            if day > today {
                throw TrackerError.invalid(
                    field: "date", reason: "\(day.text) has not come yet; a day can be answered for once it has")
            }
            guard none || dontRemember else { return try show(day, now: now) }
            let answer: DayAnswer = none ? .noUse : .unknown
            // Today can start a library; another day needs one that tracked it.
            if day == today {
                try library.logging { lib in try mark(day, answer, in: lib, now: now) }
            } else {
                try mark(day, answer, in: try library.openExisting(), now: now)
            }
        }

        private func mark(_ day: LocalDay, _ answer: DayAnswer, in lib: Library, now: Date) throws {
            let marked = try DayMarkFlow.mark(day, answer, in: lib, now: now)
            if output.json {
                try JSONOutput.print(
                    Answer(
                        day: marked.day, kind: try Tracker(library: lib).kind(of: day, now: now),
                        answer: marked.answer, before: marked.before))
            } else {
                print(DayMarkFlow.said(marked, now: now))
            }
            if let note = DayMarkFlow.note(marked, now: now) {
                FileHandle.standardError.show(Data((note + "\n").utf8))
            }
        }

        /// What is known of `day`, and how to answer for it when nothing is.
        private func show(_ day: LocalDay, now: Date) throws {
            let today = LocalDay(now, in: .current)
            let kind =
                try library.existing().map { try Tracker(library: $0).kind(of: day, now: now) }
                ?? (day == today ? .notReported : .beforeTracking)
            if output.json {
                try JSONOutput.print(Answer(day: day, kind: kind))
                return
            }
            let name = day == today ? "Today (\(day.short))" : "\(LocalDay.weekdayNames[day.weekday]), \(day.short)"
            let date = day == today ? "" : " --date \(day.text)"
            switch kind {
            case .used: print("\(name): a use is logged. 'cravey log' shows it.")
            case .noUse: print("\(name): no use ✓")
            case .dontRemember: print("\(name): not remembered — kept as its own answer.")
            case .notReported:
                print(
                    "\(name): not reported yet. 'cravey today --none\(date)' if there was no use; 'cravey use' if you used."
                )
            case .beforeTracking:
                print("\(name): before tracking began; there is nothing to answer for.")
            }
        }

        /// The back-fill screen on a terminal; without one (or with --json) the days it would ask about.
        private func runBackfill(today: LocalDay, now: Date) throws {
            let last = try to.map { try Self.day($0, as: "--to", today: today) } ?? today
            let first = try from.map { try Self.day($0, as: "--from", today: today) } ?? last - 29
            if last > today {
                throw TrackerError.invalid(
                    field: "period", reason: "its last day, \(last.text), is after today (\(today.text))")
            }
            if first > last {
                throw TrackerError.invalid(
                    field: "period", reason: "its first day, \(first.text), is after its last day, \(last.text)")
            }
            let lib = try library.existing()
            let days = try lib.map { try Tracker(library: $0).unreportedDays(from: first, to: last, now: now) } ?? []
            if output.json {
                try JSONOutput.print(Unreported(from: first, to: last, notReported: days))
                return
            }
            guard let lib, !days.isEmpty else {
                print("Nothing to back-fill: no day from \(first.short) to \(last.short) is waiting for an answer.")
                return
            }
            // The screen is given back before its summary is printed where it stays.
            let summary = { () -> String? in
                guard let screen = FullScreen() else { return nil }
                return BackfillScreen(session: library.session(lib), screen: screen).run(days)
            }()
            guard let summary else {
                print("Not reported yet, newest first ('cravey today --none --date DAY' answers one):")
                for day in days { print("  \(day.text)  \(LocalDay.weekdayNames[day.weekday])") }
                return
            }
            print(summary)
        }

        /// `today --json`: the day, what is known of it, and what was answered.
        struct Answer: Encodable {
            var day: LocalDay
            var kind: DayKind
            var answer: DayAnswer?
            var before: DayAnswer?

            private enum Key: String, CodingKey { case day, kind, answer, before }

            func encode(to encoder: Encoder) throws {
                var c = encoder.container(keyedBy: Key.self)
                try c.encode(day, forKey: .day)
                try c.encode(kind, forKey: .kind)
                try c.encode(answer, forKey: .answer)
                try c.encode(before, forKey: .before)
            }
        }

        /// `today --backfill --json`: the period and its days not reported yet, newest first.
        struct Unreported: Encodable {
            var from: LocalDay
            var to: LocalDay
            var notReported: [LocalDay]
        }
    }
}

extension Cravey.TodayCommand {
    /// `cravey today remind on|off|status`: the evening question, "Mark today?", in a notification.
    struct Remind: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remind",
            abstract: "An evening question (opt-in): \"Mark today?\" in a notification. on, off, status.",
            discussion: """
                A systemd user timer (cravey-today.timer) runs every day at the time you choose (21:00 unless \
                --at says another) and, on a day not marked yet and with no use logged, shows one notification: \
                "Mark today?", with "No use today" (a click on it too: it marks the day, as 'cravey today --none' \
                does) and "I used" (it opens the use form in a terminal window). The answer is waited for 10 \
                minutes at most; unanswered, the notification is withdrawn. --discreet words name nothing.
                """,
            subcommands: [On.self, Off.self, Status.self, Run.self], defaultSubcommand: Status.self)
    }
}

extension Cravey.TodayCommand.Remind {
    /// `cravey today remind on [--at HH:MM] [--discreet]`: writes and enables the timer.
    struct On: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "on",
            abstract: "Turn the evening question on: a systemd user timer, every day at a time (21:00 unless --at).",
            discussion: """
                Writes cravey-today.timer and cravey-today.service to ${XDG_CONFIG_HOME:-~/.config}/systemd/user \
                and enables the timer. Run it again to change the time or the words.
                """)

        @OptionGroup var library: LibraryOptions

        @Option(
            help: ArgumentHelp("The time of day, 24-hour, from 12:00 to 23:59 (default: 21:00).", valueName: "HH:MM"))
        var at: String?

        @Flag(help: "Words that name nothing: not cravey, not cannabis, not a use (others can see a screen).")
        var discreet = false

        func validate() throws {
            guard let at else { return }
            guard let time = Cravey.CheckInCommand.Remind.parse(at) else {
                throw ValidationError("'\(Terminal.safe(String(at.prefix(20))))' is not a time of day written as HH:MM")
            }
            if time.hour < DayReminderFlow.earliestHour {
                throw ValidationError(
                    "\(UserTimer.clock(time.hour, time.minute)) is before noon; the evening question asks about a day once most of it has gone: give a time from 12:00 to 23:59"
                )
            }
        }

        func run() throws {
            let time = at.flatMap(Cravey.CheckInCommand.Remind.parse) ?? DayReminderFlow.defaultTime
            let absolute = NudgeFlow.absolute(library.root)
            let units = UserTimer.dayMarkOfThisUser()
            let before = units.library.flatMap { $0 == absolute ? nil : $0 }
            try NudgeFlow.unitFailureSaid {
                try units.installDayMark(
                    hour: time.hour, minute: time.minute, executable: UserTimer.executablePath(), library: absolute,
                    discreet: discreet)
            }
            if let before {
                print(
                    "The evening question moves here from the other library it asked about (\(Terminal.safe(before))).")
            }
            let when =
                "every day at \(UserTimer.clock(time.hour, time.minute)), \"Mark today?\", only on a day not marked yet and with no use logged\(discreet ? ", in words that name nothing" : "")"
            print(units.activate().said("The evening question", when: when))
        }
    }

    /// `cravey today remind off`: the timer, gone.
    struct Off: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "off", abstract: "Turn the evening question off: its timer is removed.")

        func run() throws {
            let removed = try NudgeFlow.unitFailureSaid { try UserTimer.dayMarkOfThisUser().remove() }
            print(removed ? "The evening question is off; its timer is gone." : "The evening question was not on.")
        }
    }

    /// `cravey today remind status [--json]`: on or off, its time, and whether today is asked about.
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Whether the evening question is on, its time, and whether today is asked about.",
            discussion: "Reads without changing anything.")

        @OptionGroup var library: LibraryOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let now = LocalClock.now()
            let today = LocalDay(now, in: .current)
            let units = UserTimer.dayMarkOfThisUser()
            let absolute = NudgeFlow.absolute(library.root)
            let elsewhere = units.isOn ? units.library.flatMap { $0 == absolute ? nil : $0 } : nil
            let kind = try library.existing().map { try Tracker(library: $0).kind(of: today, now: now) }
            let state = State(
                on: units.isOn && elsewhere == nil, elsewhere: elsewhere, discreet: units.isDiscreet,
                time: units.scheduled, today: kind, now: now)
            let lines = state.lines
            guard output.json else { return lines.forEach { print($0) } }
            try JSONOutput.print(
                Shape(
                    on: state.on, onForLibrary: elsewhere, discreet: state.discreet,
                    time: state.time.map { UserTimer.clock($0.hour, $0.minute) }, today: kind,
                    asksToday: state.asksToday, words: lines.joined(separator: " ")))
        }

        struct Shape: Encodable {
            let on: Bool
            /// The other library the question is on for, where it is not on for this one.
            let onForLibrary: String?
            let discreet: Bool
            let time: String?
            /// What is known of today (nil: there is no library here yet).
            let today: DayKind?
            /// Whether today's question is still to come.
            let asksToday: Bool
            let words: String
        }

        /// The question as it stands at `now`, read without changing anything.
        struct State {
            let on: Bool
            let elsewhere: String?
            let discreet: Bool
            let time: (hour: Int, minute: Int)?
            let today: DayKind?
            let now: Date

            /// Whether the time of today's question is still to come.
            var timeToCome: Bool {
                guard let time else { return false }
                let clock = Calendar.current.dateComponents([.hour, .minute], from: now)
                return (clock.hour ?? 0, clock.minute ?? 0) < (time.hour, time.minute)
            }

            var asksToday: Bool { on && today == .notReported && timeToCome }

            var lines: [String] {
                let clock = time.map { UserTimer.clock($0.hour, $0.minute) } ?? "its time"
                guard on else {
                    return [
                        elsewhere.map {
                            "The evening question is on for another library (\(Terminal.safe($0))), not this one; 'cravey today remind on' here moves it to this one."
                        }
                            ?? "The evening question is off; 'cravey today remind on' asks every evening, in a notification, whether today had no use."
                    ]
                }
                let first =
                    "The evening question is on\(discreet ? ", in words that name nothing" : ""): every day at \(clock), \"Mark today?\"."
                let second: String
                switch today {
                case .notReported?: second = "Today is not marked yet" + (timeToCome ? "; it asks at \(clock)." : ".")
                case .noUse?: second = "Today is marked: no use ✓. No question today."
                case .dontRemember?: second = "Today is marked: not remembered. No question today."
                case .used?: second = "A use is logged today, so today is known. No question today."
                case .beforeTracking?, nil: second = "Nothing is logged here yet; it asks once something is."
                }
                return [first, second]
            }
        }
    }

    /// `cravey today remind run`: what the timer runs (hidden).
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run", abstract: "Ask \"Mark today?\" when today is not marked yet (what the timer runs).",
            shouldDisplay: false)

        @OptionGroup var library: LibraryOptions
        @OptionGroup var wait: AnswerWait

        @Flag(help: "Words that name nothing.")
        var discreet = false

        var answerSeconds: Double { wait.answerSeconds }

        func run() throws {
            let now = LocalClock.now()
            let day = LocalDay(now, in: .current)
            let outcome: DayReminderFlow.Outcome
            do {
                outcome = try DayReminderFlow.ask(
                    day, root: library.root, discreet: discreet, environment: LibraryOptions.configuration.environment,
                    seconds: answerSeconds,
                    kind: { try library.existing().map { try Tracker(library: $0).kind(of: day, now: now) } },
                    mark: {
                        var marked: DayMarked?
                        try library.logging { lib in
                            marked = try DayMarkFlow.mark(day, .noUse, in: lib, now: LocalClock.now())
                        }
                        guard let kept = marked else { throw CraveyFailure(message: "the day was not marked") }
                        return kept
                    })
            } catch let failure as DesktopNotification.Failure {
                throw CraveyFailure(message: failure.description)
            }
            print(Self.words(outcome, discreet: discreet, seconds: answerSeconds))
        }

        /// What came of the run (the journal keeps what a run prints: discreet words name nothing).
        static func words(_ outcome: DayReminderFlow.Outcome, discreet: Bool, seconds: Double) -> String {
            switch outcome {
            case .quiet(.beforeTracking?), .quiet(nil):
                discreet ? "Nothing shown: nothing to ask about yet." : "Nothing is logged here yet; no question."
            case .quiet(.used?):
                discreet ? "Nothing shown: the day is known." : "A use is logged today, so today is known; no question."
            case .quiet: discreet ? "Nothing shown: the day is known." : "Today is marked already; no question."
            case .shown: discreet ? "Shown." : "Question shown; its words say the commands."
            case let .marked(marked): discreet ? "Noted ✓" : DayMarkFlow.said(marked, now: LocalClock.now())
            case let .useForm(terminal):
                discreet
                    ? "Opened a window in \(Cravey.Launch.named(terminal))."
                    : "I used: opened the use form in \(Cravey.Launch.named(terminal))."
            case .closed: "The question was closed; nothing changed."
            case .withdrawn(stopped: true): "Stopped: the question was withdrawn."
            case .withdrawn(stopped: false):
                "No answer within \(Cravey.CheckInCommand.Notify.duration(seconds)): the question was withdrawn."
            case .busGone: "The session bus went away before an answer came."
            }
        }
    }
}

extension UserTimer.Activation {
    /// What a timer turned on says: `what` is on, `when` it comes, from now or from the next login.
    func said(_ what: String, when: String) -> String {
        switch self {
        case .started: "\(what) is on: \(when)."
        case let .noUserManager(why):
            "\(what) is on from your next login (the timer is installed and enabled; \(why)): \(when)."
        }
    }
}

extension UserTimer {
    /// The evening question's units of this person, `systemctl --user` run as every timer's is.
    static func dayMarkOfThisUser() -> UserTimer {
        let environment = LibraryOptions.configuration.environment
        return UserTimer.dayMark(environment: environment, systemctl: UserTimer.systemctlOfThisUser(environment))
    }
}
