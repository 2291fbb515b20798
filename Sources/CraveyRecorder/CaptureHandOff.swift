import CraveyMedia
import FoundationEssentials
import Glibc
import Synchronization

/// What the sound thread tells the picture thread, under one lock: the recording's zero on the
/// monotonic clock (the first sample's capture time, or the first frame's in a silent video), how
/// far the sound has reached on that clock, and — once it stopped — where it ended. Pictures are
/// placed against the zero, written once the sound has reached their time, and never past its end,
/// so sound and pictures end together.
final class CaptureHandOff: Sendable {
    private struct State {
        var zero: Int64?
        var covered: Int64 = 0
        var end: Int64?
        /// Pauses on the monotonic clock: from the end of the last sound kept to the start of the
        /// first sound kept after (end nil while paused).
        var pauses: [(start: Int64, end: Int64?)] = []
    }
    private let state = Mutex(State())

    /// Sound side: the recording's zero (kept from the first call) and how far the sound reaches
    /// now, in microseconds from it.
    func soundReached(_ microseconds: Int64, zero: Int64) {
        state.withLock {
            if $0.zero == nil { $0.zero = zero }
            $0.covered = microseconds
        }
    }

    /// Sound side: the sound stopped; the pictures end where it reached.
    func soundEnded() { state.withLock { $0.end = $0.covered } }

    /// Sound side: the recording paused after sound that ended at `nanoseconds`.
    func pauseBegan(at nanoseconds: Int64) { state.withLock { $0.pauses.append((nanoseconds, nil)) } }

    /// Sound side: it resumed with sound that starts at `nanoseconds`.
    func pauseEnded(at nanoseconds: Int64) {
        state.withLock { state in
            guard let last = state.pauses.indices.last, state.pauses[last].end == nil else { return }
            state.pauses[last].end = max(nanoseconds, state.pauses[last].start)
        }
    }

    /// Whether the last pause has not ended yet (on the sound's side).
    var pauseIsOpen: Bool { state.withLock { $0.pauses.last.map { $0.end == nil } ?? false } }

    /// Picture side: a frame's capture time with the pauses before it taken out (the clock the
    /// recording follows), or nil for a frame captured during a pause (it is left out).
    func recordingClock(ofFrameAt nanoseconds: Int64) -> Int64? {
        state.withLock { state in
            var shift: Int64 = 0
            for pause in state.pauses {
                if nanoseconds < pause.start { break }
                guard let end = pause.end, nanoseconds >= end else { return nil }
                shift += end - pause.start
            }
            return nanoseconds - shift
        }
    }

    /// Where the sound ended, once it has.
    var soundEnd: Int64? { state.withLock { $0.end } }

    /// The zero, once known; a silent video's first frame (captured at `firstFrame`) sets it.
    func zero(orFirstFrame firstFrame: Int64?) -> Int64? {
        state.withLock { state in
            if state.zero == nil, let firstFrame { state.zero = firstFrame }
            return state.zero
        }
    }

    /// Picture side: where a frame captured at `nanoseconds` goes, in microseconds from the zero.
    static func position(ofFrameAt nanoseconds: Int64, zero: Int64) -> Int64 { (nanoseconds - zero) / 1000 }

    /// Picture side: waits until the sound has reached `position` or has ended (at most
    /// `timeoutNanoseconds`), and returns where the sound ended, if it has.
    func waitForSound(reaching position: Int64, timeoutNanoseconds: UInt64) -> Int64? {
        let start = monotonicNanoseconds()
        while true {
            let (reached, ended) = state.withLock { ($0.covered, $0.end) }
            if ended != nil || reached >= position || monotonicNanoseconds() - start > timeoutNanoseconds {
                return ended
            }
            usleep(2_000)
        }
    }
}
