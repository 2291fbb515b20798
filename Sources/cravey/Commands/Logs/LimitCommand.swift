import ArgumentParser
import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

extension Cravey {
    /// `cravey limit`: limits that ask and never block — break windows, a weekly target and the
    /// use planned for — for cutting down and harm reduction.
    struct LimitCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "limit",
            abstract: "Limits that ask and never block: break windows, a weekly target, the use you plan for.",
            discussion: """
                A break window is a daily time not to use ('cravey limit break add 21:00-23:00'; it may cross \
                midnight). Logging a use inside one first asks, once, whether to ride it out — the ride and a \
                message are one key away — and logs it if you go on; a use is never refused, and a script's use \
                says the window once on standard error. A weekly target is days of use a week ('cravey limit \
                week 3') or an amount per method ('cravey limit week --amount vape=20'); progress shows your \
                weeks against it, from the week it was set, as a smoothed trend (a week with nothing logged \
                is said as such, not judged). The use planned for (harm reduction: 'cravey limit plan \
                --methods vape,edible --per-day 3 --hours 18-23', the amount in each method's unit) counts \
                uses as planned; hours across midnight ('--hours 20-2') run to their end, a use after \
                midnight counting with the evening before. Limits are for the goals cut-down and harm-reduction; '--offer any-goal' \
                offers them whatever the goal.
                """,
            subcommands: [Show.self, Break.self, Week.self, Planned.self, Clear.self],
            defaultSubcommand: Show.self)

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "show", abstract: "Show your limits (break windows numbered).")

            @OptionGroup var library: LibraryOptions

            @Option(
                help: ArgumentHelp(
                    "Offer limits whatever your goal (any-goal), or for cutting down and harm reduction only (goal).",
                    valueName: "goals"))
            var offer: String?

            @OptionGroup var output: OutputOptions

            func validate() throws {
                if let offer, !["any-goal", "goal"].contains(offer) {
                    throw ValidationError(
                        "--offer is any-goal or goal, not '\(Terminal.safe(String(offer.prefix(40))))'")
                }
            }

            func run() throws {
                if let offer {
                    try Tracker(library: try library.open()).offerLimits(anyGoal: offer == "any-goal")
                    return print(
                        offer == "any-goal"
                            ? "Limits are offered whatever your goal ✓"
                            : "Limits are offered for cutting down and harm reduction ✓")
                }
                let tracker = try library.existing().map { Tracker(library: $0) }
                let limits = try tracker?.limits() ?? Limits()
                let offered = try tracker?.limitsOffered() ?? false
                if output.json { return try JSONOutput.print(Shown(limits: limits, offered: offered)) }
                for line in LimitFlow.lines(limits) { print(Terminal.safe(line)) }
                if !offered {
                    print(
                        "Limits are for the goals cut-down and harm-reduction; 'cravey limit --offer any-goal' offers them whatever your goal."
                    )
                }
            }
        }

        struct Break: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "break", abstract: "Add or remove a daily break window.",
                subcommands: [Add.self, Remove.self])

            struct Add: ParsableCommand {
                static let configuration = CommandConfiguration(
                    commandName: "add", abstract: "Add a break window: 'cravey limit break add 21:00-23:00'.")

                @OptionGroup var library: LibraryOptions

                @Argument(help: ArgumentHelp("The window, HH:MM-HH:MM (may cross midnight).", valueName: "window"))
                var window: String

                func run() throws {
                    _ = try BreakWindow(parsing: window)
                    print(
                        try LimitFlow.addBreak(
                            window, in: try library.openExistingBringingInSync(), now: LocalClock.now()))
                }
            }

            struct Remove: ParsableCommand {
                static let configuration = CommandConfiguration(
                    commandName: "remove", abstract: "Remove break window N (as 'cravey limit' numbers them).")

                @OptionGroup var library: LibraryOptions

                @Argument(help: ArgumentHelp("The window's number.", valueName: "N"))
                var number: String

                func run() throws {
                    let n = try LogInput.wholeNumber(number, field: "window number", in: 1...Library.maxBreaks)
                    // By the number shown: the folder's news comes in after, so the numbers hold.
                    let lib = try library.openExisting()
                    print(try LimitFlow.removeBreak(n, in: lib))
                    lib.syncBringInIfNew()
                }
            }
        }

        struct Week: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "week",
                abstract: "Set a weekly target: 'cravey limit week 3' (days of use) or '--amount vape=20'.")

            @OptionGroup var library: LibraryOptions

            @Argument(help: ArgumentHelp("At most this many days of use a week, 0–6.", valueName: "days"))
            var days: String?

            @Option(
                help: ArgumentHelp(
                    "At most this amount of a method a week, in its unit (bowls, vape pulls, dabs, edible mg THC); repeat for more methods.",
                    valueName: "METHOD=N"))
            var amount: [String] = []

            func run() throws {
                let target = try LimitFlow.target(days: days, amounts: amount)
                print(
                    try LimitFlow.setTarget(target, in: try library.openExistingBringingInSync(), now: LocalClock.now())
                )
            }
        }

        struct Planned: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "plan",
                abstract:
                    "Set the use you plan for: 'cravey limit plan --methods vape,edible --per-day 3 --hours 18-23'.")

            @OptionGroup var library: LibraryOptions

            @Option(help: ArgumentHelp("The methods, commas between (bowls, vape, dab, edible).", valueName: "list"))
            var methods: String

            @Option(
                parsing: .unconditional,
                help: ArgumentHelp("At most this amount of a method a day, in its unit.", valueName: "N"))
            var perDay: String

            @Option(help: ArgumentHelp("The hours use is planned for, HH-HH (may cross midnight).", valueName: "HH-HH"))
            var hours: String

            func run() throws {
                let planned = try PlannedUse(methods: methods, perDay: perDay, hours: hours)
                print(
                    try LimitFlow.setPlanned(
                        planned, in: try library.openExistingBringingInSync(), now: LocalClock.now()))
            }
        }

        struct Clear: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "clear", abstract: "Clear your limits: all, or breaks, week or plan.")

            @OptionGroup var library: LibraryOptions

            @Argument(help: ArgumentHelp("all (the default), breaks, week or plan.", valueName: "what"))
            var what: String = "all"

            func validate() throws {
                if LimitPart(rawValue: what) == nil {
                    throw ValidationError(
                        "clear all, breaks, week or plan, not '\(Terminal.safe(String(what.prefix(40))))'")
                }
            }

            func run() throws {
                print(try LimitFlow.clear(LimitPart(rawValue: what)!, in: try library.openExistingBringingInSync()))
            }
        }

        /// `limit --json`: the limits, and whether they are offered.
        struct Shown: Encodable {
            var limits: Limits
            var offered: Bool

            private enum Key: String, CodingKey { case breaks, weeklyTarget, planned, offered }

            func encode(to encoder: Encoder) throws {
                var c = encoder.container(keyedBy: Key.self)
                try limits.encodeParts(into: &c, breaks: .breaks, week: .weeklyTarget, planned: .planned)
                try c.encode(offered, forKey: .offered)
            }
        }
    }
}
