import CraveyMedia
import Foundation
import Synchronization

/// What `cravey play` drives: the sound through ALSA (`AudioPlayer`) or, for a video without
/// sound, a clock (`SilentPlayer`).
public protocol Playback: AnyObject, Sendable {
    var duration: Double { get }
    var position: Double { get }
    var isPaused: Bool { get }
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

    public func togglePause() {
        state.withLock {
            $0.offset = $0.rawPosition
            $0.paused.toggle()
            $0.startedAt = monotonicNanoseconds()
        }
    }

    public func skip(_ seconds: Double) {
        state.withLock {
            $0.offset = min(max(0, $0.rawPosition + seconds), max(0, duration - 0.05))
            $0.startedAt = monotonicNanoseconds()
        }
    }

    public func dismiss() { state.withLock { if $0.ending == nil { $0.ending = .dismissed } } }

    public func wait(timeout: DispatchTime) -> AudioPlayer.Ending? {
        while true {
            if let ending = state.withLock({ $0.ending ?? ($0.rawPosition >= duration ? .finished : nil) }) {
                state.withLock { $0.ending = ending }
                return ending
            }
            if DispatchTime.now() >= timeout { return nil }
            usleep(5_000)
        }
    }
}
