import CraveyLibrary
import CraveyMedia
import CraveyPlayer
import Foundation

/// Playing a message when it is needed: choosing it (by key, or by its rank among the most
/// played), where to start in it, and counting the play once it ended or was stopped. A play
/// counts only when the message was heard (the speaker accepted a second of its sound, or all of
/// it when shorter) or its words were shown instead. Plays rank messages only: a check-in is
/// listened back to, never counted.
public enum MessagePlay {
    /// Which recording to play.
    public enum Choice: Sendable {
        /// Its id, a unique start of an id, or the start of its title.
        case key(String)
        /// One of the most played (1 = the most played).
        case top(rank: Int)
    }

    /// Where to start.
    public enum Start: Sendable {
        case beginning
        /// Seconds from the start.
        case at(Double)
        /// The first time this word is said (from the transcript).
        case word(String)
    }

    /// Why a play could not begin (the command line words it).
    public enum Failure: Error {
        /// Nothing to rank: no recordings yet.
        case noRecordings
        /// The rank asked for is past the last: only `count` are ranked.
        case onlyRanked(count: Int)
        /// The start is past the recording's end.
        case pastTheEnd(Recording)
        /// The recording has no finished transcript to find a word in.
        case noTranscript(Recording)
        /// The word is not said in the recording's transcript.
        case notSaid(word: String, in: Recording)
    }

    /// Whether a play was counted.
    public enum Counting: Sendable {
        case counted
        /// Too little of it reached the speaker to count (`heard`).
        case notHeard
        /// A check-in: listened back to, never counted.
        case checkIn
        /// Counting failed (a full or read-only disk); the playback happened.
        case failed(any Error)
    }

    /// What was played, how it ended, and whether it was counted.
    public struct Played: Sendable {
        public let recording: Recording
        public let ending: AudioPlayer.Ending
        public let counting: Counting

        /// Seconds of it the speaker accepted (or a silent video's pictures shown).
        public let heardSeconds: Double
        /// Its words were shown instead of its sound.
        public var wordsShown = false

        public var counted: Bool { if case .counted = counting { true } else { false } }
        /// Whether it was heard: enough of it reached the speaker to count (`heard(_:of:)`).
        public var heard: Bool { MessagePlay.heard(heardSeconds, of: recording.duration) }
        /// Whether it counts as played: heard, or its words read.
        public var reached: Bool { heard || wordsShown }
    }

    /// Whether `seconds` played of a message `duration` long count as hearing it: one second, or
    /// the whole message when it is shorter (a few milliseconds short of its stored length).
    public static func heard(_ seconds: Double, of duration: Double) -> Bool {
        seconds > 0 && seconds + 0.05 >= min(1, duration)
    }

    /// The recording `choice` names.
    public static func choose(_ choice: Choice, in library: Library) throws -> Recording {
        switch choice {
        case let .key(key):
            return try library.recording(idOrTitle: key)
        case let .top(rank):
            let ranked = try library.top(rank)
            guard ranked.count >= rank else {
                throw ranked.isEmpty ? Failure.noRecordings : Failure.onlyRanked(count: ranked.count)
            }
            return ranked[rank - 1]
        }
    }

    /// Seconds into `recording` where `start` is.
    public static func seconds(of start: Start, in recording: Recording, library: Library) throws -> Double {
        switch start {
        case .beginning:
            return 0
        case let .at(seconds):
            guard seconds < recording.duration else { throw Failure.pastTheEnd(recording) }
            return seconds
        case let .word(word):
            guard let transcript = try library.transcript(of: recording.id), transcript.state == .done else {
                throw Failure.noTranscript(recording)
            }
            guard let time = transcript.firstTime(of: SearchTerms.words(word)) else {
                throw Failure.notSaid(word: word, in: recording)
            }
            return time
        }
    }

    /// Plays `recording` on `player` through `play` (which returns how the playback ended), then
    /// counts the play if it was heard, unless it is a check-in's, as played at `clock`'s time
    /// when it ended (the session's clock). The sound never waits on the library: while another
    /// process holds it, the count is kept durably and made once it is free. A failed count never
    /// undoes the playback: it is said in the result.
    public static func play(
        _ recording: Recording, in library: Library, on player: any Playback, clock: () -> Date,
        through play: () throws -> AudioPlayer.Ending
    ) rethrows -> Played {
        let ending = try play()
        let seconds = player.heardSeconds
        func played(_ counting: Counting) -> Played {
            Played(recording: recording, ending: ending, counting: counting, heardSeconds: seconds)
        }
        guard recording.checkIn == nil else { return played(.checkIn) }
        guard heard(seconds, of: recording.duration) else { return played(.notHeard) }
        return played(count(recording, in: library, at: clock()))
    }

    /// Counts a play of `recording` whose words were shown instead of its sound, at `now`.
    public static func shown(_ recording: Recording, in library: Library, at now: Date) -> Played {
        Played(
            recording: recording, ending: .finished,
            counting: recording.checkIn == nil ? count(recording, in: library, at: now) : .checkIn, heardSeconds: 0,
            wordsShown: true)
    }

    private static func count(_ recording: Recording, in library: Library, at now: Date) -> Counting {
        do {
            _ = try library.countPlay(recording.id, at: now)
            return .counted
        } catch {
            return .failed(error)
        }
    }

    /// What a message says, for when its sound cannot be heard: its transcript, or why there is none.
    /// Only a draft close enough to be the person's own words is shown (Whisper's); PocketSphinx's
    /// guesses are too often someone else's sentence, so they are kept for `cravey show` alone.
    public enum Words: Sendable, Equatable {
        /// The transcript's text: an automatic draft, shown labelled as one.
        case draft(String)
        /// A draft too rough to be shown as the person's words (PocketSphinx's).
        case rough
        /// A transcript was made and no words were heard in it.
        case silent
        /// No transcript has been made yet (it is made in the background after a save).
        case notYet
        /// The recognizer failed on it.
        case unavailable

        /// Whether these are words to show in place of the sound.
        public var shown: Bool { if case .draft = self { true } else { false } }
    }

    /// The words of `recording`, from its transcript.
    public static func words(of recording: Recording, in library: Library) -> Words {
        guard let transcript = try? library.transcript(of: recording.id) else { return .notYet }
        guard transcript.state == .done else { return .unavailable }
        let text = transcript.text.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { return .silent }
        return transcript.engine.hasPrefix(Transcriber.Engine.pocketsphinx.storedName) ? .rough : .draft(text)
    }

    /// Whether a playback failed to open because of the speaker (ALSA), not the message's file:
    /// then its words can still be shown, and a video's pictures still play.
    public static func isSpeakerProblem(_ error: any Error) -> Bool {
        (error as? MediaError)?.source == .alsa
    }
}
