import ArgumentParser
import CraveyLibrary
import CraveyMessages
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
                    if try Self.logInteractively(in: lib, speaker: speaker) == nil { print("Nothing was logged.") }
                }
                return
            }
            let draft = Tracker.CravingDraft(
                intensity: try intensity.map(LogInput.intensity) ?? Intensity.standard,
                time: try details.time(), triggers: try details.triggerSet(), location: try details.place(),
                notes: details.notes)
            let rank = try play.map { try LogInput.wholeNumber($0, field: "--play", in: 1...3) }
            try library.logging { lib in
                try Self.log(draft, in: lib, speaker: speaker, rank: rank, json: output.json)
            }
        }

        /// A craving logged, and the message played after it (nil: none) or its ride's closing
        /// words (nil: not ridden).
        struct Logged {
            var craving: Craving
            var played: Recording?
            var rode: [String]? = nil
        }

        /// `cravey craving` on a terminal with no arguments: the form, the log, then the offer to
        /// play one of three messages (on `speaker`) or ride it out. nil when the form was closed
        /// and nothing was logged.
        static func logInteractively(in lib: Library, speaker: String) throws -> Logged? {
            guard let draft = try LogForm.craving() else { return nil }
            return try log(draft, in: lib, speaker: speaker, rank: nil, json: false)
        }

        /// Logs `draft` and says so; then plays message `rank` of the three offered (the first in
        /// `Tracker.offerOrder` for its triggers), or on a terminal (not for JSON) offers them and
        /// a ride, and keeps that it was played during the craving.
        @discardableResult
        private static func log(_ draft: Tracker.CravingDraft, in lib: Library, speaker: String, rank: Int?, json: Bool)
            throws -> Logged
        {
            let tracker = Tracker(library: lib)
            let craving = try tracker.logCraving(draft, now: LocalClock.now())
            if json {
                try JSONOutput.print(craving)
            } else {
                print(LogWords.saved(.craving(craving), now: LocalClock.now()))
                print(LogWords.encouragement)
            }
            noteIfOld(craving.time)
            let top = Array(try tracker.offerOrder(for: craving.triggers, now: LocalClock.now()).prefix(3))
            let choice: Recording?
            if let rank {
                guard top.count >= rank else {
                    throw CraveyFailure(
                        message: top.isEmpty
                            ? "the craving is logged; there are no messages to play yet"
                            : "the craving is logged; there are only \(top.count) messages to play")
                }
                choice = top[rank - 1]
            } else if Terminal.stdinIsTerminal && !json {  // logged on a terminal: the hard-moment offer
                switch LogForm.offerToPlay(top, ride: Tracker.canRide(craving.time, now: LocalClock.now())) {
                case let .play(recording): choice = recording
                case .ride:
                    return Logged(craving: craving, played: nil, rode: try ride(craving, in: lib, speaker: speaker))
                case nil: choice = nil
                }
            } else {
                choice = nil
            }
            if let choice {
                let played: MessagePlay.Played
                do {
                    played = try Play.play(choice, in: lib, speaker: speaker)
                } catch let failure as CraveyFailure {
                    // The craving is kept whatever the speaker does: a script hears that it is, a
                    // person at the offer has read the message's words instead.
                    guard rank == nil else {
                        throw CraveyFailure(message: "the craving is logged; " + failure.message, code: failure.code)
                    }
                    Terminal.printNote(failure.message)
                    return Logged(craving: craving, played: nil)
                }
                // Only a message heard or read is kept as played during the craving.
                guard played.reached else { return Logged(craving: craving, played: nil) }
                try tracker.notePlayed(choice.id, during: craving.id)
            }
            return Logged(craving: craving, played: choice)
        }

        /// The ride after the offer, on the craving just logged (not a second one), on a screen of
        /// its own; its closing words are printed once the screen is left.
        private static func ride(_ craving: Craving, in lib: Library, speaker: String) throws -> [String]? {
            let started = Date()
            guard let outcome = try RideScreen.ride(craving, in: lib, speaker: speaker) else { return nil }
            let words = RideScreen.closing(
                outcome.ratings, rideSeconds: RideScreen.rideSeconds(since: started), in: lib)
            words.forEach { print($0) }
            return words
        }
    }
}
