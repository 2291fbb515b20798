internal import CALSA
import FoundationEssentials
import Glibc

/// A speaker: an ALSA playback stream of interleaved 16-bit samples.
public final class AudioOutput {
    private let playback: OpaquePointer
    public let device: String
    public let sampleRate: Int
    public let channels: Int

    public init(device: String = "default", sampleRate: Int = 48_000, channels: Int = 1) throws {
        try SharedLibrary.alsa.load()
        var pointer: OpaquePointer?
        let result = CALSA_playback_open(device, UInt32(sampleRate), UInt32(channels), &pointer)
        guard result == 0, let pointer else {
            if result == -EBUSY {
                throw MediaError(
                    source: .alsa, code: result, operation: "open speaker '\(device)'",
                    message: "the device is busy (another program is using it)")
            }
            throw MediaError.alsa(result, "open speaker '\(device)'")
        }
        playback = pointer
        self.device = device
        self.sampleRate = Int(CALSA_playback_rate(pointer))
        self.channels = channels
    }

    deinit { CALSA_playback_close(playback) }

    /// The failure of a speaker that did not open within `seconds`
    /// (a device or plugin that waits instead of answering); its kind is `timedOut`.
    public static func notAnswering(_ device: String, within seconds: Int) -> MediaError {
        MediaError(
            source: .alsa, code: -ETIMEDOUT, operation: "open speaker '\(device)'",
            message: "it did not answer within \(seconds) seconds")
    }

    /// Writes the samples (blocking while the device buffer is full).
    public func write(_ samples: [Int16]) throws {
        let n = samples.withUnsafeBufferPointer {
            CALSA_playback_write(playback, $0.baseAddress, UInt($0.count / channels))
        }
        guard n >= 0 else { throw MediaError.alsa(Int32(n), "play to '\(device)'") }
    }

    /// Frames written but not heard yet.
    public var delayFrames: Int { Int(CALSA_playback_delay(playback)) }

    public func pause(_ paused: Bool) { _ = CALSA_playback_pause(playback, paused ? 1 : 0) }
    /// Forgets what is queued (before a seek).
    public func drop() { _ = CALSA_playback_drop(playback) }
    /// Waits until everything written was heard.
    public func drain() { _ = CALSA_playback_drain(playback) }
}
