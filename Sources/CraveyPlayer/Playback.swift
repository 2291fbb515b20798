import CraveyMedia
import Foundation

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
public final class SilentPlayer: Playback, @unchecked Sendable {
    public let duration: Double
    private let state = NSLock()
    private var startedAt: UInt64?
    private var offset = 0.0        // position when the clock last (re)started
    private var paused = false
    private var ending: AudioPlayer.Ending?
    public var firstSampleAt: UInt64? { state.withLock { startedAt } }

    public init(duration: Double) { self.duration = duration }

    public func start() { state.withLock { startedAt = monotonicNanoseconds() } }

    private var rawPosition: Double {
        guard let startedAt, !paused else { return offset }
        return offset + Double(monotonicNanoseconds() - startedAt) / 1e9
    }

    public var position: Double { state.withLock { min(duration, rawPosition) } }
    public var isPaused: Bool { state.withLock { paused } }

    public func togglePause() {
        state.withLock {
            offset = rawPosition
            paused.toggle()
            startedAt = monotonicNanoseconds()
        }
    }

    public func skip(_ seconds: Double) {
        state.withLock {
            offset = min(max(0, rawPosition + seconds), max(0, duration - 0.05))
            startedAt = monotonicNanoseconds()
        }
    }

    public func dismiss() { state.withLock { if ending == nil { ending = .dismissed } } }

    public func wait(timeout: DispatchTime) -> AudioPlayer.Ending? {
        while true {
            if let ending = state.withLock({ ending ?? (rawPosition >= duration ? .finished : nil) }) {
                state.withLock { self.ending = ending }
                return ending
            }
            if DispatchTime.now() >= timeout { return nil }
            usleep(5_000)
        }
    }
}
