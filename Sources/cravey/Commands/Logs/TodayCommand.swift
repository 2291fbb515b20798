import ArgumentParser
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
                them).
                """)

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
                FileHandle.standardError.write(Data((note + "\n").utf8))
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
