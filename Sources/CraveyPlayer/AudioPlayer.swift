import CraveyMedia
import Foundation

/// Plays a recording's sound to ALSA on its own thread: pause/resume, skips, and a position that
/// matches what is heard (written samples minus the device's delay). `wait` says whether it
/// finished or was dismissed; the caller counts the play (never for a recording's preview).
// Unchecked: owns the decoder's and speaker's C handles, used only on its playback thread; the rest is under `state` (an NSLock).
public final class AudioPlayer: @unchecked Sendable {
    public enum Ending: Sendable, Equatable { case finished, dismissed }

    public let duration: Double
    public let sampleRate: Int
    private let decoder: AudioDecoder
    private let output: AudioOutput
    private let state = NSLock()
    private var paused = false
    private var seekTarget: Double?
    private var dismissed = false
    private var written = 0          // samples written since the last seek
    private var base = 0             // sample position of the last seek
    private var heard: (samples: Int, at: UInt64) = (0, 0)  // samples heard since the seek, and when
    private var ending: Ending?
    private let done = DispatchSemaphore(value: 0)
    private var thread: Thread?
    /// CLOCK_MONOTONIC (ns) of the first sample handed to ALSA, for start-latency measurements.
    public private(set) var firstSampleAt: UInt64?

    /// The gain and limiter sound goes through (nil: played as recorded).
    private var limiter: Limiter?

    /// Opens the file's audio and the speaker (ALSA `default` unless told otherwise); with
    /// `level`, the sound is raised or lowered by its gain and limited so it never clips.
    public init(path: String, duration: Double, speaker: String = "default", level: PlaybackLevel? = nil) throws {
        let leveled = level.map { $0.gain != 0 } ?? false
        decoder = try AudioDecoder(path: path, floats: leveled)
        output = try AudioOutput(device: speaker, sampleRate: decoder.sampleRate, channels: 1)
        self.duration = duration
        sampleRate = decoder.sampleRate
        if leveled, let level {
            limiter = Limiter(gainDecibels: level.gain, ceilingDecibels: PlaybackLevel.sampleCeiling, sampleRate: decoder.sampleRate)
        }
    }

    /// The next block for the speaker, through the gain and limiter when there is one; empty at the end.
    private func nextBlock(_ frames: Int) throws -> [Int16] {
        guard limiter != nil else { return try decoder.read(frames: frames) }
        let floats = try decoder.readFloats(frames: frames)
        let out = floats.isEmpty ? limiter!.flush() : limiter!.process(floats)
        if floats.isEmpty && out.isEmpty { return [] }
        return out.map { Int16(max(-32767, min(32767, ($0 * 32767).rounded()))) }
    }

    public func start() {
        let thread = Thread { [self] in feed() }
        thread.name = "cravey playback"
        thread.qualityOfService = .userInteractive
        self.thread = thread
        thread.start()
    }

    private func feed() {
        let block = sampleRate / 50  // 20 ms
        while true {
            let (isPaused, target, stop) = state.withLock { (paused, seekTarget, dismissed) }
            if stop { break }
            if let target {
                output.drop()
                try? decoder.seek(to: target)
                limiter?.reset()
                state.withLock {
                    seekTarget = nil
                    base = decoder.position
                    written = 0
                    heard = (0, monotonicNanoseconds())
                }
                if isPaused { output.pause(true) }
                continue
            }
            if isPaused { usleep(10_000); continue }
            guard let samples = try? nextBlock(block), !samples.isEmpty else {
                output.drain()
                state.withLock { ending = dismissed ? .dismissed : .finished }
                done.signal()
                return
            }
            if firstSampleAt == nil { firstSampleAt = monotonicNanoseconds() }
            try? output.write(samples)
            // The device's delay is read here, on the feeding thread, so that the screen (which
            // asks for the position many times a second) never waits on ALSA.
            let delay = output.delayFrames
            let now = monotonicNanoseconds()
            state.withLock {
                written += samples.count
                heard = (written - delay, now)
            }
        }
        output.drop()
        state.withLock { ending = .dismissed }
        done.signal()
    }

    /// Seconds heard so far: what had reached the speaker at the last write, plus the time since.
    public var position: Double {
        let (b, w, p, h) = state.withLock { (base, written, paused, heard) }
        var samples = Double(max(0, h.samples))
        if !p { samples += Double(monotonicNanoseconds() - h.at) / 1e9 * Double(sampleRate) }
        samples = min(samples, Double(w))
        return min(duration, (Double(b) + samples) / Double(sampleRate))
    }

    public var isPaused: Bool { state.withLock { paused } }

    public func togglePause() {
        state.withLock {
            // Keep the position where it is while paused, and count on from it after.
            let now = monotonicNanoseconds()
            if !paused { heard = (min(written, heard.samples + Int(Double(now - heard.at) / 1e9 * Double(sampleRate))), now) }
            else { heard.at = now }
            paused.toggle()
        }
        output.pause(isPaused)
    }

    /// Moves by `seconds` (clamped to the recording).
    public func skip(_ seconds: Double) {
        let target = min(max(0, position + seconds), max(0, duration - 0.05))
        state.withLock { seekTarget = target }
    }

    /// Stops now (the user quit).
    public func dismiss() { state.withLock { dismissed = true } }

    /// Waits for the end (or the dismissal) and says which it was.
    public func wait(timeout: DispatchTime = .distantFuture) -> Ending? {
        guard done.wait(timeout: timeout) == .success else { return nil }
        done.signal()
        return state.withLock { ending }
    }
}
