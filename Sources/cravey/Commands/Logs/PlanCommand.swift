import ArgumentParser
import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

extension Cravey {
    /// `cravey plan`: if-then plans — for a trigger, what I'll do instead and a message to play.
    struct PlanCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "plan",
            abstract: "If-then plans: for a trigger, what you'll do instead, and a message to play (up to 10).",
            discussion: """
                A plan is shown first when a craving with its trigger is logged or ridden out: its sentence heads \
                the offer and its message is offered first. A plan can be kept to a place (--place) or an hour of \
                the day (--hour); the most closely kept plan that fits a craving is the one shown.
                """,
            subcommands: [List.self, Add.self, Remove.self],
            defaultSubcommand: List.self)

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list", abstract: "List your plans, numbered (the oldest first).")

            @OptionGroup var library: LibraryOptions
            @OptionGroup var output: OutputOptions

            func run() throws {
                let plans = try PlanFlow.list(in: try library.existing())
                if output.json { return try JSONOutput.print(plans) }
                guard !plans.isEmpty else { return print(PlanWords.none) }
                for (index, shown) in plans.enumerated() {
                    print(PlanWords.line(index + 1, shown, width: Terminal.stdoutIsTerminal ? Terminal.columns : nil))
                }
            }
        }

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "add",
                abstract:
                    "Add a plan: 'cravey plan add --trigger bored --hour 21 --instead \"walk round the block\" --message \"Walk first\"'."
            )

            @OptionGroup var library: LibraryOptions

            @Option(
                help: ArgumentHelp(
                    "The trigger it is for: \(Trigger.allCases.map(\.rawValue).joined(separator: ", ")).",
                    valueName: "trigger"))
            var trigger: String

            @Option(
                help: ArgumentHelp(
                    "Only at this place: \(Location.allCases.map(\.rawValue).joined(separator: ", ")).",
                    valueName: "place"))
            var place: String?

            /// Taken whatever it starts with, so that a negative hour is refused in its own words.
            @Option(
                parsing: .unconditional,
                help: ArgumentHelp("Only in this hour of the day, 0–23 (21 or 21:00).", valueName: "hour"))
            var hour: String?

            /// Free text: the next argument whatever it starts with.
            @Option(
                parsing: .unconditional,
                help: ArgumentHelp(
                    "What you'll do instead: one sentence, at most \(Validation.maxPlanLength) characters.",
                    valueName: "text"))
            var instead: String

            @Option(help: ArgumentHelp("A message of yours to play: its id or title.", valueName: "id|title"))
            var message: String?

            @OptionGroup var output: OutputOptions

            /// Everything typed is read before the library is opened: a refused plan makes nothing.
            func run() throws {
                _ = try PlanFlow.draft(
                    trigger: trigger, place: place, hour: hour, instead: instead, message: nil, in: nil)
                // A message is looked for in a library that is there: none is made to find it missing.
                if message != nil, !Library.exists(at: library.root) {
                    throw CraveyFailure(message: LibraryOptions.noLibrary(library.root))
                }
                try library.loggingBringingInSync { lib in
                    let draft = try PlanFlow.draft(
                        trigger: trigger, place: place, hour: hour, instead: instead, message: message, in: lib)
                    let shown = try PlanFlow.add(draft, in: lib, now: LocalClock.now())
                    if output.json { return try JSONOutput.print(shown) }
                    let number = try PlanFlow.list(in: lib).firstIndex { $0.plan.id == shown.plan.id }
                    print(PlanWords.added(shown, number: (number ?? 0) + 1))
                }
            }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "remove", abstract: "Remove plan N (as 'cravey plan list' numbers them).")

            @OptionGroup var library: LibraryOptions

            @Argument(help: ArgumentHelp("The plan's number.", valueName: "N"))
            var number: String

            @OptionGroup var output: OutputOptions

            func run() throws {
                let n = try LogInput.wholeNumber(number, field: "plan number", in: 1...Library.maxPlans)
                // By the number 'plan list' showed: the folder's news comes in after, so it holds.
                let lib = try library.openExisting()
                let plan = try PlanFlow.remove(n, in: lib)
                lib.syncBringInIfNew()
                if output.json { return try JSONOutput.print(plan) }
                print("Removed plan \(n): if \(Terminal.safe(plan.when)), then: \(Terminal.safe(plan.instead))")
            }
        }
    }
}
