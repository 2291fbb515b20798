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
            let played = try Self.play(
                top ? try Self.quickPlay(rank: rank, in: lib) : .key(key!), in: lib, from: start, speaker: speaker,
                originalLevel: originalLevel, pictures: !audioOnly, fromText: from)
            // Read, not heard: counted as played, and still said as a failure to a script.
            if played.wordsShown { throw CraveyFailure(message: Self.notAloud(played.recording, speaker: speaker)) }
        }

        /// The line for a message whose words were shown because its speaker did not open.
        static func notAloud(_ recording: Recording, speaker: String) -> String {
            "'\(recording.shownTitle)' was not played aloud: the speaker '\(speaker)' did not open; its words were shown"
        }

        /// Plays the message at `rank` among the most played in an open library, as
        /// `cravey play --top --rank N` does: the home screen's play.
        @discardableResult
        static func play(top rank: Int, in lib: Library, speaker: String = "default") throws -> MessagePlay.Played {
            try play(try quickPlay(rank: rank, in: lib), in: lib, speaker: speaker)
        }

        /// The message at `rank` in Quick Play's order (as set in settings). With fewer messages
        /// it stays the rank among the most played, which says how many there are.
        static func quickPlay(rank: Int, in lib: Library) throws -> MessagePlay.Choice {
            let ranked = try Tracker(library: lib).quickPlay(rank, now: LocalClock.now())
            return ranked.count >= rank ? .key(ranked[rank - 1].id.uuidString) : .top(rank: rank)
        }

        /// Chooses the recording, finds where to start, plays it and counts the play (one line
        /// each when there is none to choose or the start is not in it). `fromText` is the --from
        /// asked for, to word a start past the end.
        @discardableResult
        static func play(
            _ choice: MessagePlay.Choice, in lib: Library, from start: MessagePlay.Start = .beginning,
            speaker: String = "default", originalLevel: Bool = false, pictures: Bool = true,
            fromText: String? = nil
        ) throws -> MessagePlay.Played {
            do {
                let recording = try MessagePlay.choose(choice, in: lib)
                let seconds = try MessagePlay.seconds(of: start, in: recording, library: lib)
                return try play(
                    recording, in: lib, from: seconds, speaker: speaker, originalLevel: originalLevel,
                    pictures: pictures)
            } catch let failure as MessagePlay.Failure {
                throw CraveyFailure(failure, from: fromText)
            }
        }

        /// Plays a recording and counts the play (also the hard-moment offer after a craving).
        @discardableResult
        static func play(
            _ recording: Recording, in lib: Library, from startAt: Double = 0, speaker: String = "default",
            originalLevel: Bool = false, pictures: Bool = true
        ) throws -> MessagePlay.Played {
            let session: PlaySession
            do {
                session = try PlaySession.opening(
                    recording, in: lib, title: recording.shownTitle, speaker: speaker, originalLevel: originalLevel,
                    pictures: pictures)
            } catch is SpeakerOpening.Stopped {
                throw CraveyFailure(message: PlaySession.stopped("'\(recording.shownTitle)'"))
            } catch let trouble as PlaySession.SpeakerUnavailable {
                // A hard moment is no time for a device error alone: the message's words instead
                // (read, they count as played), or what helps without a speaker.
                if showWords(of: recording, in: lib, speaker: speaker, trouble.error, waiting: true) {
                    let shown = MessagePlay.shown(recording, in: lib)
                    if case let .failed(error) = shown.counting {
                        Terminal.printNote("this play was not counted: \(error)")
                    }
                    return shown
                }
                throw CraveyFailure(
                    message: "'\(recording.shownTitle)' was not played: the speaker '\(speaker)' did not open")
            } catch let error as MediaError {
                throw CraveyFailure(message: "cannot play '\(recording.shownTitle)': \(error)")
            }
            if let unheard = session.unheard {  // a video: its pictures play, its words are shown too
                showWords(of: recording, in: lib, speaker: speaker, unheard, waiting: false)
            }
            let player = session.player
            if startAt > 0 { player.skip(startAt) }
            let played = MessagePlay.play(recording, in: lib, on: player) { session.run(handlingSignals: true) }
            if case let .failed(error) = played.counting {
                // The playback happened; only counting it failed (a full or read-only disk).
                Terminal.printNote("this play was not counted: \(error)")
            }
            if Configuration.current.timings {
                Terminal.printNote(
                    "timings first_sample_ns=\(player.firstSampleAt ?? 0) gain_db=\(session.level?.gain ?? 0) heard_s=\(String(format: "%.2f", played.heardSeconds))"
                )
            }
            if !Terminal.stdoutIsTerminal {
                print(
                    "\(played.ending == .finished ? "Played" : "Stopped") '\(recording.shownTitle)' (\(Format.duration(recording.duration)))"
                )
            }
            return played
        }
    }
}

extension Cravey.Play {
    /// The words of a message whose sound cannot be heard, calmly: its transcript (or, without one,
    /// its title and notes), and one line on what `cravey doctor` checks. On a terminal `waiting`
    /// keeps them on screen until a key, so that a screen called from (home, a craving's offer)
    /// does not cover them at once.
    @discardableResult
    static func showWords(
        of recording: Recording, in lib: Library, speaker: String, _ error: MediaError, waiting: Bool
    ) -> Bool {
        let width = max(40, min(Terminal.stdoutIsTerminal ? Terminal.columns : 80, 100)) - 3
        let words = MessagePlay.words(of: recording, in: lib)
        let others = words.shown || !waiting ? nil : otherWords(than: recording, in: lib)
        for line in unheardLines(
            recording, words: words, speaker: speaker, problem: DeviceProblem.speaker(speaker, error),
            others: others)
        {
            let indent = line.hasPrefix("  ") ? "  " : ""
            print(
                line.isEmpty
                    ? "" : Terminal.wrap(line, width: width - indent.count).map { indent + $0 }.joined(separator: "\n"))
        }
        if waiting, Terminal.stdinIsTerminal, Terminal.stdoutIsTerminal {
            Prompt.choice(
                Terminal.dim("Press any key when you're ready."), key: { _ in () }, line: { _ in () }, ended: ())
        }
        return words.shown
    }

    /// The titles of the other messages whose words can be read instead (up to three).
    static func otherWords(than recording: Recording, in lib: Library) -> [Recording] {
        let others = ((try? lib.top(20)) ?? []).filter { $0.id != recording.id && $0.checkIn == nil }
        return Array(others.filter { MessagePlay.words(of: $0, in: lib).shown }.prefix(3))
    }

    /// The lines `showWords` prints (indented lines are the message's own words). With `others`,
    /// when no words can be shown, what helps without a speaker: the breathing guide, and the
    /// messages in `others` whose words can be read.
    static func unheardLines(
        _ recording: Recording, words: MessagePlay.Words, speaker: String, problem: DeviceProblem,
        others: [Recording]? = nil
    ) -> [String] {
        let title = Terminal.safe(recording.shownTitle)
        var lines: [String]
        switch words {
        case let .draft(text):
            lines = [
                "The sound can't play right now, so here are the words of '\(title)' (an automatic draft):", "",
                "  " + Terminal.safe(text.split(whereSeparator: \.isNewline).joined(separator: " ")),
            ]
        case .rough:
            lines = [
                "The sound can't play right now. '\(title)' has only a rough automatic draft of its words, so it is not shown here ('cravey show' has it)."
            ]
        case .silent:
            lines = ["The sound can't play right now. No words were heard in '\(title)'."]
        case .notYet:
            lines = [
                "The sound can't play right now, and '\(title)' has no transcript yet to read instead."
            ]
        case .unavailable:
            lines = ["The sound can't play right now. '\(title)': Transcript unavailable."]
        }
        if let notes = recording.notes?.trimmingCharacters(in: .whitespacesAndNewlines), !notes.isEmpty {
            lines += ["", "Your notes:", "  " + Terminal.safe(notes)]
        }
        if !words.shown, let others {
            // Never a dead end: what helps without a speaker.
            lines += ["", "Without a speaker: breathe with the ride's guide (o on the home screen, or 'cravey ride')."]
            lines += others.map {
                "Or read the words of '\(Terminal.safe($0.shownTitle))': 'cravey show \($0.id.uuidString.prefix(8))'."
            }
        }
        return lines + [
            "",
            "The speaker '\(Terminal.safe(speaker))' did not open (\(problem.detail)): 'cravey doctor --speaker \(Terminal.safe(speaker))' says how to fix it.",
        ]
    }
}

extension CraveyFailure {
    /// A play that could not begin, in one line (`from`: the --from asked for).
    init(_ failure: MessagePlay.Failure, from: String?) {
        switch failure {
        case .noRecordings:
            self.init(message: "no recordings yet — record a message to your future self with 'cravey record audio'")
        case let .onlyRanked(count):
            self.init(message: "there are only \(count) recordings; try --rank \(count)")
        case let .pastTheEnd(recording):
            self.init(
                message:
                    "--from \(from ?? "") is past the end of '\(recording.shownTitle)' (\(Format.duration(recording.duration)))"
            )
        case let .noTranscript(recording):
            self.init(
                message:
                    "'\(recording.shownTitle)' has no transcript yet ('cravey transcribe \(recording.id.uuidString.prefix(8))' makes it)"
            )
        case let .notSaid(word, recording):
            self.init(message: "'\(word)' is not in the transcript of '\(recording.shownTitle)'")
        }
    }
}
