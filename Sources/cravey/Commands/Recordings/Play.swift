import ArgumentParser
import CraveyLibrary
import CraveyMedia
import CraveyPlayer
import CraveyMessages
import CraveyTracker
import Dispatch
import Foundation
import TerminalKit

#if canImport(Glibc)
    import Glibc
#endif

extension Cravey {
    /// `cravey play`: play a recording — above all one of the most played — when it is needed.
    struct Play: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "play",
            abstract: "Play a recording (by id, unique start of an id, or start of a title), or one of the top three.",
            discussion: """
                Keys: space pauses and resumes, ← and → skip 15 seconds, q or Esc stops. A play counts when \
                it ends or is stopped. A video plays in the terminal (24-bit colour half blocks, its pictures \
                following the sound; frames are dropped, never shown late, when the terminal is slow); \
                --audio-only plays just its sound. Every recording plays at one level (-16 LUFS, measured \
                with EBU R128; peaks limited under -1 dBTP, never clipped); --original-level plays it as \
                recorded.
                """)

        @OptionGroup var library: LibraryOptions

        @Argument(help: "The recording: id, unique start of an id, or start of its title.")
        var key: String?

        @Flag(help: "Play one of the most played recordings (see 'cravey top').")
        var top = false

        @Option(help: "With --top: which one (1 = the most played).")
        var rank: Int = 1

        @Option(help: ArgumentHelp("ALSA playback device.", valueName: "name"))
        var speaker: String = "default"

        @Flag(help: "Play only the sound of a video.")
        var audioOnly = false

        @Flag(help: "Play at the level it was recorded at, not raised or lowered to the common level.")
        var originalLevel = false

        @Option(
            help: ArgumentHelp(
                "Start at this time: seconds, or m:ss (e.g. 0:42, as 'cravey search' shows).", valueName: "time"))
        var from: String?

        @Option(
            help: ArgumentHelp("Start at the first time this word is said (from the transcript).", valueName: "word"))
        var fromWord: String?

        func validate() throws {
            if top == (key != nil) { throw ValidationError("give a recording, or --top") }
            guard rank >= 1 else { throw ValidationError("--rank starts at 1") }
            if from != nil && fromWord != nil { throw ValidationError("give --from or --from-word, not both") }
            if let from, Timecode.parse(from) == nil {
                throw ValidationError("--from must be seconds or m:ss, e.g. 42 or 0:42 (got '\(from)')")
            }
        }

        /// Where to start: --from, or the first time --from-word is said.
        var start: MessagePlay.Start {
            if let from { return .at(Timecode.parse(from) ?? 0) }
            return fromWord.map(MessagePlay.Start.word) ?? .beginning
        }

        func run() throws {
            // In a hard moment with no library yet, what helps: how to record a first message.
            guard let lib = try library.existing() else {
                throw top
                    ? CraveyFailure(MessagePlay.Failure.noRecordings, from: from)
                    : CraveyFailure(
                        message: LibraryOptions.noLibrary(library.root))
            }
            let session = library.session(lib, speaker: speaker)
            let played = try PlayFlow.play(
                top ? try PlayFlow.quickPlay(rank: rank, in: lib, now: session.now()) : .key(key!),
                in: session, from: start, originalLevel: originalLevel, pictures: !audioOnly, fromText: from,
                offeringRide: top)
            // Read, not heard: counted as played, and still said as a failure to a script.
            if played.wordsShown { throw CraveyFailure(message: Self.notAloud(played.recording, speaker: speaker)) }
        }

        /// The line for a message whose words were shown because its speaker did not open.
        static func notAloud(_ recording: Recording, speaker: String) -> String {
            "'\(recording.shownTitle)' was not played aloud: the speaker '\(speaker)' did not open; its words were shown"
        }
    }
}
