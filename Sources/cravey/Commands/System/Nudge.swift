import ArgumentParser
import CraveyDesktop
import CraveyLibrary
import CraveyMedia
import CraveyTracker
import Foundation
import TerminalKit

extension Cravey {
    /// `cravey nudge on|off|status`: one notification before the hour that is often hard.
    struct NudgeCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "nudge",
            abstract: "A nudge 15 minutes before the hour that is often hard for you (opt-in): on, off, status.",
            discussion: """
                The hour comes from your own logs: the clock hour in which most cravings began over the last 28 \
                days, once at least 10 were logged and that hour holds 3 of them. A systemd user timer (cravey-nudge.timer) runs every day, \
                finds the hour again and moves itself to 15 minutes before it; then one notification says the \
                hour, with "Ride it out" and "Play my message". Never more than one a day; none when a use or a \
                ride was logged in the last hour; after two nudges in a row that no cravey command followed \
                within an hour, it rests for 7 days, then tries again. --discreet words name nothing.
                """,
            subcommands: [On.self, Off.self, Status.self, Run.self])

        /// Any other command the person runs answers a nudge shown in the hour before it (the
        /// nudge's own run, the reminder's and the daily backup's do not, and `status` and
        /// `nudge status` change nothing). One look at a file that is not there while no nudge waits.
        static func answer(after command: ParsableCommand) {
            if command is Run || command is Status || command is Cravey.CheckInCommand.Notify
                || command is Cravey.StatusCommand || command is Cravey.TodayCommand.Remind.Run
                || (command as? Cravey.Backup)?.scheduled == true
            {
                return
            }
            let options = Mirror(reflecting: command).children.lazy.compactMap {
                $0.value as? OptionGroup<LibraryOptions>
            }.first
            let configuration = LibraryOptions.configuration
            let given = options?.wrappedValue.library.map(configuration.expandingTilde)
            guard let root = given ?? (configuration.defaultLibraryRefusal == nil ? configuration.defaultLibrary : nil)
            else { return }
            NudgeFlow.answer(root: root, now: LocalClock.now())
        }
    }
}

extension Cravey.NudgeCommand {
    /// `cravey nudge on [--discreet]`: writes and enables the timer.
    struct On: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "on",
            abstract: "Turn the nudge on: a systemd user timer, every day 15 minutes before the hard hour.",
            discussion: """
                Writes cravey-nudge.timer and cravey-nudge.service to ${XDG_CONFIG_HOME:-~/.config}/systemd/user \
                and enables the timer. Until 10 cravings in 28 days show an hour, it looks again every day at 12:00.
                """)

        @OptionGroup var library: LibraryOptions

        @Flag(help: "Words that name nothing: not cravey, not what the hour is hard with (others can see a screen).")
        var discreet = false

        func run() throws {
            let root = library.root
            let absolute = NudgeFlow.absolute(root)
            let now = LocalClock.now()
            let finding = try NudgeFlow.read(try library.existing(), root: root, now: now).finding
            let at = finding.hardHour.map { Nudge.time(before: $0.hour) } ?? Nudge.lookingTime
            let units = NudgeUnits.ofThisUser()
            let before = units.library.flatMap { $0 == absolute ? nil : $0 }
            try NudgeFlow.unitFailureSaid {
                try units.install(
                    hour: at.hour, minute: at.minute, executable: UserTimer.executablePath(), library: absolute,
                    discreet: discreet)
            }
            // One nudge: moved here from another library, it leaves no file of its own there.
            if let before {
                if Library.exists(at: before) { _ = NudgeFiles(root: before).remove() }
                print("The nudge moves here from the other library it was on for (\(Terminal.safe(before))).")
            }
            let when: String
            if let hard = finding.hardHour {
                when =
                    "around \(hard.words) is often hard for you, so a nudge comes at \(UserTimer.clock(at.hour, at.minute)), once a day at most"
            } else {
                when =
                    "no hour stands out yet (\(Self.why(finding))); it looks again every day at \(UserTimer.clock(at.hour, at.minute))"
            }
            print(units.activate().said("The nudge", when: when))
        }

        /// Why no hour stands out: "7 cravings in the last 28 days, and it takes 10".
        static func why(_ finding: HardHour.Finding) -> String {
            let count = finding.cravings
            if case .scattered = finding {
                return "\(count) cravings in the last 28 days, and no hour holds \(HardHour.fewestInHour) of them"
            }
            return
                "\(count == 1 ? "1 craving" : "\(count) cravings") in the last 28 days, and it takes \(HardHour.fewest)"
        }
    }

    /// `cravey nudge off`: the timer and the nudge's files, gone.
    struct Off: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "off", abstract: "Turn the nudge off: its timer and its files are removed.")

        @OptionGroup var library: LibraryOptions

        func run() throws {
            let units = NudgeUnits.ofThisUser()
            // This library's files, and those of the library the nudge was on for.
            let roots = [library.root] + (units.library.map { [$0] } ?? [])
            let removedUnits = try NudgeFlow.unitFailureSaid { try units.remove() }
            // Only a library's own files: a folder that is no library keeps whatever it holds.
            let removedFiles = roots.map { Library.exists(at: $0) && NudgeFiles(root: $0).remove() }.contains(true)
            print(
                removedUnits || removedFiles
                    ? "The nudge is off; its timer and files are gone." : "The nudge was not on.")
        }
    }

    /// `cravey nudge status [--json]`: on or off, the hour, and the next nudge or why none.
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract:
                "Whether the nudge is on, the hour that is often hard, and when the next nudge comes (or why none).",
            discussion: "Reads without changing anything.")

        @OptionGroup var library: LibraryOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let now = LocalClock.now()
            let status = try NudgeFlow.status(
                try library.existing(), root: library.root, units: NudgeUnits.ofThisUser(), now: now)
            let lines = Self.lines(status, now: now)
            guard output.json else { return lines.forEach { print($0) } }
            let hard = status.reading.finding.hardHour
            let state = status.reading.state
            try JSONOutput.print(
                Shape(
                    on: status.on, onForLibrary: status.elsewhere, discreet: status.discreet, hour: hard?.hour,
                    hourWords: hard?.words,
                    cravingsInHour: hard?.inHour, cravings: status.reading.finding.cravings,
                    cravingsNeeded: HardHour.fewest,
                    timer: status.scheduled.map { UserTimer.clock($0.hour, $0.minute) },
                    next: status.on ? status.next.map { LogTime($0).localText } : nil,
                    lastShown: state.lastShown.map { LogTime($0).localText }, unusedInARow: state.unused,
                    restingUntil: state.restingUntil.flatMap { $0 > LocalDay(now, in: .current) ? $0.text : nil },
                    words: lines.joined(separator: " ")))
        }

        struct Shape: Encodable {
            let on: Bool
            /// The other library the nudge is on for, where it is not on for this one.
            let onForLibrary: String?
            let discreet: Bool
            let hour: Int?
            let hourWords: String?
            let cravingsInHour: Int?
            let cravings: Int
            let cravingsNeeded: Int
            let timer: String?
            let next: String?
            let lastShown: String?
            let unusedInARow: Int
            let restingUntil: String?
            let words: String
        }

        /// The status in words: on or off, the hour, and the next nudge or why none.
        static func lines(_ status: NudgeFlow.Status, now: Date) -> [String] {
            var lines = [
                status.on
                    ? "The nudge is on\(status.discreet ? ", in words that name nothing" : "")."
                    : status.elsewhere.map {
                        "The nudge is on for another library (\($0)), not this one; 'cravey nudge on' here moves it to this one."
                    }
                        ?? "The nudge is off; 'cravey nudge on' starts it: one notification 15 minutes before the hour that is often hard."
            ]
            let finding = status.reading.finding
            guard let hard = finding.hardHour else {
                let total = finding.cravings
                lines.append(
                    finding == .scattered(cravings: total)
                        ? "No hour stands out yet: \(total) cravings in the last 28 days, and no hour holds \(HardHour.fewestInHour) of them."
                        : "No hour stands out yet: \(total == 1 ? "1 craving" : "\(total) cravings") in the last 28 days, and it takes \(HardHour.fewest) to find one."
                )
                if status.on, let timer = status.scheduled {
                    lines.append(
                        "No nudge until one does; it looks again every day at \(UserTimer.clock(timer.hour, timer.minute))."
                    )
                }
                return lines
            }
            lines.append(
                "Around \(hard.words) is often hard: \(hard.inHour) of the \(hard.cravings) cravings of the last 28 days began between \(hard.span)."
            )
            guard status.on else { return lines }
            let today = LocalDay(now, in: .current)
            let state = status.reading.state
            var why: [String] = []
            if let shown = state.lastShown, LocalDay(shown, in: .current) == today {
                why.append("today's came at \(LogTime(shown).localText.suffix(5))")
            }
            if let until = state.restingUntil, today < until {
                why.append("it is resting after two nudges in a row went by unused")
            }
            let next = status.next.map { "the next comes \(Self.when($0, today: today))" } ?? "no next one is set"
            let said = (why + [next]).joined(separator: "; ")
            lines.append(said.prefix(1).uppercased() + said.dropFirst() + ".")
            return lines
        }

        /// "today at 20:45", "tomorrow at 20:45", "on Saturday, Dec 5 at 20:45".
        static func when(_ date: Date, today: LocalDay) -> String {
            let time = LogTime(date)
            let day = LocalDay(date, in: .current)
            let clock = String(time.localText.suffix(5))
            switch day - today {
            case 0: return "today at \(clock)"
            case 1: return "tomorrow at \(clock)"
            default:
                let (_, month, date) = day.civil
                return "on \(LocalDay.weekdayNames[day.weekday]), \(LocalDay.monthNames[month - 1]) \(date) at \(clock)"
            }
        }
    }

    /// `cravey nudge run`: what the timer runs (hidden).
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run", abstract: "Show today's nudge when it is time (what the timer runs).",
            shouldDisplay: false)

        @OptionGroup var library: LibraryOptions

        @Flag(help: "Words that name nothing.")
        var discreet = false

        func run() throws {
            let outcome = try NudgeFlow.run(
                try library.existing(), root: library.root, units: NudgeUnits.ofThisUser(), discreet: discreet,
                now: LocalClock.now(), environment: LibraryOptions.configuration.environment)
            switch outcome {
            case let .shown(hard, _) where discreet: print("Shown, for around \(hard.words).")
            case let .shown(hard, _): print("Nudge shown: around \(hard.words) is often hard.")
            case .stopped where discreet: print("Shown, then withdrawn: asked to stop.")
            case .stopped: print("Nudge shown, then withdrawn: asked to stop before an answer came.")
            case let .quiet(why) where discreet: print("Nothing shown: \(Self.discreetWords(why)).")
            case let .quiet(why): print("No nudge: \(Self.words(why)).")
            }
        }

        /// Why none was shown, in words that name nothing (the journal keeps what a run prints).
        static func discreetWords(_ why: Nudge.Quiet) -> String {
            switch why {
            case .noHour: "no hour stands out yet"
            case let .notTheTime(hard): "not the time; it comes at \(Self.clock(before: hard))"
            case .shownToday: "one came today already"
            case let .resting(until): "resting until \(until.text)"
            case .recentUse, .recentRide: "not now"
            }
        }

        static func words(_ why: Nudge.Quiet) -> String {
            switch why {
            case let .noHour(count) where count >= HardHour.fewest:
                "\(count) cravings in the last 28 days, and no hour holds \(HardHour.fewestInHour) of them"
            case let .noHour(count):
                "\(count == 1 ? "1 craving" : "\(count) cravings") in the last 28 days, and it takes \(HardHour.fewest) to find an hour that is often hard"
            case let .notTheTime(hard):
                "not the time; around \(hard.words) is often hard, and the nudge comes at \(Self.clock(before: hard))"
            case .shownToday: "today's came already (one a day at most)"
            case let .resting(until):
                "resting after two nudges in a row went by unused; it tries again on \(until.text)"
            case .recentUse: "a use was logged in the last hour"
            case .recentRide: "a ride was on in the last hour"
            }
        }

        static func clock(before hard: HardHour) -> String {
            let at = Nudge.time(before: hard.hour)
            return UserTimer.clock(at.hour, at.minute)
        }
    }
}

extension NudgeUnits {
    /// The person's units, with `systemctl --user` run as every timer's is.
    static func ofThisUser() -> NudgeUnits {
        let environment = LibraryOptions.configuration.environment
        return NudgeUnits(environment: environment, systemctl: UserTimer.systemctlOfThisUser(environment))
    }
}
