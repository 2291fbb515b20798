import ArgumentParser
import CraveyLibrary
import CraveyMedia
import CraveyPlayer
import CraveyMessages
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

        @Option(help: ArgumentHelp("Start at this time: seconds, or m:ss (e.g. 0:42, as 'cravey search' shows).", valueName: "time"))
        var from: String?

        @Option(help: ArgumentHelp("Start at the first time this word is said (from the transcript).", valueName: "word"))
        var fromWord: String?

        func validate() throws {
            if top == (key != nil) { throw ValidationError("give a recording, or --top") }
            guard rank >= 1 else { throw ValidationError("--rank starts at 1") }
            if from != nil && fromWord != nil { throw ValidationError("give --from or --from-word, not both") }
            if let from, Timecode.parse(from) == nil {
                throw ValidationError("--from must be seconds or m:ss, e.g. 42 or 0:42 (got '\(from)')")
            }
        }

        /// Where to start: --from, or the first time --from-word is said (a one-line error when
        /// the recording is shorter, or the word is not in its transcript).
        func start(of recording: Recording, in lib: Library) throws -> Double {
            if let from {
                let seconds = Timecode.parse(from) ?? 0
                guard seconds < recording.duration else {
                    throw CraveyFailure(message: "--from \(from) is past the end of '\(recording.shownTitle)' (\(Format.duration(recording.duration)))")
                }
                return seconds
            }
            guard let word = fromWord else { return 0 }
            guard let transcript = try lib.transcript(of: recording.id), transcript.state == .done else {
                throw CraveyFailure(message: "'\(recording.shownTitle)' has no transcript yet ('cravey transcribe \(recording.id.uuidString.prefix(8))' makes it)")
            }
            guard let time = transcript.firstTime(of: SearchTerms.words(word)) else {
                throw CraveyFailure(message: "'\(word)' is not in the transcript of '\(recording.shownTitle)'")
            }
            return time
        }

        func run() throws {
            let lib = try library.open()
            let recording: Recording
            if top {
                let ranked = try lib.top(rank)
                guard ranked.count >= rank else {
                    if ranked.isEmpty {
                        throw CraveyFailure(message: "no recordings yet — record a message to your future self with 'cravey record audio'")
                    }
                    throw CraveyFailure(message: "there are only \(ranked.count) recordings; try --rank \(ranked.count)")
                }
                recording = ranked[rank - 1]
            } else {
                recording = try lib.recording(idOrTitle: key!)
            }
            try Self.play(recording, in: lib, from: try start(of: recording, in: lib), speaker: speaker,
                          originalLevel: originalLevel, pictures: !audioOnly)
        }

        /// Plays a recording and counts the play (also the hard-moment offer after a craving).
        static func play(_ recording: Recording, in lib: Library, from startAt: Double = 0, speaker: String = "default",
                         originalLevel: Bool = false, pictures: Bool = true) throws {
            let session = try PlaySession.open(recording, in: lib, title: recording.shownTitle, what: "'\(recording.shownTitle)'",
                                               speaker: speaker, originalLevel: originalLevel, pictures: pictures)
            let player = session.player
            if startAt > 0 { player.skip(startAt) }
            let ending = session.run(handlingSignals: true)
            do {
                // A check-in is listened back to, never counted: plays rank messages only.
                if recording.checkIn == nil { try lib.recordPlay(recording.id) }
            } catch {
                // The playback happened; only counting it failed (a full or read-only disk).
                Terminal.printNote("this play was not counted: \(error)")
            }
            if ProcessInfo.processInfo.environment["CRAVEY_TIMINGS"] == "1" {
                Terminal.printNote("timings first_sample_ns=\(player.firstSampleAt ?? 0) gain_db=\(session.level?.gain ?? 0)")
            }
            if !Terminal.stdoutIsTerminal {
                print("\(ending == .finished ? "Played" : "Stopped") '\(recording.shownTitle)' (\(Format.duration(recording.duration)))")
            }
        }
    }
}
