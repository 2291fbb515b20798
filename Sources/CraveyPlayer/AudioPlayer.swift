import CraveyMedia
import Foundation
import Synchronization

/// Plays a recording's sound to ALSA on its own thread: pause/resume, skips, and a position that
/// matches what is heard (written samples minus the device's delay). `wait` says whether it
/// finished or was dismissed; the caller counts the play (never for a recording's preview).
///
/// What the threads share is under `state`; the decoder is handed to the playback thread, its only
/// user, and the speaker is shared as a `Speaker`.
public final class AudioPlayer: Sendable {
    public enum Ending: Sendable, Equatable { case finished, dismissed }

    public let duration: Double
    public let sampleRate: Int
    private let output: Speaker
    private struct State {
        var paused = false
        var seekTarget: Double?
        var dismissed = false
        var written = 0  // samples written since the last seek
        var base = 0  // sample position of the last seek
        var heard: (samples: Int, at: UInt64) = (0, 0)  // samples heard since the seek, and when
        var ending: Ending?
        var firstSampleAt: UInt64?
        var dismissedAt: UInt64?
        var accepted = 0  // samples the speaker accepted, over the whole playback
        var dropped = 0  // of those, samples dropped before they were heard (a seek, a stop)
        var queued = 0  // of those, samples still in the speaker's buffer at the last write
    }
    /// How long a dismissal waits for the playback thread before the player is left to it: a
    /// speaker that stopped taking samples holds that thread in ALSA, never the person.
    private static let dismissalGrace: UInt64 = 250_000_000
    private let state = Mutex(State())
    private let done = DispatchSemaphore(value: 0)
    /// What the playback thread reads from, taken by it at `start`.
    private let source: Mutex<Source?>
    /// CLOCK_MONOTONIC (ns) of the first sample handed to ALSA, for start-latency measurements.
    public var firstSampleAt: UInt64? { state.withLock { $0.firstSampleAt } }

    /// The file's sound and the gain and limiter it goes through (nil: played as recorded).
    private struct Source {
        let decoder: AudioDecoder
        var limiter: Limiter?

        /// The next block for the speaker, through the gain and limiter when there is one; empty at the end.
        mutating func nextBlock(_ frames: Int) throws -> [Int16] {
            guard limiter != nil else { return try decoder.read(frames: frames) }
            let floats = try decoder.readFloats(frames: frames)
            let out = floats.isEmpty ? limiter!.flush() : limiter!.process(floats)
            if floats.isEmpty && out.isEmpty { return [] }
            return out.map { Int16(max(-32767, min(32767, ($0 * 32767).rounded()))) }
        }
    }

    /// Opens the file's audio and the speaker (ALSA `default` unless told otherwise); with
    /// `level`, the sound is raised or lowered by its gain and limited so it never clips. The
    /// speaker is waited for only until its deadline, or until `stopping` says to stop
    /// (`SpeakerOpening`).
    public init(
        path: String, duration: Double, speaker: String = "default", level: PlaybackLevel? = nil,
        stopping: () -> Bool = { false }
    ) throws {
        let leveled = level.map { $0.gain != 0 } ?? false
        let decoder = try AudioDecoder(path: path, floats: leveled)
        var limiter: Limiter?
        if leveled, let level {
            limiter = Limiter(
                gainDecibels: level.gain, ceilingDecibels: PlaybackLevel.sampleCeiling, sampleRate: decoder.sampleRate)
        }
        // The speaker is handed a moment of silence while it is waited for: a speaker that opens
        // but never takes it answers within the deadline, not never, and the message itself
        // starts whole (from where it was asked to start) when the playback starts.
        let lead = [Int16](repeating: 0, count: decoder.sampleRate * Self.leadMilliseconds / 1000)
        output = Speaker(
            try SpeakerOpening.open(
                device: speaker, sampleRate: decoder.sampleRate, channels: 1, first: lead, stopping: stopping))
        self.duration = duration
        sampleRate = decoder.sampleRate
        source = Mutex(Source(decoder: decoder, limiter: limiter))
        state.withLock { $0.heard = (0, monotonicNanoseconds()) }
    }

    /// The silence the speaker is given while it is waited for: its buffer (100 ms) and one
    /// period more, so that one that never plays it is caught by the deadline.
    static let leadMilliseconds = 120

    public func start() {
        guard let source = source.withLock({ $0.take() }) else { return }
        let handOver = Mutex<Source?>(source)
        let thread = Thread { [self] in feed(handOver.withLock { $0.take() }!) }
        thread.name = "cravey playback"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// The playback thread: the source is its own.
    private func feed(_ source: consuming Source) {
        var source = source
        let block = sampleRate / 50  // 20 ms
        while true {
            let (isPaused, target, stop) = state.withLock { ($0.paused, $0.seekTarget, $0.dismissed) }
            if stop { break }
            if let target {
                drop()
                try? source.decoder.seek(to: target)
                source.limiter?.reset()
                let base = source.decoder.position
                state.withLock {
                    $0.seekTarget = nil
                    $0.base = base
                    $0.written = 0
                    $0.heard = (0, monotonicNanoseconds())
                }
                if isPaused { output.pause(true) }
                continue
            }
            if isPaused { usleep(10_000); continue }
            guard let samples = try? source.nextBlock(block), !samples.isEmpty else {
                output.drain()
                state.withLock {
                    $0.queued = 0
                    $0.ending = $0.dismissed ? .dismissed : .finished
                }
                done.signal()
                return
            }
            if state.withLock({ $0.firstSampleAt == nil }) {
                let at = monotonicNanoseconds()
                state.withLock { $0.firstSampleAt = at }
            }
            let accepted = (try? output.write(samples)) != nil
            // The device's delay is read here, on the feeding thread, so that the screen (which
            // asks for the position many times a second) never waits on ALSA.
            let delay = output.delayFrames
            let now = monotonicNanoseconds()
            state.withLock {
                $0.written += samples.count
                $0.heard = ($0.written - delay, now)
                if accepted { $0.accepted += samples.count }
                $0.queued = min(max(0, delay), $0.accepted - $0.dropped)
            }
        }
        drop()
        state.withLock { $0.ending = .dismissed }
        done.signal()
    }

    /// Forgets what the speaker has not played yet, which is then never heard.
    private func drop() {
        let delay = output.delayFrames
        output.drop()
        state.withLock {
            $0.dropped += min(max(0, delay), $0.accepted - $0.dropped)
            $0.queued = 0
        }
    }

    /// Seconds heard so far: what had reached the speaker at the last write, plus the time since.
    public var position: Double {
        let (b, w, p, h) = state.withLock { ($0.base, $0.written, $0.paused, $0.heard) }
        // Samples still behind the speaker's lead-in silence count as negative until it has played.
        var samples = Double(h.samples)
        if !p { samples += Double(monotonicNanoseconds() - h.at) / 1e9 * Double(sampleRate) }
        samples = min(max(0, samples), Double(w))
        return min(duration, (Double(b) + samples) / Double(sampleRate))
    }

    public var isPaused: Bool { state.withLock { $0.paused } }

    /// Seconds of sound the speaker played, over the whole playback: the samples ALSA accepted,
    /// less those still in its buffer or dropped before they were played (a seek, a stop). What
    /// decides whether a message was heard.
    public var heardSeconds: Double {
        Double(state.withLock { $0.accepted - $0.dropped - $0.queued }) / Double(sampleRate)
    }

    public func togglePause() {
        let sampleRate = self.sampleRate
        state.withLock {
            // Keep the position where it is while paused, and count on from it after.
            let now = monotonicNanoseconds()
            if !$0.paused {
                $0.heard = (
                    min($0.written, $0.heard.samples + Int(Double(now - $0.heard.at) / 1e9 * Double(sampleRate))), now
                )
            } else {
                $0.heard.at = now
            }
            $0.paused.toggle()
        }
        output.pause(isPaused)
    }

    /// Moves by `seconds` (clamped to the recording).
    public func skip(_ seconds: Double) {
        let target = min(max(0, position + seconds), max(0, duration - 0.05))
        state.withLock { $0.seekTarget = target }
    }

    /// Stops now (the user quit).
    public func dismiss() {
        let now = monotonicNanoseconds()
        state.withLock {
            $0.dismissed = true
            if $0.dismissedAt == nil { $0.dismissedAt = now }
        }
    }

    /// Waits for the end (or the dismissal) and says which it was. A dismissal is answered within
    /// a quarter of a second even when the playback thread is held by the speaker (it is left
    /// behind, and ends by itself if the speaker ever lets go).
    public func wait(timeout: DispatchTime = .distantFuture) -> Ending? {
        while true {
            let givenUpAt = state.withLock { state in state.dismissedAt.map { $0 + Self.dismissalGrace } }
            let slice = min(timeout, .now() + .milliseconds(20))  // a dismissal may come meanwhile
            if done.wait(timeout: slice) == .success {
                done.signal()
                return state.withLock { $0.ending }
            }
            if let givenUpAt, monotonicNanoseconds() >= givenUpAt { return .dismissed }
            if DispatchTime.now() >= timeout { return nil }
        }
    }
}

/// The speaker, shared by the playback thread and the one that pauses it.
// Unchecked: `AudioOutput` owns a C handle, which the compiler cannot see is safe to share. It is
// because alsa-lib locks each PCM around its calls (its thread-safe default), so the caller may
// pause while the playback thread writes; everything else on the speaker is the playback thread's.
private struct Speaker: @unchecked Sendable {
    private let output: AudioOutput

    init(_ output: AudioOutput) { self.output = output }

    func write(_ samples: [Int16]) throws { try output.write(samples) }
    var delayFrames: Int { output.delayFrames }
    func pause(_ paused: Bool) { output.pause(paused) }
    func drop() { output.drop() }
    func drain() { output.drain() }
}
