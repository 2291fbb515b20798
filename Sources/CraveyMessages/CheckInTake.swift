import CraveyLibrary
import CraveyRecorder
import Foundation

/// The daily check-in's recording: the entry is begun for its day before the microphone opens
/// (so a crash leaves a take that recovery saves as that day's entry), recorded, then saved — or
/// abandoned, which leaves the day free to be recorded again. The screens and the scripted
/// check-in both go through it; stopping the recorder is theirs.
public final class CheckInTake: Sendable {
    /// Why a check-in's take stopped short (the command line words it).
    public enum Failure: Error {
        /// The day has its entry already (one a day, kept as it was saved).
        case alreadyCheckedIn(day: String)
        /// The microphone could not start: the entry is abandoned (its mood kept when asked).
        case start(any Error)
        /// The capture could not be finished: the entry is abandoned.
        case finish(any Error)
        /// The finished take could not be saved: the next opening of the library recovers it.
        case save(any Error)
    }

    /// What became of a finished take.
    public enum Outcome: Sendable {
        /// Saved as the day's entry.
        case saved(Recording)
        /// Thrown away (after the user confirmed): the day may be recorded again.
        case discarded
    }

    public let library: Library
    public let day: String
    /// The check-in's recorder (voice only), for the caller's stop keys and signals.
    public let recorder: Recorder

    /// Begins `day`'s entry with `mood` and `prompt` (the day's question when nil) for a new
    /// recorder on `mic`, capped at `maxSeconds`. A day that has its entry is refused before the
    /// microphone opens.
    public init(
        library: Library, day: String, mood: CheckIn.Mood, prompt: String? = nil, mic: String, maxSeconds: Double
    ) throws {
        let recorder = Recorder(library: library, microphone: mic, maxSeconds: maxSeconds)
        if try library.checkIn(on: day, ownOnly: true) != nil { throw Failure.alreadyCheckedIn(day: day) }
        try library.beginCheckIn(day, mood: mood, prompt: prompt ?? library.prompt(for: day), recording: recorder.id)
        self.library = library
        self.day = day
        self.recorder = recorder
    }

    /// Starts recording. When the microphone cannot start, the entry is abandoned; with
    /// `keepingMood` the mood chosen stays for the next try.
    public func start(keepingMood: Bool = false) throws {
        do {
            try recorder.start()
        } catch {
            try? library.abandonCheckIn(recording: recorder.id, keepingMood: keepingMood)
            throw Failure.start(error)
        }
    }

    /// Finishes the capture (waiting for the recorder to stop), then saves it as the day's entry,
    /// or with `discarding` throws it away and abandons the entry.
    public func finish(discarding: Bool = false) throws -> Outcome {
        let take: Take
        do {
            take = try Take.finish(recorder)
        } catch {
            try? library.abandonCheckIn(recording: recorder.id)
            throw Failure.finish(error)
        }
        if discarding {
            take.discard()
            try library.abandonCheckIn(recording: recorder.id)
            return .discarded
        }
        do {
            return .saved(try take.save(draft: Library.Draft()))
        } catch {
            throw Failure.save(error)
        }
    }
}
