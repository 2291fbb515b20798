import ArgumentParser
import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

extension Cravey {
    /// `cravey screen`: the private self-screen (the CUDIT-R's eight questions), its score and
    /// its trend; the published bands only with --meaning; `list` the screens taken; --remind the
    /// quiet reminder after 4 weeks.
    struct ScreenCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "screen",
            abstract: "Take a private self-screen (CUDIT-R: 8 questions, about two minutes), or list the ones taken.",
            discussion: """
                On a terminal, 'cravey screen' asks the 8 questions one key each. --answers gives the 8 \
                scores instead (questions 1-7: 0-4, question 8: 0, 2 or 4), e.g. --answers 0,1,2,0,0,1,0,2; \
                without a terminal, 'cravey screen' prints the questions and their scores. The score and \
                its trend are said; what the number means only with --meaning. 'cravey screen list' lists \
                the screens taken. --remind on shows a quiet note on home 4 weeks after the last screen \
                (off by default). Only you see it; the report shows it only with --with-screen.
                """)

        @OptionGroup var library: LibraryOptions

        @Argument(help: ArgumentHelp("list: the screens taken, oldest first.", valueName: "list"))
        var action: String?

        @Option(help: ArgumentHelp("The 8 answers' scores, separated by commas.", valueName: "scores"))
        var answers: String?

        @Flag(help: "Say what the number means (the published bands).")
        var meaning = false

        @Option(help: ArgumentHelp("The quiet reminder 4 weeks after the last screen: on or off.", valueName: "on|off"))
        var remind: String?

        @OptionGroup var output: OutputOptions

        func validate() throws {
            if let action, action != "list" {
                throw ValidationError(
                    "'\(Terminal.safe(String(action.prefix(20))))' is not something screen does; 'cravey screen list' lists the screens taken"
                )
            }
            if let remind, !["on", "off"].contains(remind) {
                throw ValidationError("--remind is on or off, not '\(Terminal.safe(String(remind.prefix(20))))'")
            }
            let given = [action != nil, answers != nil, remind != nil].filter { $0 }.count
            if given > 1 { throw ValidationError("give one of list, --answers or --remind at a time") }
            if meaning, action != nil || remind != nil {
                throw ValidationError("--meaning is for a screen's score: give it alone or with --answers")
            }
        }

        /// What is typed is read before the library is opened: refused answers make nothing.
        func run() throws {
            let now = LocalClock.now()
            if action == "list" { return try list(now: now) }
            if let remind { return try library.logging { lib in try setRemind(remind == "on", in: lib, now: now) } }
            if let answers {
                let scores = try SelfScreen.answers(parsing: answers)
                return try library.logging { lib in
                    try say(try SelfScreenFlow.take(scores, in: lib, now: now), taken: true)
                }
            }
            if meaning {
                let screens = try library.existing().map { try Tracker(library: $0).selfScreens() } ?? []
                guard !screens.isEmpty else {
                    throw CraveyFailure(
                        message:
                            "no self-screen is taken yet, so there is no number to explain; 'cravey screen' takes one")
                }
                return try say(screens, taken: false)
            }
            // The screen is given back before its note is printed where it stays.
            let note = try { () -> String? in
                guard !output.json, let screen = FullScreen() else { return nil }
                return SelfScreenScreen(session: try library.session(), screen: screen).run()
            }()
            guard let note else { return try printQuestions() }
            print(note)
        }

        /// The result (or, `taken` false, the last one again): its words, or its JSON.
        private func say(_ screens: [SelfScreenTaken], taken: Bool) throws {
            guard let last = screens.last else { return }
            if output.json {
                try JSONOutput.print(
                    Result(
                        screen: last, highest: SelfScreen.highest, previous: screens.dropLast().map(\.score),
                        meaning: meaning ? Meaning(score: last.score) : nil))
                return
            }
            if taken { print("Kept ✓ (only you see it)") }
            SelfScreenFlow.said(screens, meaning: meaning).forEach { print($0) }
            if !meaning { print("'cravey screen --meaning' says what the number means.") }
        }

        /// `screen list`: every screen taken, oldest first, and the reminder.
        private func list(now: Date) throws {
            let tracker = try library.existing().map(Tracker.init(library:))
            let screens = try tracker?.selfScreens() ?? []
            let on = try tracker?.selfScreenReminderOn() ?? false
            if output.json {
                try JSONOutput.print(
                    Listing(
                        screens: screens,
                        reminder: Reminder(on: on, due: try tracker?.selfScreenReminderDue(now: now) ?? false)))
                return
            }
            guard !screens.isEmpty else {
                print("No self-screen taken yet. 'cravey screen' takes one, when you like.")
                return
            }
            for taken in screens {
                print("\(LogTime(taken.takenAt).localText)  \(taken.score) of \(SelfScreen.highest)")
            }
            print("The reminder after 4 weeks is \(on ? "on" : "off").")
        }

        private func setRemind(_ on: Bool, in lib: Library, now: Date) throws {
            try Tracker(library: lib).setSelfScreenReminder(on, now: now)
            if output.json {
                try JSONOutput.print(Reminder(on: on, due: try Tracker(library: lib).selfScreenReminderDue(now: now)))
                return
            }
            print(
                on
                    ? "The reminder is on: home says so quietly 4 weeks after your last self-screen ✓"
                    : "The reminder is off ✓")
        }

        /// Without a terminal: the questions and their scores, and how to give them (--json: as JSON).
        private func printQuestions() throws {
            if output.json {
                try JSONOutput.print(
                    Questions(
                        about: SelfScreen.preface,
                        questions: SelfScreen.items.map { item in
                            Question(
                                question: item.question,
                                answers: item.answers.map { Question.Answer(text: $0.text, score: $0.score) })
                        }))
                return
            }
            print(SelfScreen.preface)
            for (number, item) in SelfScreen.items.enumerated() {
                print("\(number + 1). \(item.question)")
                print("   " + item.answers.map { "\($0.score) \($0.text)" }.joined(separator: " · "))
            }
            print("Give your 8 scores with 'cravey screen --answers' (e.g. --answers 0,1,2,0,0,1,0,2).")
        }

        /// `screen --answers … --json`: the screen kept, the highest score, the scores before it,
        /// and the meaning only when asked (left out otherwise).
        struct Result: Encodable {
            var screen: SelfScreenTaken
            var highest = SelfScreen.highest
            var previous: [Int]
            var meaning: Meaning?
        }

        /// The published bands and the words that go with them.
        struct Meaning: Encodable {
            var hazardousFrom = SelfScreen.hazardousFrom
            var possibleDisorderFrom = SelfScreen.possibleDisorderFrom
            var possibleDisorderInCommunityFrom = SelfScreen.possibleDisorderInCommunityFrom
            var words: [String]

            init(score: Int) { words = SelfScreenWords.meaning(score) }
        }

        /// `screen --json` (no answers): the questions and each answer's score.
        struct Questions: Encodable {
            var about: String
            var questions: [Question]
        }

        struct Question: Encodable {
            struct Answer: Encodable {
                var text: String
                var score: Int
            }
            var question: String
            var answers: [Answer]
        }

        struct Reminder: Encodable {
            var on: Bool
            var due: Bool
        }

        struct Listing: Encodable {
            var screens: [SelfScreenTaken]
            var reminder: Reminder
        }
    }
}
