import ArgumentParser
import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

extension Cravey {
    /// `cravey withdrawal`: in days 1–14 after the last use, six scores 0–10 of how the day is —
    /// sleep trouble, irritability or anger, anxiety, appetite change, strange dreams, craving —
    /// kept once a day (a second the same day replaces the first); alone, the checks so far.
    struct WithdrawalCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "withdrawal",
            abstract: "A withdrawal check in days 1–14 after your last use: six scores, 0–10.",
            discussion: """
                'cravey withdrawal 3,5,2,0,4,6' keeps today's scores, in this order: sleep trouble, \
                irritability or anger, anxiety, appetite change, strange dreams, craving (0 none, 10 the \
                most). Day 1 is the day after your last logged use; the check is there for days 1–14. \
                One check a day: a second the same day replaces the first. It is for the goal to quit; \
                --any-goal keeps one for another goal, and '--offer any-goal' offers it (home's w) whatever \
                the goal ('--offer quit' for quitting only, as before). 'cravey withdrawal' alone shows the \
                checks since your last use; --ask asks the six on the screen.
                """)

        @OptionGroup var library: LibraryOptions

        @Argument(help: ArgumentHelp("Six scores, 0–10, commas between (3,5,2,0,4,6).", valueName: "scores"))
        var scores: [String] = []

        @Flag(help: "Keep a check though your goal is not to quit.")
        var anyGoal = false

        @Flag(help: "Ask the six scores on the screen, one key each.")
        var ask = false

        @Option(
            help: ArgumentHelp(
                "Offer the check whatever your goal (any-goal) or for quitting only (quit, the default).",
                valueName: "goals"))
        var offer: String?

        @OptionGroup var output: OutputOptions

        func validate() throws {
            if ask && !scores.isEmpty { throw ValidationError("give the scores or --ask, not both") }
            if offer != nil && (ask || !scores.isEmpty) {
                throw ValidationError("--offer is a setting of its own; give it without scores or --ask")
            }
            if let offer, !["any-goal", "quit"].contains(offer) {
                throw ValidationError("--offer is any-goal or quit, not '\(Terminal.safe(String(offer.prefix(40))))'")
            }
        }

        /// What is typed is read before the library is opened: a refused check makes nothing.
        func run() throws {
            let now = LocalClock.now()
            if ask { return try runScreen(now: now) }
            if let offer {
                try Tracker(library: try library.open()).offerWithdrawalCheck(anyGoal: offer == "any-goal")
                return print(
                    offer == "any-goal"
                        ? "The withdrawal check is offered whatever your goal, on days 1–14 after your last use ✓"
                        : "The withdrawal check is offered for the goal to quit ✓")
            }
            guard !scores.isEmpty else { return try show(now: now) }
            let typed = try WithdrawalScores(parsing: scores.joined(separator: ","))
            let lib = try library.openExisting()
            let kept = try WithdrawalFlow.keep(typed, anyGoal: anyGoal, in: lib, now: now)
            if output.json {
                try JSONOutput.print(Kept(check: kept.check, replaced: kept.replaced))
            } else {
                print(WithdrawalFlow.said(kept))
            }
        }

        /// The window as of today and the checks since the last use, with the chart and its line.
        private func show(now: Date) throws {
            let tracker = try library.existing().map { Tracker(library: $0) }
            let window =
                try tracker?.withdrawalWindow(now: now)
                ?? WithdrawalWindow(lastUse: nil, today: LocalDay(now, in: .current), goal: nil)
            let chart = try tracker?.withdrawalChart(now: now)
            if output.json {
                try JSONOutput.print(Shown(window: window, chart: chart))
                return
            }
            print(Self.windowLine(window))
            guard let chart else { return }
            print("")
            for line in chart.lines { print("  " + line) }
            print("  " + chart.axis)
            print("")
            for line in Terminal.wrap(WithdrawalWindow.timeCourse, width: 78) { print(line) }
        }

        /// Where today stands: "Day 3 after your last use (Nov 23): …".
        static func windowLine(_ window: WithdrawalWindow) -> String {
            guard let lastUse = window.lastUse, let day = window.day else {
                return
                    "No use is logged, so there is no day 1 to count from: the check is for days 1–14 after a last use."
            }
            if day == 0 { return "A use is logged today; the check is there from tomorrow, day 1." }
            guard WithdrawalWindow.days.contains(day) else {
                return
                    "Your last logged use was \(lastUse.daysAgo(on: window.today)); the check is for days 1–14 after it."
            }
            let how =
                window.goal == .quit || window.anyGoal
                ? "'cravey withdrawal 3,5,2,0,4,6' keeps today's scores (sleep, irritability, anxiety, appetite, dreams, craving; 0–10)."
                : "The check is for the goal to quit; 'cravey withdrawal --any-goal 3,5,2,0,4,6' keeps one anyway."
            return "Day \(day) after your last use (\(lastUse.short)). " + how
        }

        /// The screen on a terminal; without one, one line of how to type the scores.
        private func runScreen(now: Date) throws {
            let lib = try library.openExisting()
            // The screen is given back before its note is printed where it stays.
            let note = { () -> String? in
                guard let screen = FullScreen() else { return nil }
                return WithdrawalScreen(session: library.session(lib), screen: screen).run(anyGoal: anyGoal)
            }()
            guard let note else {
                throw CraveyFailure(
                    message: "--ask needs a terminal; without one, type the six scores: cravey withdrawal 3,5,2,0,4,6")
            }
            print(note)
        }

        /// `withdrawal SCORES --json`: the check kept and the one it replaced.
        struct Kept: Encodable {
            var check: WithdrawalCheck
            var replaced: WithdrawalScores?

            private enum Key: String, CodingKey { case check, replaced }

            func encode(to encoder: Encoder) throws {
                var c = encoder.container(keyedBy: Key.self)
                try c.encode(check, forKey: .check)
                try c.encode(replaced, forKey: .replaced)
            }
        }

        /// `withdrawal --json`: today's day in the window, whether the check is offered (and
        /// offered whatever the goal), the checks.
        struct Shown: Encodable {
            var window: WithdrawalWindow
            var chart: WithdrawalChart?

            private enum Key: String, CodingKey { case today, lastUse, day, open, anyGoal, checks, line }

            func encode(to encoder: Encoder) throws {
                var c = encoder.container(keyedBy: Key.self)
                try c.encode(window.today, forKey: .today)
                try c.encode(window.lastUse, forKey: .lastUse)
                try c.encode(window.day, forKey: .day)
                try c.encode(window.isOpen, forKey: .open)
                try c.encode(window.anyGoal, forKey: .anyGoal)
                try c.encode(chart?.checks ?? [], forKey: .checks)
                try c.encode(WithdrawalWindow.timeCourse, forKey: .line)
            }
        }
    }
}
