import CraveyMedia
import Foundation
import Synchronization

/// What `cravey play` drives: the sound through ALSA (`AudioPlayer`) or, for a video without
/// sound, a clock (`SilentPlayer`).
public protocol Playback: AnyObject, Sendable {
    var duration: Double { get }
    var position: Double { get }
    var isPaused: Bool { get }
    /// Seconds of it that were really played: sound the speaker accepted, or a silent video's
    /// pictures shown.
    var heardSeconds: Double { get }
    var firstSampleAt: UInt64? { get }
    func start()
    func togglePause()
    func skip(_ seconds: Double)
    func dismiss()
    func wait(timeout: DispatchTime) -> AudioPlayer.Ending?
}

extension AudioPlayer: Playback {}

extension Playback {
    /// Waits for the end (or the dismissal).
    public func wait() -> AudioPlayer.Ending? { wait(timeout: .distantFuture) }
}

/// The playback clock of a silent video: monotonic time, with pause and skips.
public final class SilentPlayer: Playback {
    public let duration: Double
    private struct Clock {
        var startedAt: UInt64?
        var offset = 0.0  // position when the clock last (re)started
        var paused = false
        var ending: AudioPlayer.Ending?
        var shown = 0.0  // seconds shown before the clock last (re)started

        /// Seconds shown so far: before the last (re)start, and since it.
        var shownSeconds: Double {
            guard let startedAt, !paused, ending == nil else { return shown }
            return shown + Double(monotonicNanoseconds() - startedAt) / 1e9
        }

        var rawPosition: Double {
            guard let startedAt, !paused else { return offset }
            return offset + Double(monotonicNanoseconds() - startedAt) / 1e9
        }
    }
    private let state = Mutex(Clock())
    public var firstSampleAt: UInt64? { state.withLock { $0.startedAt } }

    public init(duration: Double) { self.duration = duration }

    public func start() { state.withLock { $0.startedAt = monotonicNanoseconds() } }

    public var position: Double { state.withLock { min(duration, $0.rawPosition) } }
    public var isPaused: Bool { state.withLock { $0.paused } }
    public var heardSeconds: Double { state.withLock { min(duration, $0.shownSeconds) } }

    public func togglePause() {
        state.withLock {
            $0.shown = $0.shownSeconds
            $0.offset = $0.rawPosition
            $0.paused.toggle()
            $0.startedAt = monotonicNanoseconds()
        }
    }

    public func skip(_ seconds: Double) {
        state.withLock {
            $0.shown = $0.shownSeconds
            $0.offset = min(max(0, $0.rawPosition + seconds), max(0, duration - 0.05))
            $0.startedAt = monotonicNanoseconds()
        }
    }

    public func dismiss() {
        state.withLock {
            guard $0.ending == nil else { return }
            $0.shown = $0.shownSeconds
            $0.ending = .dismissed
        }
    }

    public func wait(timeout: DispatchTime) -> AudioPlayer.Ending? {
        while true {
            let ending = state.withLock { clock -> AudioPlayer.Ending? in
                guard let ending = clock.ending ?? (clock.rawPosition >= duration ? .finished : nil) else { return nil }
                if clock.ending == nil { clock.shown = clock.shownSeconds }
                clock.ending = ending
                return ending
            }
            if let ending { return ending }
            if DispatchTime.now() >= timeout { return nil }
            usleep(5_000)
        }
    }
}
