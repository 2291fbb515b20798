import ArgumentParser
import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

extension Cravey {
    /// `cravey craving`: a craving logged in seconds — one command, or one screen on a terminal.
    struct CravingCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "craving",
            abstract: "Log a craving: how strong (1–10), and optionally what set it off, where, and notes.",
            discussion: """
                With any argument, or without a terminal, it is logged at once ('cravey craving 7'). On a \
                terminal with no arguments a one-screen form opens: Enter alone logs a 5, now. After a craving \
                is logged on a terminal, one key plays one of three of your messages (one made for its trigger \
                first, then the most played), or o rides it out ('cravey ride').
                """)

        @OptionGroup var library: LibraryOptions

        // Gathered with whatever else the parser does not know, so that a negative number is
        // refused in the number's own words (`RawArguments.number`).
        @Argument(
            parsing: .allUnrecognized,
            help: ArgumentHelp("How strong, 1 (mild) to 10 (overwhelming); 5 when left out.", valueName: "intensity"))
        var intensityTyped: [String] = []

        /// The intensity typed, a negative one too.
        var intensity: String? { RawArguments.value(intensityTyped) }

        func validate() throws { _ = try RawArguments.number(intensityTyped) }

        @OptionGroup var details: LogDetails

        @Option(
            help: ArgumentHelp(
                "Then play message N of the three offered (1–3: made for its trigger first, then the most played), and keep that it was played.",
                valueName: "N"))
        var play: String?

        @Option(help: ArgumentHelp("ALSA playback device for the message played.", valueName: "name"))
        var speaker: String = "default"

        @OptionGroup var output: OutputOptions

        /// What is typed is read before the library is opened: a refused log makes nothing, not
        /// even a new library.
        func run() throws {
            let scripted =
                intensity != nil || !details.isEmpty || play != nil || output.json || !Terminal.stdinIsTerminal
            guard scripted else {
                try library.logging { lib in
                    let session = library.session(lib, speaker: speaker)
                    if try CravingFlow.interactively(in: session) == nil { return print("Nothing was logged.") }
                    lib.syncBringInAfterAHardMoment()
                }
                return
            }
            let draft = Tracker.CravingDraft(
                intensity: try intensity.map(LogInput.intensity) ?? Intensity.standard,
                time: try details.time(), triggers: try details.triggerSet(), location: try details.place(),
                notes: details.notes)
            let rank = try play.map { try LogInput.wholeNumber($0, field: "--play", in: 1...3) }
            try library.logging { lib in
                try CravingFlow.log(draft, in: library.session(lib, speaker: speaker), rank: rank, json: output.json)
                lib.syncBringInAfterAHardMoment()
            }
        }
    }
}
