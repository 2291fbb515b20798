import ArgumentParser
import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

extension Cravey {
    /// `cravey use`: a use logged in seconds — one command, or one screen on a terminal.
    struct UseCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "use",
            abstract: "Log a use: method and amount, and optionally what set it off, where, the mood after, and notes.",
            discussion: """
                Methods and amounts: bowls (joints, blunts) 0.5–5 in halves; vape 1–10 pulls; dab 1–5 dabs; \
                edible 5–100 mg THC in fives. Left out: bowls, and the method's first amount. With any \
                argument, or without a terminal, it is logged at once ('cravey use vape 3'); on a terminal \
                with no arguments a one-screen form opens.
                """)

        @OptionGroup var library: LibraryOptions

        @Argument(help: "bowls (or joints, blunts), vape, dab or edible.")
        var method: String?

        // Gathered with whatever else the parser does not know, so that a negative number is
        // refused in the number's own words (`RawArguments.number`).
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("How much, in the method's unit.", valueName: "amount"))
        var amountTyped: [String] = []

        /// The amount typed, a negative one too.
        var amount: String? { RawArguments.value(amountTyped) }

        func validate() throws { _ = try RawArguments.number(amountTyped) }

        @OptionGroup var details: LogDetails

        @Option(help: ArgumentHelp("How you felt after, 1–10.", valueName: "N"))
        var moodAfter: String?

        @Option(
            help: ArgumentHelp(
                "The craving this use followed: its id, or 'last' for the latest one.", valueName: "id|last"))
        var afterCraving: String?

        @OptionGroup var output: OutputOptions

        /// What is typed is read before the library is opened: a refused log makes nothing, not
        /// even a new library.
        func run() throws {
            let scripted =
                method != nil || amount != nil || !details.isEmpty || moodAfter != nil || afterCraving != nil
                || output.json
                || !Terminal.stdinIsTerminal
            guard scripted else {
                try library.loggingBringingInSync { lib in
                    if let said = LimitFlow.answeredOnTerminal(in: library.session(lib)) { return print(said) }
                    guard let use = try UseFlow.interactively(in: library.session(lib)) else {
                        print("Nothing was logged.")
                        return
                    }
                    print(LogWords.saved(.use(use), now: LocalClock.now()))
                    noteIfOld(use.time)
                    noteIfWithdrawn(use, in: lib)
                }
                return
            }
            let how = try method.map(LogInput.method) ?? .bowls
            let draft = Tracker.UsageDraft(
                method: how, amount: try amount.map { try LogInput.amount($0, of: how) }, time: try details.time(),
                triggers: try details.triggerSet(), location: try details.place(), notes: details.notes,
                moodAfter: try moodAfter.map(LogInput.moodAfter))
            try library.loggingBringingInSync { lib in try log(draft, in: lib) }
        }

        private func log(_ draft: Tracker.UsageDraft, in lib: Library) throws {
            let use = try UseFlow.log(
                draft, in: lib, afterCraving: afterCraving, offeringLink: Terminal.stdinIsTerminal && !output.json,
                now: LocalClock.now())
            if output.json {
                try JSONOutput.print(use)
            } else {
                print(Self.saved(use, named: method))
            }
            noteIfOld(use.time)
            noteIfWithdrawn(use, in: lib)
            LimitFlow.noteIfInBreak(use, in: lib)
        }

        /// The saved line, with the method named as it was typed where its group allows it
        /// ("1 joint", "2 blunts"): bowls, joints and blunts are stored as one method.
        static func saved(_ use: Usage, named typed: String?) -> String {
            guard use.method == .bowls, let noun = typed.flatMap(bowlsNoun) else {
                return LogWords.saved(.use(use), now: LocalClock.now())
            }
            let unit = use.amount == 1 ? noun : noun + "s"
            return
                "Usage logged ✓ — \(Method.number(use.amount)) \(unit), \(LogWords.time(use.time, now: LocalClock.now()))"
        }

        /// "joint" for joint or joints typed (as for blunt and bowl), nil for any other name.
        private static func bowlsNoun(_ typed: String) -> String? {
            let word = typed.trimmingCharacters(in: .whitespaces).lowercased()
            let noun = word.hasSuffix("s") ? String(word.dropLast()) : word
            return ["bowl", "joint", "blunt"].contains(noun) ? noun : nil
        }
    }
}
