import CraveyLibrary
import CraveyMedia
import CraveyPlayer
import Foundation

/// Playing a message when it is needed: choosing it (by key, or by its rank among the most
/// played), where to start in it, and counting the play once it ended or was stopped. Plays rank
/// messages only: a check-in is listened back to, never counted.
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

        public var counted: Bool { if case .counted = counting { true } else { false } }
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

    /// Plays `recording` through `play` (which returns how the playback ended), then counts the
    /// play unless it is a check-in's. The sound never waits on the library: while another
    /// process holds it, the count is kept durably and made once it is free. A failed count never
    /// undoes the playback: it is said in the result.
    public static func play(
        _ recording: Recording, in library: Library,
        through play: () throws -> AudioPlayer.Ending
    ) rethrows -> Played {
        let ending = try play()
        guard recording.checkIn == nil else { return Played(recording: recording, ending: ending, counting: .checkIn) }
        do {
            _ = try library.countPlay(recording.id)
            return Played(recording: recording, ending: ending, counting: .counted)
        } catch {
            return Played(recording: recording, ending: ending, counting: .failed(error))
        }
    }

    /// What a message says, for when its sound cannot be heard: its transcript, or why there is none.
    public enum Words: Sendable, Equatable {
        /// The transcript's text.
        case said(String)
        /// A transcript was made and no words were heard in it.
        case silent
        /// No transcript has been made yet (it is made in the background after a save).
        case notYet
        /// The recognizer failed on it.
        case unavailable
    }

    /// The words of `recording`, from its transcript.
    public static func words(of recording: Recording, in library: Library) -> Words {
        guard let transcript = try? library.transcript(of: recording.id) else { return .notYet }
        guard transcript.state == .done else { return .unavailable }
        let text = transcript.text.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? .silent : .said(text)
    }

    /// Whether a playback failed to open because of the speaker (ALSA), not the message's file:
    /// then its words can still be shown, and a video's pictures still play.
    public static func isSpeakerProblem(_ error: any Error) -> Bool {
        (error as? MediaError)?.source == .alsa
    }
}
