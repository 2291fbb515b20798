import CraveyMedia
import Foundation
import Synchronization

/// Opening a speaker without ever hanging on it: the open, the configuration and the first write
/// run on a thread of their own, and the caller waits for them only until a deadline or until it
/// is told to stop (the writes that follow are the playback thread's, which a stop never waits for
/// either). Some speakers wait instead of answering (ALSA's `file` plugin opening a pipe nobody
/// reads or writing into one nobody empties, a device whose clock does not run); the worker left
/// waiting on one is abandoned, closes the speaker itself if it ever answers, and never keeps the
/// process from exiting.
public enum SpeakerOpening {
    /// How long a speaker may take to open and take its first samples.
    public static let deadlineSeconds = 2

    /// The wait for the speaker was given up because a stop was asked (a key, a signal).
    public struct Stopped: Error, Sendable {}

    /// Opens `device` on a worker, writes `first` to it there, and waits for both: its speaker
    /// once it took the samples; its `MediaError` when it failed; `AudioOutput.notAnswering` after
    /// the deadline; `Stopped` as soon as `stopping` (asked every 20 ms on the caller's thread)
    /// says so. A `first` longer than the speaker's buffer makes a speaker that never plays
    /// what it is given answer within the deadline too.
    public static func open(
        device: String, sampleRate: Int, channels: Int, first: [Int16] = [], within seconds: Int = deadlineSeconds,
        stopping: () -> Bool = { false }
    ) throws -> AudioOutput {
        let answer = Answer()
        let thread = Thread {
            let result = Result { () throws -> Handed in
                let output = try AudioOutput(device: device, sampleRate: sampleRate, channels: channels)
                if !first.isEmpty { try output.write(first) }
                return Handed(output: output)
            }
            answer.give(result)
        }
        thread.name = "cravey speaker opening"
        thread.start()
        let deadline = DispatchTime.now() + .seconds(seconds)
        while true {
            if answer.ready.wait(timeout: min(deadline, .now() + .milliseconds(20))) == .success {
                return try answer.take().get().output
            }
            if stopping() {
                answer.abandon()
                throw Stopped()
            }
            if DispatchTime.now() >= deadline {
                answer.abandon()
                throw AudioOutput.notAnswering(device, within: seconds)
            }
        }
    }

    /// A speaker handed from the worker to the waiting thread.
    // Unchecked: the worker lets go of the speaker when it hands it over; one thread holds it at a time.
    private struct Handed: @unchecked Sendable {
        let output: AudioOutput
    }

    /// The worker's answer, kept until the waiting thread takes it or gives up on it.
    private final class Answer: Sendable {
        private struct State {
            var result: Result<Handed, any Error>?
            var abandoned = false
        }
        private let state = Mutex(State())
        let ready = DispatchSemaphore(value: 0)

        /// From the worker: kept for the waiting thread, or (given up on) closed at once.
        func give(_ result: Result<Handed, any Error>) {
            let kept = state.withLock { state -> Bool in
                guard !state.abandoned else { return false }
                state.result = result
                return true
            }
            if kept { ready.signal() }
        }

        func take() -> Result<Handed, any Error> {
            state.withLock { state in
                defer { state.result = nil }
                return state.result!
            }
        }

        /// The waiting thread gives up: an answer that comes later is dropped (its speaker closed).
        func abandon() {
            let late = state.withLock { state -> Result<Handed, any Error>? in
                state.abandoned = true
                defer { state.result = nil }
                return state.result
            }
            _ = late
        }
    }
}
